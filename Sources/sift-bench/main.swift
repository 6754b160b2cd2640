// sift-bench: speed measurements for Sift, printed as one JSON line per measurement.
// Run in release: swift run -c release sift-bench [--format 'P'] [--arg JSON]... [--data FILE]
//   [--suite S]... [--record baselines.json | --check baselines.json]
import Foundation
import SiftSyntax

var options: BenchOptions
do {
  options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("sift-bench: \(error)\n".utf8))
  exit(2)
}

do {
  var baselines: BenchBaselines?
  if let path = options.check {
    let b = try BenchBaselines.load(path)
    if options.suites.isEmpty { options.suites = Set(b.quickSuites) }
    baselines = b
  }
  if options.format == nil && options.data == nil {
    try runSuites(options)
  } else {
    if options.format != nil { try runParseBenchmarks(options) }
    if options.data != nil { try runEvaluateBenchmarks(options) }
    if options.format != nil, options.schema != nil { try runSQLBenchmarks(options) }
  }
  if let path = options.record { try recordBaselines(path, options) }
  if let b = baselines, try !checkBaselines(b, options) { exit(1) }
} catch {
  FileHandle.standardError.write(Data("sift-bench: \(error)\n".utf8))
  exit(1)
}

/// The standard set (parsing, evaluation, SQL compilation, fetching, each against its
/// baselines), or the suites named with `--suite`.
func runSuites(_ options: BenchOptions) throws {
  let recorder = BenchRecorder.shared
  func suite(_ name: String, inDefaultSet: Bool, _ body: () throws -> Void) rethrows {
    guard inDefaultSet ? options.runs(name) : options.suites.contains(name) else { return }
    recorder.start(name)
    try body()
  }
  try suite("parse", inDefaultSet: true) { try runParseBenchmarks(options) }
  try suite("evaluate", inDefaultSet: true) { try runEvaluateBenchmarks(options) }
  try suite("sql", inDefaultSet: true) { try runSQLBenchmarks(options) }
  try suite("fetch", inDefaultSet: true) { try runFetchBenchmarks(options) }
  try suite("existing", inDefaultSet: false) { try runExistingBenchmarks(options) }
  try suite("live", inDefaultSet: false) {
    try runLiveBenchmarks(options)
    try runLiveSQLiteBenchmarks(options)
  }
  try suite("live-postgres", inDefaultSet: false) { try runLivePostgresBenchmarks(options) }
  try suite("scale", inDefaultSet: false) { try runScaleBenchmarks(options) }
  try suite("decode", inDefaultSet: false) { try runDecodeBenchmarks(options) }
  try suite("hostile", inDefaultSet: false) { try runHostileBenchmarks(options) }
  try suite("columnar", inDefaultSet: false) { try runColumnarBenchmarks(options) }
  try suite("typed", inDefaultSet: false) { try runTypedBenchmarks(options) }
}

/// `--record FILE`: this run's ratios replace the file's entries of the suites run.
func recordBaselines(_ path: String, _ options: BenchOptions) throws {
  let run = BenchRecorder.shared.entries
  let suitesRun = Set(run.map(\.suite))
  var file =
    FileManager.default.fileExists(atPath: path)
    ? try BenchBaselines.load(path)
    : BenchBaselines(tolerance: 0.25, quickSuites: ["parse", "evaluate", "sql", "fetch"], measuredOn: "", entries: [])
  file.entries = file.entries.filter { !suitesRun.contains($0.suite) } + run
  file.entries.sort { ($0.suite, $0.measurement, $0.field) < ($1.suite, $1.measurement, $1.field) }
  try file.write(path)
  FileHandle.standardError.write(
    Data("sift-bench: \(run.count) ratios of \(suitesRun.sorted()) recorded in \(path)\n".utf8))
}

/// `--check FILE`: prints each regression and a summary line; false when any ratio is more than
/// the tolerance worse, or a baseline of a suite run was not measured.
func checkBaselines(_ baselines: BenchBaselines, _ options: BenchOptions) throws -> Bool {
  let run = BenchRecorder.shared.entries
  let suitesRun = Set(run.map(\.suite))
  var inScope = baselines
  inScope.entries = baselines.entries.filter { suitesRun.contains($0.suite) }
  let result = inScope.compare(run)
  for r in result.regressions { FileHandle.standardError.write(Data("sift-bench: worse: \(r)\n".utf8)) }
  for m in result.missing {
    FileHandle.standardError.write(Data("sift-bench: not measured: \(m.measurement) \(m.field)\n".utf8))
  }
  emit([
    ("name", "check"), ("suites", .string(suitesRun.sorted().joined(separator: ","))),
    ("checked", .int(Int64(result.checked))), ("worse", .int(Int64(result.regressions.count))),
    ("not_measured", .int(Int64(result.missing.count))), ("tolerance", .double(baselines.tolerance)),
  ])
  return result.regressions.isEmpty && result.missing.isEmpty
}
