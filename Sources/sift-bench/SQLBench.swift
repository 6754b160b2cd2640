// Owned by the SQL work (issue 4): SQL compilation benchmarks.
func runSQLBenchmarks(_ options: BenchOptions) throws {}
