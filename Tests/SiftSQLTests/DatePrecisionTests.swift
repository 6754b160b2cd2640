import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// A date argument finer than its column (a `Date()` with microseconds against ISO text of
/// milliseconds, integer seconds or milliseconds) gives memory's answer for every operator:
/// the constant moves to the bound that decides (`>=` the next stored step up, `<=` the one
/// below), `==` is false and `!=` true — never rounding. Property-tested with random
/// sub-millisecond dates against rows read back through the columns' own encodings.
@Suite("Dates finer than their column")
struct DatePrecisionTests {
  static let base = 1_709_251_200.0  // 2024-03-01T00:00:00Z

  static func database() throws -> SQLiteDatabase {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE t (id INTEGER PRIMARY KEY, iso DATETIME, local DATETIME, secs INTEGER_TIMESTAMP, ms INTEGER_TIMESTAMP_MS);
      """)
    var rows: [String] = []
    for i in 0..<40 {
      let ms = Int64(base * 1000) + Int64(i * 137)  // steps of 137 ms around the base
      let d = Date(timeIntervalSince1970: Double(ms) / 1000)
      let iso = try SQLDateEncoding.iso8601.sqlValue(d)
      let local = try SQLDateEncoding.sqliteDateTime.sqlValue(d)
      guard case .text(let a) = iso, case .text(let b) = local else { continue }
      rows.append("(\(i), '\(a)', '\(b)', \(ms / 1000), \(ms))")
    }
    try db.executeScript("INSERT INTO t VALUES " + rows.joined(separator: ", "))
    return db
  }

  @Test func everyOperatorAgreesWithMemory() throws {
    let db = try Self.database()
    var schema = try db.introspectSchema().schema
    // The integer columns hold whole seconds and milliseconds since 1970.
    schema = try schema.merging(
      json: #"""
        {"entities": {"t": {"attributes": {"secs": {"type": "date", "dateEncoding": "secondsSince1970"},
                                           "ms": {"type": "date", "dateEncoding": "millisecondsSince1970"}}}}}
        """#)
    let entity = try #require(schema.entity("t"))
    #expect(entity.attribute("iso")?.dateEncoding(in: schema) == .iso8601)
    #expect(entity.attribute("local")?.dateEncoding(in: schema) == .sqliteDateTime)
    // Memory: the same rows read through the columns' codecs.
    let rows = try db.fetch(SiftFetchRequest(entity: "t"), as: SiftRow.self, schema: schema)
    let records: [SiftValue] = rows.map { row in
      .dictionary(
        Dictionary(uniqueKeysWithValues: ["id", "iso", "local", "secs", "ms"].map { ($0, row[$0] ?? .null) }))
    }
    var random = SeededRandom(seed: 0xDA7E_5EED)  // fixed: a failure replays
    var checked = 0
    for _ in 0..<200 {
      // Next to a stored instant: the same millisecond (or second) plus a sub-step part, so the
      // rounding a bound used to do would decide; now and then exactly on it.
      let stored = Double(Int(Self.base * 1000) + 137 * Int.random(in: 0..<40, using: &random)) / 1000
      let whole = Bool.random(using: &random) ? stored.rounded(.down) : stored
      let parts: [Double] = [0, 0.0001, 0.0004, 0.0005, 0.0006, 0.0009, -0.0004, 0.4, 0.6, -0.4]
      let part = parts.randomElement(using: &random) ?? 0
      let at = Date(timeIntervalSince1970: whole + part)
      for key in ["iso", "local", "secs", "ms"] {
        for op in ["==", "!=", "<", "<=", ">", ">="] {
          let p = try SiftPredicate(format: "\(key) \(op) %@", at)
          let memory = try p.compile().matchingIndices(records).map { records[$0] }.compactMap { r -> SiftValue? in
            if case .dictionary(let d) = r { return d["id"] }
            return nil
          }
          let sql = try db.fetch(
            SiftFetchRequest(entity: "t", predicate: p, sortDescriptors: [SiftSortDescriptor("id")]), as: SiftRow.self,
            schema: schema
          )
          .map { $0["id"] ?? .null }
          #expect(sql == memory, "\(key) \(op) \(at.timeIntervalSince1970)")
          checked += 1
        }
      }
    }
    #expect(checked == 200 * 24)
  }
}
