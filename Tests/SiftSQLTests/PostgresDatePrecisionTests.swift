import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSyntax
import Testing

/// PostgreSQL's native `timestamptz`, `timestamp` (microseconds) and `date` columns against a
/// date argument finer than they hold: memory's answer for every operator, by bounds rather
/// than rounding (as DatePrecisionTests for SQLite's text and integer columns). Random
/// sub-microsecond offsets next to stored instants, fixed seed.
@Suite("PostgreSQL native dates finer than their column")
struct PostgresDatePrecisionTests {
  static let base: Int64 = 1_709_251_200_000_000  // 2024-03-01T00:00:00Z in microseconds

  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func everyOperatorAgreesWithMemory() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let name = try #require(db.schemaName)
    try db.run("CREATE TABLE t (id int8 PRIMARY KEY, tz timestamptz, ts timestamp, d date)")
    var stored: [Int64] = []
    var values: [String] = []
    for i in 0..<30 {
      let micros = Self.base + Int64(i) * 137_001 + Int64(i % 3) * 86_400_000_000  // µs apart, over three days
      stored.append(micros)
      let seconds = Double(micros) / 1_000_000
      values.append(
        "(\(i), to_timestamp(\(micros)::numeric / 1000000), to_timestamp(\(micros)::numeric / 1000000) AT TIME ZONE 'UTC',"
          + " (to_timestamp(\(Int64(seconds)))  AT TIME ZONE 'UTC')::date)")
    }
    try db.run("INSERT INTO t VALUES " + values.joined(separator: ", "))
    let schema = try db.introspectSchema(named: name).schema
    let compiler = SQLCompiler(dialect: PostgreSQLDialect(), schema: schema)
    // Memory: the same rows read through the columns' own decoding.
    let rows = try compiler.fetch(SiftFetchRequest(entity: "t"), as: SiftRow.self, in: db)
    let records: [SiftValue] = rows.map { row in
      .dictionary(Dictionary(uniqueKeysWithValues: ["id", "tz", "ts", "d"].map { ($0, row[$0] ?? .null) }))
    }
    var random = SeededRandom(seed: 0x9057_DA7E)
    var checked = 0
    for _ in 0..<120 {
      let at = try #require(stored.randomElement(using: &random))
      let onDay = Bool.random(using: &random)
      let whole = onDay ? Double(at / 86_400_000_000 * 86_400) : Double(at) / 1_000_000
      let parts: [Double] = [
        0, 0.000_000_1, 0.000_000_4, 0.000_000_5, 0.000_000_6, -0.000_000_4, 0.000_4, -0.000_6, 0.5,
      ]
      let part = parts.randomElement(using: &random) ?? 0
      let date = Date(timeIntervalSince1970: whole + part)
      for key in ["tz", "ts", "d"] {
        for op in ["==", "!=", "<", "<=", ">", ">="] {
          let p = try SiftPredicate(format: "\(key) \(op) %@", date)
          let memory = try p.compile().matchingIndices(records).compactMap { i -> SiftValue? in
            if case .dictionary(let r) = records[i] { return r["id"] }
            return nil
          }.sorted { SiftJSON.serialize($0) < SiftJSON.serialize($1) }
          let sql = try compiler.fetch(
            SiftFetchRequest(entity: "t", predicate: p), as: SiftRow.self, in: db
          ).map { $0["id"] ?? .null }.sorted { SiftJSON.serialize($0) < SiftJSON.serialize($1) }
          #expect(sql == memory, "\(key) \(op) \(date.timeIntervalSince1970)")
          checked += 1
        }
      }
    }
    #expect(checked == 120 * 18)
  }
}
