import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax

/// `--suite columnar [--records N]` (issue 25): N generated venues written to a temporary JSON
/// file (names with case and accent variants, nullable city and rating, ISO and epoch dates,
/// tag arrays, a nested location), loaded into columns, and each question counted:
///
/// - one line per question: `format`, `ns_per_record` (the columnar count on one core),
///   `row_ns_per_record` (the row evaluator over the same records as `SiftObject`s, one core),
///   `parallel_speedup` (one thread over two; `parallel_cpu_ratio`, their CPU times), and the count (checked against the row
///   evaluator, positions too);
/// Under load (a shared machine), the CPU-time figures (`cpu_ns_per_record`,
/// `scan_vs_loop_cpu`, `load_cpu_mb_per_s`) are steadier than the wall-clock ones.
///
/// - `columnar.loop`: `scan_vs_loop`, Sift's count of `distance BETWEEN {1, 5}` over a
///   hand-written loop over a `[Double]` of the same values, interleaved, and
///   `loop_parallel_speedup`, that loop on one thread over two (the ceiling for
///   `parallel_speedup` on the machine);
/// - `columnar.load`: `load_mb_per_s` from the file (read and parse), and `load_vs_rows`
///   (`JSONRecords.load` time over the columnar load, > 1: columns load faster);
/// - `columnar.memory`: `bytes_per_record` (what the columns hold) and `json_bytes_per_record`.
///
/// Every line with timings gives `load_average`. For instruction counts (callgrind):
/// `SIFT_BENCH_CASE=load` stops after loading, `SIFT_BENCH_CASE=TEXT` keeps the questions
/// containing TEXT, `SIFT_BENCH_SCANS=K` runs only K one-thread counts of each (no timing).
func runColumnarBenchmarks(_ options: BenchOptions) throws {
  let n = options.records
  let (json, distances) = ColumnarVenues.json(count: n)
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-columnar-\(getpid()).json")
  try Data(json).write(to: url)
  defer { try? FileManager.default.removeItem(at: url) }
  let dates = SiftJSONDates(keys: ["opened": .iso8601, "createdAt": .seconds])

  // Load: the columnar loader from the file, against the row loader on the same file.
  var columnar: SiftColumnarRecords?
  var loadTimes: [Double] = []
  var loadCPU: [Double] = []
  var rowTimes: [Double] = []
  var objectTimes: [Double] = []
  var objects: [SiftObject] = []
  for round in 0..<3 {
    columnar = nil
    var t0 = columnarClock()
    let c0 = columnarCPU()
    columnar = try SiftColumnarRecords(contentsOf: url, dates: dates)
    loadTimes.append(columnarClock() - t0)
    loadCPU.append(columnarCPU() - c0)
    if round == 0 {  // the row loader is slow: once
      t0 = columnarClock()
      objects = try JSONRecords.load(contentsOf: url, dates: dates)
      rowTimes.append(columnarClock() - t0)
    }
  }
  // Without dates the row loader reads objects directly (`JSONObjectReader`): after the columnar
  // loads, so that its freed records do not change theirs.
  let t1 = columnarClock()
  blackHole(try JSONRecords.load(contentsOf: url).count)
  objectTimes.append(columnarClock() - t1)
  guard let data = columnar, data.count == n, objects.count == n else {
    throw BenchOptions.Failure(description: "the loaders read a different count")
  }
  let median = InterleavedTiming.median
  let mb = Double(json.count) / 1e6
  emit([
    ("name", "columnar.load"), ("records", .int(Int64(n))), ("mb", .double(r2(mb))),
    ("load_mb_per_s", .double(r2(mb / median(loadTimes)))), ("load_cpu_mb_per_s", .double(r2(mb / median(loadCPU)))),
    ("rows_load_mb_per_s", .double(r2(mb / median(rowTimes)))),
    ("objects_load_mb_per_s", .double(r2(mb / median(objectTimes)))),
    ("load_vs_rows", .double(r2(median(rowTimes) / median(loadTimes)))), ("load_average", .double(r2(loadAverage()))),
  ])
  emit([
    ("name", "columnar.memory"), ("records", .int(Int64(n))),
    ("bytes_per_record", .double(r2(Double(data.heldBytes) / Double(n)))),
    ("json_bytes_per_record", .double(r2(Double(json.count) / Double(n)))),
  ])

  let environment = ProcessInfo.processInfo.environment
  if environment["SIFT_BENCH_CASE"] == "load" { return }  // for profiling
  let scans = environment["SIFT_BENCH_SCANS"].flatMap(Int.init)

  if scans == nil { try loopBenchmark(data, distances, options) }

  let day = 86_400.0
  let questions: [(String, [SiftValue])] = [
    ("distance BETWEEN {1.0, 5.0}", []),
    ("city == \"Tokyo\"", []),
    ("name BEGINSWITH[c] \"blue\"", []),
    ("name BEGINSWITH[c] \"ñandú\"", []),
    ("ANY tags == \"wifi\"", []),
    ("location.city == \"Oslo\"", []),
    (
      "opened >= %@ AND opened < %@",
      [.date(Date(timeIntervalSince1970: 1_640_995_200)), .date(Date(timeIntervalSince1970: 1_640_995_200 + 90 * day))]
    ),
    (
      "createdAt BETWEEN %@",
      [.array([.date(Date(timeIntervalSince1970: 1_600_000_000)), .date(Date(timeIntervalSince1970: 1_650_000_000))])]
    ),
    ("(rating >= 4 OR favorite == YES) AND city != \"Tokyo\"", []),
  ]
  // SIFT_BENCH_CASE=TEXT: only the questions whose format contains TEXT (for profiling).
  let only = environment["SIFT_BENCH_CASE"]
  for (format, arguments) in questions where only.map({ format.contains($0) }) ?? true {
    try ask(format, arguments, data, objects, scans: scans, options)
  }
  // ISO-8601 text loaded without `--dates`: a range over the text itself (byte order).
  let isoText = "opened >= \"2023-01-01T00:00:00Z\" AND opened < \"2023-07-01T00:00:00Z\""
  if only.map({ isoText.contains($0) }) ?? true {
    let text = try SiftColumnarRecords(contentsOf: url)
    let textObjects = (0..<text.count).map { text.object(at: $0) }
    try ask(isoText, [], text, textObjects, datesAsText: true, scans: scans, options)
  }
}

/// One question: the columnar count against the row evaluator over the same records (and the
/// positions checked against it), as one `columnar.question` line.
private func ask(
  _ format: String, _ arguments: [SiftValue], _ data: SiftColumnarRecords, _ objects: [SiftObject],
  datesAsText: Bool = false,
  scans: Int?, _ options: BenchOptions
) throws {
  let n = data.count
  let matcher = try SiftPredicate(format: format, arguments: arguments).compile()
  let rows = try matcher.matchingIndices(objects)
  let found = try matcher.matchingIndices(data)
  guard rows == found, try matcher.matchingIndices(data, workers: 2) == rows else {
    throw BenchOptions.Failure(description: "\(format): columns found \(found.count), rows \(rows.count)")
  }
  // SIFT_BENCH_SCANS=K: only K one-thread counts, no timing (for `valgrind --tool=callgrind
  // --toggle-collect='*ColumnarScan*count*'`: instructions per record are Ir / (K × records)).
  if let k = scans {
    for _ in 0..<k { blackHole(try? matcher.count(data)) }
    return
  }
  let t = InterleavedTiming(
    seconds: options.seconds,
    [
      { blackHole(try? matcher.count(data)) },
      { blackHole(try? matcher.count(data, workers: 2)) },
      { blackHole(try? matcher.matchingIndices(objects).count) },
    ])
  // CPU time (every thread) on two threads over one: near 1 means the second thread adds no
  // work, so the wall-clock speedup is what the machine's other load leaves of two cores.
  var cpu: [Double] = []
  for workers in [1, 2] {
    let c0 = columnarCPU()
    for _ in 0..<20 { blackHole(try? matcher.count(data, workers: workers)) }
    cpu.append(columnarCPU() - c0)
  }
  var line: [(String, SiftValue)] = [
    ("name", "columnar.question"), ("format", .string(format)), ("records", .int(Int64(n))),
    ("matches", .int(Int64(rows.count))), ("ns_per_record", .double(r2(t.nsPerOp[0] / Double(n)))),
    ("cpu_ns_per_record", .double(r2(cpu[0] / 20 / Double(n) * 1e9))),
    ("parallel_speedup", .double(r2(t.ratio(0, 1)))), ("parallel_cpu_ratio", .double(r2(cpu[1] / cpu[0]))),
    ("row_ns_per_record", .double(r2(t.nsPerOp[2] / Double(n)))),
    ("vs_rows", .double(r2(t.ratio(2, 0)))), ("load_average", .double(r2(loadAverage()))),
  ]
  if datesAsText { line.insert(("dates", "none"), at: 2) }
  if let why = matcher.columnarFallback(for: data) { line.append(("fallback", .string(why))) }
  emit(line)
}

/// `columnar.loop`: Sift's count of `distance BETWEEN {1, 5}` against a hand-written loop over
/// the same numbers (`scan_vs_loop`), interleaved, and the same ratio in CPU time.
private func loopBenchmark(_ data: SiftColumnarRecords, _ distances: [Double], _ options: BenchOptions) throws {
  let n = data.count
  let between = try SiftPredicate(format: "distance BETWEEN {1.0, 5.0}").compile()
  let expected = distances.reduce(0) { $0 + ($1 >= 1 && $1 <= 5 ? 1 : 0) }
  guard try between.count(data) == expected else {
    throw BenchOptions.Failure(description: "BETWEEN count differs from the loop")
  }
  let loop = InterleavedTiming(
    seconds: options.seconds,
    [
      { blackHole(try? between.count(data)) },
      { blackHole(ColumnarVenues.loop(distances)) },
    ])
  // The same ratio in CPU time (one thread each): what a machine shared with other work hides.
  var loopCPU: [Double] = []
  for body in [{ blackHole(try? between.count(data)) }, { blackHole(ColumnarVenues.loop(distances)) }] {
    let c0 = columnarCPU()
    for _ in 0..<20 { body() }
    loopCPU.append(columnarCPU() - c0)
  }
  // The ceiling for `parallel_speedup`: the same loop with a Dispatch helper taking half (as a
  // two-thread scan starts one), one thread over two. Below 2 where two cores share memory
  // bandwidth (the loop reads 8 bytes a record) or the helper starts late.
  guard ColumnarVenues.loop(distances, workers: 2) == expected else {
    throw BenchOptions.Failure(description: "the two-thread loop counts differently")
  }
  let split = InterleavedTiming(
    seconds: options.seconds,
    [
      { blackHole(ColumnarVenues.loop(distances)) },
      { blackHole(ColumnarVenues.loop(distances, workers: 2)) },
    ])
  emit([
    ("name", "columnar.loop"), ("scan_vs_loop_cpu", .double(r2(loopCPU[0] / loopCPU[1]))), ("records", .int(Int64(n))),
    ("matches", .int(Int64(expected))),
    ("ns_per_record", .double(r2(loop.nsPerOp[0] / Double(n)))),
    ("loop_ns_per_record", .double(r2(loop.nsPerOp[1] / Double(n)))), ("scan_vs_loop", .double(r2(loop.ratio(0, 1)))),
    ("loop_parallel_speedup", .double(r2(split.ratio(0, 1)))), ("load_average", .double(r2(loadAverage()))),
  ])
}

private func columnarClock() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
private func columnarCPU() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
private func r2(_ x: Double) -> Double { (x * 100).rounded() / 100 }
/// The one-minute load average (other work on the machine makes every timing here noise).
private func loadAverage() -> Double {
  var loads = [0.0, 0.0, 0.0]
  return getloadavg(&loads, 3) > 0 ? loads[0] : -1
}

/// The generated venues of `--suite columnar`, as JSON text (the same for the same count).
enum ColumnarVenues {
  static let adjectives = [
    "Blue", "blue", "BLUE", "Ñandú", "ñandu", "NANDÚ", "Café", "cafe", "Golden", "red", "Zürich", "old",
  ]
  static let kinds = ["Noodle House", "Bar", "Tea Room", "Diner", "Pizzeria", "Taquería", "Deli", "Bakery"]
  static let cities = [
    "Tokyo", "Oslo", "Montréal", "berlin", "São Paulo", "Zürich", "Boston", "Lagos", "Taipei", "Lima",
  ]
  static let tags = ["wifi", "vegan", "cheap", "pet-friendly", "late-night", "outdoor", "rooftop", "brunch"]

  /// The JSON array and every record's `distance`.
  static func json(count: Int) -> ([UInt8], [Double]) {
    var out: [UInt8] = [UInt8(ascii: "[")]
    out.reserveCapacity(count * 260)
    var distances: [Double] = []
    distances.reserveCapacity(count)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ below: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(below))
    }
    for i in 0..<count {
      if i > 0 { out += Array(",\n".utf8) }
      let name = "\(adjectives[next(adjectives.count)]) \(kinds[next(kinds.count)]) \(next(10_000))"
      let city = next(10) == 0 ? "null" : "\"\(cities[next(cities.count)])\""
      let cents = next(5_001)
      distances.append(Double(cents) / 100)
      let distance = String(format: "%d.%02d", cents / 100, cents % 100)
      let rating = next(8) == 0 ? "null" : "\(1 + next(5)).\(next(10))"
      let favorite = next(10) == 0 ? "true" : "false"
      let opened = SiftJSON.formatDate(Date(timeIntervalSince1970: 1_577_836_800 + Double(next(5 * 365 * 86_400))))
      let created = 1_577_836_800 + next(5 * 365 * 86_400)
      var tagList: [String] = []
      for _ in 0..<next(4) { tagList.append("\"\(tags[next(tags.count)])\"") }
      let location =
        "{\"city\": \"\(cities[next(cities.count)])\", \"zip\": \"\(10_000 + next(89_999))\", "
        + "\"lat\": \(next(90)).\(next(1_000_000))}"
      let record =
        "{\"id\": \(i), \"name\": \"\(name)\", \"city\": \(city), \"distance\": \(distance), "
        + "\"rating\": \(rating), \"favorite\": \(favorite), \"opened\": \"\(opened)\", \"createdAt\": \(created), "
        + "\"tags\": [\(tagList.joined(separator: ", "))], \"location\": \(location)}"
      out += Array(record.utf8)
    }
    out.append(UInt8(ascii: "]"))
    return (out, distances)
  }

  /// The hand-written baseline: how many of `values` lie in 1...5.
  @inline(never)
  static func loop(_ values: [Double]) -> Int { loop(values, values.indices) }

  @inline(never)
  static func loop(_ values: [Double], _ range: Range<Int>) -> Int {
    var n = 0
    for i in range where values[i] >= 1 && values[i] <= 5 { n += 1 }
    return n
  }

  /// The same count with a helper thread (Dispatch) taking the second half.
  static func loop(_ values: [Double], workers: Int) -> Int {
    let half = values.count / 2
    let helper = HalfResult()
    DispatchQueue.global().async {
      helper.value = loop(values, half..<values.count)
      helper.done.signal()
    }
    let mine = loop(values, 0..<half)
    helper.done.wait()  // the helper always signals
    return mine + helper.value
  }

  final class HalfResult: @unchecked Sendable {
    var value = 0
    let done = DispatchSemaphore(value: 0)
  }
}
