// sift-bench: speed measurements for Sift, printed as one JSON line per measurement.
// Run in release: swift run -c release sift-bench [--format 'P'] [--arg JSON]... [--data FILE]
import Foundation
import SiftSyntax

let options: BenchOptions
do {
  options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("sift-bench: \(error)\n".utf8))
  exit(2)
}

do {
  if options.format == nil && options.data == nil {
    // The standard set: parsing, evaluation and SQL compilation, each against its baselines.
    if options.runs("parse") { try runParseBenchmarks(options) }
    if options.runs("evaluate") { try runEvaluateBenchmarks(options) }
    if options.runs("sql") { try runSQLBenchmarks(options) }
    if options.runs("fetch") { try runFetchBenchmarks(options) }
    if options.suites.contains("existing") { try runExistingBenchmarks(options) }
    if options.suites.contains("live") {
      try runLiveBenchmarks(options)
      try runLiveSQLiteBenchmarks(options)
    }
    if options.suites.contains("scale") { try runScaleBenchmarks(options) }
    if options.suites.contains("decode") { try runDecodeBenchmarks(options) }
    if options.suites.contains("hostile") { try runHostileBenchmarks(options) }
    if options.suites.contains("columnar") { try runColumnarBenchmarks(options) }
  } else {
    if options.format != nil { try runParseBenchmarks(options) }
    if options.data != nil { try runEvaluateBenchmarks(options) }
    if options.format != nil, options.schema != nil { try runSQLBenchmarks(options) }
  }
} catch {
  FileHandle.standardError.write(Data("sift-bench: \(error)\n".utf8))
  exit(1)
}
