// Owned by the evaluation work (issue 3): evaluation benchmarks against baselines.
func runEvaluateBenchmarks(_ options: BenchOptions) throws {}
