import Foundation
import SiftSyntax

/// Parsing benchmarks: the given `--format`, or every conformance case that parses.
func runParseBenchmarks(_ options: BenchOptions) throws {
  if let format = options.format {
    let args = options.arguments
    let r = measure(seconds: options.seconds) {
      blackHole(try? SiftPredicate(format: format, arguments: args))
    }
    emit([
      ("name", "parse"), ("format", .string(format)), ("ns_per_op", .double(r.nsPerOp)), ("ops", .int(Int64(r.ops))),
    ])
    return
  }
  let casesURL = BenchOptions.fixturesDirectory.appendingPathComponent("venues-cases.jsonl")
  let text = try String(contentsOf: casesURL, encoding: .utf8)
  var medians: [Double] = []
  var parseOnly: [Double] = []
  for line in text.split(separator: "\n") {
    guard case .dictionary(let c) = try SiftJSON.parse(String(line)),
      case .string(let format)? = c["format"]
    else { continue }
    var args: [SiftValue] = []
    if case .array(let a)? = c["args"] { args = a }
    guard (try? SiftPredicate(format: format, arguments: args)) != nil else { continue }
    let r = measure(seconds: min(options.seconds, 0.05)) {
      blackHole(try? SiftPredicate(format: format, arguments: args))
    }
    medians.append(r.nsPerOp)
    parseOnly.append(
      measure(seconds: min(options.seconds, 0.05)) { blackHole(try? SiftPredicate.parse(format)) }.nsPerOp)
  }
  medians.sort()
  parseOnly.sort()
  let median = medians.isEmpty ? 0 : medians[medians.count / 2]
  let worst = medians.last ?? 0
  // ns_per_op: parse and bind the arguments (SiftPredicate(format:arguments:));
  // parse_only_ns_per_op: the syntax tree alone (SiftPredicate.parse), specifiers unbound.
  emit([
    ("name", "parse.conformance"), ("cases", .int(Int64(medians.count))),
    ("ns_per_op", .double(median)), ("worst_ns_per_op", .double(worst)),
    ("parse_only_ns_per_op", .double(parseOnly.isEmpty ? 0 : parseOnly[parseOnly.count / 2])),
  ])

  // Linearity: a 1 MB OR chain.
  var chain = "a == 1"
  let term = " OR a == 1"
  while chain.utf8.count < 1_000_000 { chain += term }
  let t0 = DispatchTime.now().uptimeNanoseconds
  let ok = (try? SiftPredicate.parse(chain)) != nil
  let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
  emit([
    ("name", "parse.or_chain_1MB"), ("bytes", .int(Int64(chain.utf8.count))), ("ok", .bool(ok)), ("ms", .double(ms)),
  ])
}
