import Foundation
import SiftSyntax

/// Command-line options of sift-bench.
struct BenchOptions {
  /// `--format 'P'`: the predicate to measure (else the standard set).
  var format: String?
  /// `--arg JSON` values, in order.
  var arguments: [SiftValue] = []
  /// `--data FILE`: a JSON array of records for evaluation.
  var data: String?
  /// `--schema FILE` and `--entity NAME`: for SQL compilation.
  var schema: String?
  var entity: String?
  /// `--seconds N`: time budget per measurement (default 0.5).
  var seconds: Double = 0.5
  /// `--suite parse|evaluate|sql|fetch` (repeatable): which parts of the standard set to run
  /// (default all); `--suite existing` (a 1,000,000-row database), `--suite live` (1,000,000
  /// live records), `--suite scale` (the REPL on N generated records), `--suite decode`
  /// (100,000 typed results against hand-written Swift) and `--suite hostile` (issue 23's slow
  /// cases, 100,000 records unless `--records`) and `--suite columnar` (issue 25: columns and
  /// kernels over N generated venues) are never in the default set.
  var suites: Set<String> = []
  /// `--records N`: records for `--suite scale` and `--suite columnar` (default 1,000,000).
  var records = 1_000_000
  /// `--record FILE`: write this run's ratios into a baselines file (entries of the suites run are
  /// replaced, the others kept).
  var record: String?
  /// `--check FILE`: run the baselines file's quick suites (or the `--suite`s named) and report
  /// every ratio more than the file's tolerance worse than its baseline; exit 1 if any is.
  var check: String?
  var livePostgres = LivePostgresOptions()

  struct Failure: Error, CustomStringConvertible { var description: String }

  static func parse(_ args: [String]) throws -> BenchOptions {
    var o = BenchOptions()
    var i = 0
    func value() throws -> String {
      i += 1
      guard i < args.count else { throw Failure(description: "\(args[i - 1]) needs a value") }
      return args[i]
    }
    while i < args.count {
      switch args[i] {
      case "--format": o.format = try value()
      case "--arg":
        let text = try value()
        do { o.arguments.append(try SiftJSON.parse(text)) } catch {
          throw Failure(description: "--arg \(text): \(error)")
        }
      case "--data": o.data = try value()
      case "--schema": o.schema = try value()
      case "--entity": o.entity = try value()
      case "--seconds":
        guard let s = Double(try value()), s > 0 else {
          throw Failure(description: "--seconds needs a positive number")
        }
        o.seconds = s
      case "--suite":
        let name = try value()
        guard
          [
            "parse", "evaluate", "sql", "fetch", "existing", "live", "live-postgres", "scale", "decode", "hostile",
            "columnar", "typed",
          ]
          .contains(
            name)
        else {
          throw Failure(
            description:
              "--suite needs parse, evaluate, sql, fetch, existing, live, live-postgres, scale, decode, hostile, "
              + "columnar or typed, "
              + "not \(name)"
          )
        }
        o.suites.insert(name)
      case "--record": o.record = try value()
      case "--check": o.check = try value()
      case "--records":
        guard let n = Int(try value()), n > 0 else { throw Failure(description: "--records needs a positive integer") }
        o.records = n
      case let flag where flag.hasPrefix("--pg-"):
        try o.livePostgres.set(flag, try value())
      case "-h", "--help":
        print(
          "usage: sift-bench [--format 'P'] [--arg JSON]... [--data FILE.json] [--schema S.json --entity E] [--seconds N]"
            + " [--suite parse|evaluate|sql|fetch|existing|live|scale|decode|hostile|columnar|typed]... [--records N]"
            + " [--record FILE | --check FILE]"
            + " [--pg-rows N --pg-small-rows N --pg-watchers N --pg-rate PER_S --pg-seconds S --pg-poll S"
            + " --pg-latency-rate PER_S --pg-latency-seconds S] (live-postgres)")
        exit(0)
      default: throw Failure(description: "unknown option \(args[i])")
      }
      i += 1
    }
    if o.record != nil && o.check != nil { throw Failure(description: "--record and --check exclude each other") }
    return o
  }

  /// Whether the standard set includes `suite`.
  func runs(_ suite: String) -> Bool { suites.isEmpty || suites.contains(suite) }

  /// Directory holding the shared conformance sample (venues.json).
  static var fixturesDirectory: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/conformance")
  }
}

/// Prints one JSON line.
func emit(_ fields: [(String, SiftValue)]) {
  BenchRecorder.shared.keep(fields)
  var d: [String: SiftValue] = [:]
  for (k, v) in fields { d[k] = v }
  print(SiftJSON.serialize(.dictionary(d)))
  fflush(nil)
}

/// Times `body` repeatedly for about `seconds`; returns nanoseconds per call (median of batches).
func measure(seconds: Double, _ body: () -> Void) -> (nsPerOp: Double, ops: Int) {
  // Warm up and size a batch to ~10 ms.
  var batch = 1
  while true {
    let t0 = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<batch { body() }
    let dt = DispatchTime.now().uptimeNanoseconds - t0
    if dt > 10_000_000 || batch > 1 << 24 { break }
    batch *= 2
  }
  var samples: [Double] = []
  var ops = 0
  let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
  repeat {
    let t0 = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<batch { body() }
    let dt = DispatchTime.now().uptimeNanoseconds - t0
    samples.append(Double(dt) / Double(batch))
    ops += batch
  } while DispatchTime.now().uptimeNanoseconds < deadline || samples.count < 5
  samples.sort()
  return (samples[samples.count / 2], ops)
}

/// Keeps a value alive so the optimizer cannot drop the work that produced it.
@inline(never) func blackHole<T>(_ x: T) { withExtendedLifetime(x) {} }

/// Times several bodies in rounds (each round runs every body for about 5 ms, in turn), so that
/// a change of machine load falls on all of them alike. Returns, per body, the median
/// nanoseconds per call, and `ratio(a, b)`: the median over rounds of body a's time over body
/// b's — steadier than a ratio of medians taken at different times.
struct InterleavedTiming {
  var nsPerOp: [Double]
  var rounds: [[Double]]

  init(seconds: Double, _ bodies: [() -> Void]) {
    // Size each body's batch to ~5 ms.
    var batches: [Int] = []
    for body in bodies {
      var batch = 1
      while true {
        let t0 = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<batch { body() }
        let dt = DispatchTime.now().uptimeNanoseconds - t0
        if dt > 5_000_000 || batch > 1 << 24 { break }
        batch *= 2
      }
      batches.append(batch)
    }
    var rounds: [[Double]] = []
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * Double(bodies.count) * 1e9)
    repeat {
      var round: [Double] = []
      for (body, batch) in zip(bodies, batches) {
        let t0 = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<batch { body() }
        round.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / Double(batch))
      }
      rounds.append(round)
    } while DispatchTime.now().uptimeNanoseconds < deadline || rounds.count < 5
    self.rounds = rounds
    nsPerOp = bodies.indices.map { i in InterleavedTiming.median(rounds.map { $0[i] }) }
  }

  func ratio(_ a: Int, _ b: Int) -> Double { InterleavedTiming.median(rounds.map { $0[a] / $0[b] }) }

  static func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.isEmpty ? .nan : s[s.count / 2]
  }
}
