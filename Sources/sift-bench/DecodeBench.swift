import CSQLite
import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax

/// `--suite decode`: typed results against hand-written Swift. 100,000 rows fetched from
/// SQLite as `Decodable` structs (`db.fetch(request, as:)`) against a `sqlite3_step` loop
/// building the same structs from the same file; and `request.fetch(from:)` over 100,000
/// structs against `filter` + `sorted` written by hand. Each pair is timed interleaved in one
/// process (`InterleavedTiming`); one JSON line per case, with the ratio (budget 1.5). Beside
/// them, the floors (DecodeFloor.swift): the least any `Decoder` costs over the same loop
/// (`decodable_floor_ms`) and the least any `Encoder` costs per struct (`encodable_floor_ms`),
/// which show how much of each ratio `Decodable`/`Encodable` themselves take.
func runDecodeBenchmarks(_ options: BenchOptions) throws {
  struct Note: Codable, Equatable {
    var id: Int
    var title: String
    var createdAt: Date
    var pinned: Bool
    var rating: Double
  }
  let n = 100_000
  var rng = SeededRandom(seed: 20)
  let notes = (0..<n).map { i in
    Note(
      id: i + 1, title: "note \(rng.below(10_000))",
      createdAt: Date(timeIntervalSince1970: 1_600_000_000 + Double(i) * 37.5),
      pinned: rng.below(3) == 0, rating: Double(rng.below(500)) / 100)
  }
  let schema = try SQLSchema(entities: [
    SQLEntity(
      name: "Note", table: "note",
      attributes: [
        SQLAttribute(name: "title", type: .string), SQLAttribute(name: "createdAt", type: .date),
        SQLAttribute(name: "pinned", type: .boolean), SQLAttribute(name: "rating", type: .double),
      ])
  ])
  let path = FileManager.default.temporaryDirectory.appendingPathComponent(
    "sift-bench-decode-\(UUID().uuidString).sqlite"
  ).path
  defer { try? FileManager.default.removeItem(atPath: path) }
  do {
    let writer = try SQLiteDatabase(path: path)
    try writer.load(
      try notes.map { try SiftRecordEncoder.encode($0) }, entity: "Note", schema: schema, dialect: SQLiteDialect())
  }
  let db = try SQLiteDatabase(readOnly: path)
  var raw: OpaquePointer?
  guard sqlite3_open_v2(path, &raw, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let raw else {
    throw BenchOptions.Failure(description: "sqlite3_open_v2 \(path)")
  }
  defer { sqlite3_close_v2(raw) }
  let request = SiftFetchRequest(entity: "Note")
  var statement: OpaquePointer?
  let sql = "SELECT id, title, createdAt, pinned, rating FROM note ORDER BY id"
  guard sqlite3_prepare_v2(raw, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
    throw BenchOptions.Failure(description: "prepare")
  }
  defer { sqlite3_finalize(statement) }
  func handWritten() -> [Note] {
    sqlite3_reset(statement)
    var out: [Note] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      let title = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
      out.append(
        Note(
          id: Int(sqlite3_column_int64(statement, 0)), title: title,
          createdAt: Date(timeIntervalSince1970: sqlite3_column_double(statement, 2)),
          pinned: sqlite3_column_int64(statement, 3) != 0, rating: sqlite3_column_double(statement, 4)))
    }
    return out
  }
  let fetched = try db.fetch(request, as: Note.self, schema: schema)
  let introspected = SiftFetchRequest(entity: "note")  // the database's own schema names entities by table
  guard fetched == handWritten(), fetched == notes, try db.fetch(introspected, as: Note.self) == notes else {
    throw BenchOptions.Failure(description: "decode: the fetches disagree")
  }
  let sqliteTiming = InterleavedTiming(
    seconds: options.seconds,
    [
      { blackHole(try? db.fetch(request, as: Note.self, schema: schema)) },
      { blackHole(try? db.fetch(introspected, as: Note.self)) },
      { blackHole(handWritten()) },
      { blackHole(floorFetch(statement, as: Note.self)) },
    ])
  emit([
    ("name", "decode.sqlite.records"), ("rows", .int(Int64(n))), ("sift_ms", .double(sqliteTiming.nsPerOp[0] / 1e6)),
    ("sift_introspecting_ms", .double(sqliteTiming.nsPerOp[1] / 1e6)),
    ("baseline_ms", .double(sqliteTiming.nsPerOp[2] / 1e6)),
    ("ratio_vs_baseline", .double(sqliteTiming.ratio(0, 2))),
    ("ratio_introspecting_vs_baseline", .double(sqliteTiming.ratio(1, 2))),
    // The least any Decoder costs over the same loop (DecodeFloor.swift), and Sift against it.
    ("decodable_floor_ms", .double(sqliteTiming.nsPerOp[3] / 1e6)),
    ("ratio_floor_vs_baseline", .double(sqliteTiming.ratio(3, 2))),
    ("ratio_vs_floor", .double(sqliteTiming.ratio(0, 3))), ("budget", .double(1.5)),
  ])

  let memory = SiftFetchRequest(
    entity: "Note", predicate: try SiftPredicate(format: "pinned == YES AND rating >= 2.5"),
    sortDescriptors: [SiftSortDescriptor("createdAt", ascending: false)])
  func byHand() -> [Note] { notes.filter { $0.pinned && $0.rating >= 2.5 }.sorted { $0.createdAt > $1.createdAt } }
  let selected = try memory.fetch(from: notes)
  guard selected == byHand() else {
    throw BenchOptions.Failure(description: "decode: memory fetch disagrees with filter + sorted")
  }
  // Where the time goes: encoding every value (a count with no predicate encodes them all and
  // evaluates nothing) and the least any Encoder costs (DecodeFloor.swift).
  let encodeOnly = SiftFetchRequest(entity: "Note")
  guard try encodeOnly.fetchCount(from: notes) == n, floorEncode(notes) == n else {
    throw BenchOptions.Failure(description: "decode: encoding disagrees")
  }
  let memoryTiming = InterleavedTiming(
    seconds: options.seconds,
    [
      { blackHole(try? memory.fetch(from: notes)) },
      { blackHole(byHand()) },
      { blackHole(try? encodeOnly.fetchCount(from: notes)) },
      { blackHole(floorEncode(notes)) },
    ])
  let perRecord = { (i: Int) in SiftValue.double((memoryTiming.nsPerOp[i] / Double(n) * 10).rounded() / 10) }
  emit([
    ("name", "decode.memory.fetch"), ("records", .int(Int64(n))), ("selected", .int(Int64(selected.count))),
    ("sift_ms", .double(memoryTiming.nsPerOp[0] / 1e6)), ("baseline_ms", .double(memoryTiming.nsPerOp[1] / 1e6)),
    ("ratio_vs_baseline", .double(memoryTiming.ratio(0, 1))), ("budget", .double(1.5)),
    ("sift_encode_ms", .double(memoryTiming.nsPerOp[2] / 1e6)),
    ("encodable_floor_ms", .double(memoryTiming.nsPerOp[3] / 1e6)),
    ("ns_per_record_sift", perRecord(0)), ("ns_per_record_baseline", perRecord(1)),
    ("ns_per_record_sift_encode", perRecord(2)), ("ns_per_record_encodable_floor", perRecord(3)),
    ("ratio_floor_vs_baseline", .double(memoryTiming.ratio(3, 1))),
  ])
}
