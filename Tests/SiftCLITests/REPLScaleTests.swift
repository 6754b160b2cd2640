import Foundation
import SiftSyntax
import Testing

@testable import SiftCLI

/// Collects what a session streams and reports, in order, from any thread.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [(kind: String, text: String)] = []

  func add(_ kind: String, _ text: String) {
    lock.lock()
    items.append((kind, text))
    lock.unlock()
  }

  var events: [(kind: String, text: String)] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }
}

@Suite("REPL at scale")
struct REPLScaleTests {
  @Test("generated records are deterministic and typed like the sample venues")
  func generatedRecords() throws {
    let a = GeneratedData.records(count: 500)
    #expect(a == GeneratedData.records(count: 500))
    #expect(a != GeneratedData.records(count: 500, seed: 2))
    #expect(a.enumerated().allSatisfy { i, r in RecordPath.value(of: "id", in: r) == .int(Int64(i)) })
    let set = GeneratedData.dataSet(name: "g", count: 500)
    let types = Dictionary(uniqueKeysWithValues: set.attributes.map { ($0.name, $0.typeDescription) })
    #expect(
      types == [
        "id": "integer", "name": "string", "city": "string", "distance": "double", "rating": "double",
        "tipCount": "integer", "favorite": "boolean", "createdAt": "date", "tags": "array<string>",
      ])
    #expect(GeneratedData.records(count: 0).isEmpty && GeneratedData.records(count: -3).isEmpty)
  }

  @Test(
    ".generate checks its count and replaces an entity of the same name",
    arguments: [
      (".generate", "error: usage: .generate N [--as NAME]   e.g. .generate 1000000\n"),
      (".generate 0", "error: N must be an integer from 1 to 10000000, not '0'\n"),
      (".generate lots", "error: N must be an integer from 1 to 10000000, not 'lots'\n"),
      (".generate 1 2", "error: usage: .generate N [--as NAME]   e.g. .generate 1000000\n"),
      (".generate 1_500 --as big", "generated 1500 records as 'big' (9 attributes)\n"),
      (".generate 2,000", "generated 2000 records as 'generated' (9 attributes)\n"),
    ])
  func generateCommand(_ input: String, _ expected: String) {
    let session = REPLSession()
    #expect(session.execute(input).text == expected)
  }

  @Test("a replaced entity is copied into SQLite afresh (no duplicate keys)")
  func reloadIntoSQL() {
    let session = REPLSession()
    for n in [300, 200] {
      #expect(session.execute(".generate \(n)").status == .ok)
      #expect(session.execute(".compare id < 250").text.hasSuffix("agree: \(min(n, 250)) records\n"))
      #expect(session.execute(".engine sqlite").status == .ok)
      #expect(session.execute(".count TRUEPREDICATE").text == "\(n)\n")
      #expect(session.execute(".engine memory").status == .ok)
    }
  }

  @Test("records past the first 5,000 that do not fit the inferred schema make the entity memory-only on first SQL use")
  func lateMismatch() {
    var records: [SiftValue] = (0..<5_000).map { ["id": .int(Int64($0)), "x": .int(Int64($0))] }
    records.append(["id": 5_000, "x": "five thousand"])
    let session = REPLSession()
    #expect(session.add(REPLDataSet(name: "mixed", records: records)) == nil)
    let text = session.execute(".engine sqlite").text
    #expect(text.hasPrefix("error: 'mixed' is not in SQL: record 5000.x: expected integer"), "\(text)")
    #expect(session.execute(".engine sqlite").status == .failed)
    #expect(session.execute(".count id >= 4000").text == "1001\n")
  }

  /// 1,000,000 records in memory: the count is right, the first rows of a long scan are streamed
  /// before it ends, progress is reported, Ctrl-C (the interrupt flag) stops it, and the next
  /// input works.
  @Test("a scan over 1,000,000 records streams, reports progress and stops on Ctrl-C")
  func millionRecords() throws {
    let session = REPLSession()
    #expect(session.execute(".generate 1000000").text == "generated 1000000 records as 'generated' (9 attributes)\n")
    #expect(session.execute(".count").text == "1000000\n")
    let predicate = "id < 100 OR id >= 999900"
    #expect(session.execute(".count " + predicate).text == "200\n")

    // The whole table as a script sees it (no stream).
    let whole = session.execute(predicate)
    #expect(whole.text.hasSuffix("(first 10 of 200 rows)\n"))
    #expect(whole.text.contains("\n  9 | "))

    // Interactive: rows first, then progress while the scan goes on, then the footer.
    let log = EventLog()
    session.progressDelay = 0
    session.stream = { log.add("rows", $0) }
    session.progress = { log.add("progress", $0) }
    let streamed = session.execute(predicate)
    #expect(streamed.status == .ok)
    #expect(streamed.text == "(first 10 of 200 rows)\n")
    let events = log.events
    #expect(events.first?.kind == "rows")
    #expect(events.filter { $0.kind == "rows" }.count == 1)
    #expect((events.first?.text ?? "") + streamed.text == whole.text)
    let progress = events.filter { $0.kind == "progress" }.map(\.text)
    // A round is one chunk per worker thread.
    let round = MemoryEngine.chunk * max(1, session.scanWorkers)
    #expect(
      progress.first?.hasPrefix("scanned \(round) of 1000000 (\(round / 10_000)%), 100 matches") == true,
      "\(progress.prefix(3))")

    // Ctrl-C at the first progress line: the scan stops after the round under way (the
    // second: as long as the first, or twice as long when the first took under
    // `MemoryEngine.growBelow` seconds).
    let interrupt = session.interrupt
    session.stream = nil
    session.progress = { _ in interrupt.set() }
    let stops = [2 * round, 3 * round].map { "interrupted after \($0) of 1000000 records" }
    let stopped = session.execute("name MATCHES '.*a.*e.*'")
    #expect(stopped.status == .failed)
    #expect(stops.contains { stopped.text.hasPrefix($0 + "\n") }, "\(stopped.text)")
    let agg = session.execute(".agg rating name MATCHES '.*a.*e.*'")
    #expect(agg.status == .failed && stops.contains { agg.text.hasPrefix($0 + "\n key ") }, "\(agg.text)")
    let compared = session.execute(".compare name MATCHES '.*a.*e.*'")
    #expect(stops.contains { compared.text == $0 + "; nothing compared\n" }, "\(compared.text)")
    #expect(compared.status == .failed)
    session.progress = nil
    #expect(session.execute(".count id < 5").text == "5\n")
  }

  @Test("a JSON file of generated records loads with the same answers; a missing file is an error")
  func loadRoundTrip() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-gen-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    // Larger than one read chunk (4 MiB), so the chunked reader is exercised.
    let records = GeneratedData.records(count: 40_000)
    try Data(SiftJSON.serialize(.array(records)).utf8).write(to: url)
    #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0 > 1 << 22)
    let session = REPLSession()
    #expect(session.execute(".generate 40000").status == .ok)
    #expect(session.execute(".load '\(url.path)' --as file").text == "loaded 40000 records as 'file' (9 attributes)\n")
    #expect(session.current?.records == records)
    #expect(
      session.execute(".load /nonexistent/sift.json").text.hasPrefix("error: cannot read /nonexistent/sift.json: "))
  }

  @Test(
    ".load reports broken JSON with the file, line and column",
    arguments: [
      ("[{\"a\": 1},\n {\"a\": }]", ":2:8: unexpected character in JSON"),
      ("[{\"a\": 1}\n  {\"a\": 2}]", ":2:3: expected ',' or ']' in array"),
      ("[{\"a\": {\"$date\": \"soon\"}}]", ":1:25: invalid $date \"soon\""),
    ])
  func loadErrors(text: String, expected: String) throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-bad-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data(text.utf8).write(to: url)
    let r = REPLSession().execute(".load '\(url.path)'")
    #expect(r.status == .failed)
    #expect(r.text.hasPrefix("error: \(url.path)\(expected)"), "\(r.text)")
  }

  @Test(
    "loading keeps records of any kind and reports bad JSON where it is",
    arguments: [
      (#"[{"a": 1}, 2, {"a": {"b": [true]}}]"#, "x.json", [["a": 1], 2, ["a": ["b": [true]]]] as [SiftValue]),
      ("{\"a\": 1}\n{\"a\": 2}\n", "x.json", [["a": 1], ["a": 2]]),
      ("{\"a\": 1}\n\n7\n", "x.jsonl", [["a": 1], 7]),
      (#"{"a": 1}"#, "x.json", [["a": 1]]),
    ] as [(String, String, [SiftValue])])
  func loaderShapes(_ text: String, _ path: String, _ expected: [SiftValue]) throws {
    #expect(try Self.records(text, path) == expected)
  }

  /// The records `.load` reads from a file at `path` holding `text`.
  static func records(_ text: String, _ path: String) throws -> [SiftValue] {
    try JSONDataLoader.dataSet(bytes: Array(text.utf8), path: path, name: "t", origin: path).records
  }

  @Test("a malformed array element is reported by the whole-text parser")
  func loaderErrors() {
    let array = #expect(throws: REPLDataError.self) {
      try Self.records(#"[{"a": 1}, {"a": }]"#, "x.json")
    }
    #expect(array?.message.hasPrefix("x.json:1:") == true, "\(String(describing: array))")
    let lines = #expect(throws: REPLDataError.self) {
      try Self.records("{\"a\": 1}\n{oops\n", "x.jsonl")
    }
    #expect(lines?.message.hasPrefix("x.jsonl:2:") == true, "\(String(describing: lines))")
  }

  @Test(".timer prints how long each input took")
  func timer() throws {
    let session = try REPLSession.withSampleData()
    #expect(session.execute(".timer").text == "timer: off\n")
    #expect(session.execute(".timer on").status == .ok)
    let text = session.execute(".count distance < 1").text
    #expect(text.range(of: #"^\d+\ntime: \d+\.\d{3} s\n$"#, options: .regularExpression) != nil, "\(text)")
    #expect(session.execute(".timer off").text == "timer: off\n")
    #expect(session.execute(".timer maybe").text == "error: usage: .timer [on | off]\n")
  }
}
