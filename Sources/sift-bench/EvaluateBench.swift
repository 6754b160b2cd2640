import Foundation
import SiftEvaluation
import SiftSyntax

/// Evaluation benchmarks. With `--data FILE --format P`: Sift alone over the file's records.
/// Without options: the standard set over venues.json, each beside its baselines in the same
/// process — hand-written closures over the same records (`SiftObject`s through their public
/// API, and `SiftValue` dictionaries), and Foundation's `#Predicate` over typed structs —
/// printing ns/record and ratios.
func runEvaluateBenchmarks(_ options: BenchOptions) throws {
  if let data = options.data {
    guard let format = options.format else {
      throw BenchOptions.Failure(description: "--data needs --format 'P'")
    }
    let records = try JSONRecords.load(contentsOf: URL(fileURLWithPath: data))
    let matcher = try SiftPredicate(format: format, arguments: options.arguments).compile()
    let count = try matcher.matchingIndices(records).count
    let r = measure(seconds: options.seconds) { blackHole(try? matcher.matchingIndices(records)) }
    emit([
      ("name", "evaluate"), ("ns_per_record", .double(r.nsPerOp / Double(max(records.count, 1)))),
      ("records", .int(Int64(records.count))), ("matches", .int(Int64(count))),
    ])
    return
  }
  try runStandardEvaluateBenchmarks(seconds: options.seconds)
}

func runStandardEvaluateBenchmarks(seconds: Double) throws {
  let url = BenchOptions.fixturesDirectory.appendingPathComponent("venues.json")
  let fast = try JSONRecords.load(contentsOf: url)
  guard case .array(let items) = try SiftJSON.parse(bytes: [UInt8](Data(contentsOf: url))) else {
    throw BenchOptions.Failure(description: "venues.json is not an array")
  }
  let dicts: [[String: SiftValue]] = items.compactMap {
    if case .dictionary(let d) = $0 { return d } else { return nil }
  }
  let typed = try BenchVenue.load(url)
  let n = Double(fast.count)

  // SIFT_BENCH_CASE=name runs one case only (for profiling).
  let only = ProcessInfo.processInfo.environment["SIFT_BENCH_CASE"]
  // SIFT_BENCH_PROFILE=N: no timing, just N passes of Sift over the SiftObject records (or the
  // dictionaries with SIFT_BENCH_LAYOUT=dict), for instruction counting under callgrind.
  let profilePasses = ProcessInfo.processInfo.environment["SIFT_BENCH_PROFILE"].flatMap { Int($0) }
  // SIFT_BENCH_LAYOUT=closure runs the dictionary closure baseline instead; object-closure the
  // SiftObject closure, foundation the #Predicate baseline.
  let profileLayout = ProcessInfo.processInfo.environment["SIFT_BENCH_LAYOUT"]
  for c in try EvalBenchCases.all() where only == nil || only == c.name {
    let matcher = try SiftPredicate(format: c.format).compile()
    if let passes = profilePasses {
      switch profileLayout {
      case "dict": try profileDictionaries(matcher, dicts, passes: passes)
      case "closure": profileClosure(c.closure, dicts, passes: passes)
      case "object-closure": profileObjectClosure(c.objectClosure, fast, passes: passes)
      case "foundation":
        if let p = c.foundation { profileFoundation(p, typed, passes: passes) }
      default: try profileObjects(matcher, fast, passes: passes)
      }
      continue
    }
    // All three must agree before anything is timed.
    let expected = try matcher.matchingIndices(fast)
    let viaDicts = try matcher.matchingIndices(dicts)
    let viaClosure = dicts.indices.filter { c.closure(dicts[$0]) }
    let viaObjectClosure = fast.indices.filter { c.objectClosure(fast[$0]) }
    var viaFoundation: [Int]?
    if let p = c.foundation { viaFoundation = try typed.indices.filter { try p.evaluate(typed[$0]) } }
    guard expected == viaDicts, expected == viaClosure, expected == viaObjectClosure,
      viaFoundation == nil || viaFoundation == expected
    else {
      throw BenchOptions.Failure(description: "evaluate.\(c.name): Sift and the baselines disagree")
    }

    // All layouts and baselines of a case are timed in interleaved rounds (see
    // `InterleavedTiming`), so load from other processes falls on each alike; the ratios are
    // medians of per-round ratios.
    var bodies: [() -> Void] = [
      { blackHole(try? matcher.matchingIndices(fast)) },
      { blackHole(try? matcher.matchingIndices(dicts)) },
      {
        var hits: [Int] = []
        for i in dicts.indices where c.closure(dicts[i]) { hits.append(i) }
        blackHole(hits)
      },
      {
        var hits: [Int] = []
        for i in fast.indices where c.objectClosure(fast[i]) { hits.append(i) }
        blackHole(hits)
      },
    ]
    if let p = c.foundation {
      bodies.append {
        var hits: [Int] = []
        for i in typed.indices where (try? p.evaluate(typed[i])) == true { hits.append(i) }
        blackHole(hits)
      }
    }
    let t = InterleavedTiming(seconds: seconds, bodies)
    let sift = t.nsPerOp[0] / n, siftDict = t.nsPerOp[1] / n, closure = t.nsPerOp[2] / n
    let objectClosure = t.nsPerOp[3] / n
    // Ratios compare the same record representation: SiftObject with SiftObject, dictionaries
    // with dictionaries. fast_vs_dict_closure crosses representations (for information).
    var fields: [(String, SiftValue)] = [
      ("name", .string("evaluate.\(c.name)")), ("ns_per_record", .double(sift)),
      ("object_closure_ns", .double(objectClosure)), ("ratio_vs_closure", .double(t.ratio(0, 3))),
      ("dict_ns", .double(siftDict)), ("closure_ns", .double(closure)),
      ("dict_ratio_vs_closure", .double(t.ratio(1, 2))), ("fast_vs_dict_closure", .double(t.ratio(0, 2))),
      ("matches", .int(Int64(expected.count))),
    ]
    if c.foundation != nil {
      fields += [("foundation_ns", .double(t.nsPerOp[4] / n)), ("speedup_vs_foundation", .double(t.ratio(4, 0)))]
    }
    emit(fields)
  }
  // A profiling run measures nothing else.
  if profilePasses != nil { exit(0) }
}

// Separate symbols so that a profile attributes each layout's cost.
@inline(never) func profileObjects(_ m: SiftMatcher, _ records: [SiftObject], passes: Int) throws {
  for _ in 0..<passes { blackHole(try m.matchingIndices(records)) }
}

@inline(never) func profileDictionaries(_ m: SiftMatcher, _ records: [[String: SiftValue]], passes: Int) throws {
  for _ in 0..<passes { blackHole(try m.matchingIndices(records)) }
}

@inline(never) func profileClosure(_ f: ([String: SiftValue]) -> Bool, _ records: [[String: SiftValue]], passes: Int) {
  for _ in 0..<passes {
    var hits: [Int] = []
    for i in records.indices where f(records[i]) { hits.append(i) }
    blackHole(hits)
  }
}

@inline(never) func profileObjectClosure(_ f: (SiftObject) -> Bool, _ records: [SiftObject], passes: Int) {
  for _ in 0..<passes {
    var hits: [Int] = []
    for i in records.indices where f(records[i]) { hits.append(i) }
    blackHole(hits)
  }
}

@inline(never) func profileFoundation(_ p: Predicate<BenchVenue>, _ records: [BenchVenue], passes: Int) {
  for _ in 0..<passes {
    var hits: [Int] = []
    for i in records.indices where (try? p.evaluate(records[i])) == true { hits.append(i) }
    blackHole(hits)
  }
}
