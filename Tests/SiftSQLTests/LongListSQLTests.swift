import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// `key IN %@` with 150,000 values (issue 35) on every kind of column, with `[c]`/`[d]`, nil
/// and mixed kinds: memory, SQLite and PostgreSQL give the same answer — a list of that size
/// overflows SQLite's 32,766 and PostgreSQL's 65,535 parameters unless it travels as one.
@Suite("Long IN lists in SQL")
struct LongListSQLTests {
  static let schemaJSON = #"""
    {"entities": {"item": {"table": "item", "primaryKey": "id", "attributes": {
      "id": "integer", "qty": "integer", "name": "string", "price": "double", "flag": "boolean", "day": "date"}}}}
    """#

  static let count = 150_000
  static let day0 = Date(timeIntervalSinceReferenceDate: 700_000_000)

  static func engines() throws -> ThreeWay {
    let names = ["Blue", "blue", "BLÜE", "ñandú", "Nandu", "straße", "x"]
    let records: [SiftValue] = (0..<300).map { i in
      var d: [String: SiftValue] = [
        "id": .int(Int64(i)), "qty": .int(Int64(i % 97)), "name": .string(names[i % names.count] + "\(i % 5)"),
        "price": .double(Double(i % 40) / 4), "flag": .bool(i % 3 == 0),
        "day": .date(day0.addingTimeInterval(Double(i % 50) * 86_400)),
      ]
      if i % 11 == 0 { d["qty"] = .null }
      if i % 13 == 0 { d["name"] = .null }
      return .dictionary(d)
    }
    return try ThreeWay(schema: try SQLSchema(json: schemaJSON), entity: "item", records: records)
  }

  static func list(_ make: (Int) -> SiftValue) -> SiftValue { .array((0..<count).map(make)) }

  static let lists: [(String, SiftValue)] = [
    ("ints", list { .int(Int64($0 * 3)) }),
    ("ints, doubles and nil", list { $0 % 3 == 0 ? .double(Double($0) / 2) : $0 == 7 ? .null : .int(Int64($0)) }),
    ("strings", list { .string(["blue", "NANDU", "Straße", "ñandú"][$0 % 4] + "\($0 % 9)") }),
    ("strings and numbers", list { $0 % 2 == 0 ? .string("Blue\($0 % 7)") : .int(Int64($0 % 50)) }),
    ("booleans", list { .bool($0 % 2 == 0) }),
    ("ones and zeros", list { .int(Int64($0 % 2)) }),
    ("dates", list { .date(day0.addingTimeInterval(Double($0 % 60) * 86_400 + ($0 % 7 == 0 ? 0.5 : 0))) }),
  ]

  @Test(arguments: ["qty", "name", "price", "flag", "day"])
  func everyEngineAnswersTheSame(key: String) throws {
    let engines = try Self.engines()
    for (label, list) in Self.lists {
      for options in key == "name" ? ["", "[c]", "[cd]"] : [""] {
        let p = try SiftPredicate(format: "\(key) IN\(options) %@", arguments: [list])
        let (memory, sqlite, postgres) = engines.outcomes(p)
        guard case .matches = memory else {
          Issue.record("memory: \(memory)")
          continue
        }
        #expect(memory == sqlite, "\(key) IN\(options) \(label): memory \(memory), SQLite \(sqlite)")
        if let postgres {
          #expect(memory == postgres, "\(key) IN\(options) \(label): memory \(memory), PostgreSQL \(postgres)")
        }
      }
    }
  }

  /// A list that cannot travel as one value (a NaN among the doubles) and binds more values
  /// than the database takes is refused with Sift's error, not the driver's "number of
  /// parameters must be between 0 and 65535".
  @Test func aListTooLongToBindIsRefused() throws {
    let schema = try SQLSchema(json: Self.schemaJSON)
    let list = SiftValue.array([.double(.nan)] + (0..<70_000).map { .double(Double($0) + 0.5) })
    let p = try SiftPredicate(format: "price IN %@", arguments: [list])
    for dialect in [PostgreSQLDialect() as any SQLDialect, SQLiteDialect()] {
      do {
        _ = try SQLCompiler(dialect: dialect, schema: schema).compileMatchingIndices(p, entity: "item")
        Issue.record("\(dialect.name) compiled")
      } catch {
        #expect(error.diagnostic.id == "too-large-for-sql", "\(error)")
        #expect(error.diagnostic.message.contains("70001 values"), "\(error)")
      }
    }
    // Repeats bind once: 150,000 booleans are two values.
    let flags = SiftValue.array((0..<150_000).map { .bool($0 % 2 == 0) })
    let st = try SQLCompiler(dialect: PostgreSQLDialect(), schema: schema).compileMatchingIndices(
      try SiftPredicate(format: "flag IN %@", arguments: [flags]), entity: "item")
    #expect(st.bindings.count <= 2, "\(st.sql)")
  }
}
