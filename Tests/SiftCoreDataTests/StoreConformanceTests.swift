import Foundation
import SiftCoreData
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// The conformance sample as a Core Data store (Venues.xcdatamodel, Venues.sql; venue i is
/// `Z_PK` i + 1, each with its location and ordered menu): every case that fits a Core Data
/// model — all but those on `tags`/`scores`, arrays Core Data has no attribute type for —
/// selects on the store, through the model's schema and through the schema inferred without
/// it, exactly the objects memory selects over the same objects (the venues without those
/// arrays). A case memory rejects must be rejected on the store too.
@Suite("Core Data store conformance")
struct StoreConformanceTests {
  static let directory = CoreDataFixtures.directory.deletingLastPathComponent().appendingPathComponent("conformance")

  static func jsonLines(_ name: String) throws -> [[String: SiftValue]] {
    let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    return try text.split(separator: "\n").map { line in
      guard case .dictionary(let d) = try SiftJSON.parse(String(line)) else {
        throw CoreDataStoreError("not an object")
      }
      return d
    }
  }

  static func sqlValue(_ v: SiftValue?) -> SQLValue {
    switch v {
    case .int(let i)?: return .integer(i)
    case .double(let d)?: return .double(d)
    case .string(let s)?: return .text(s)
    case .bool(let b)?: return .integer(b ? 1 : 0)
    default: return .null
    }
  }

  /// The store file (built from venues.json) and the venues as they are in it.
  static func build() throws -> (path: String, venues: [SiftValue]) {
    let path = try StoreFixture.build("Venues.sql")
    let db = try SQLiteDatabase(path: path)
    let data = try Data(contentsOf: directory.appendingPathComponent("venues.json"))
    guard case .array(let all) = try SiftJSON.parse(bytes: [UInt8](data)) else {
      throw CoreDataStoreError("venues.json")
    }
    var venues: [SiftValue] = []
    var menuKey: Int64 = 0
    try db.executeScript("BEGIN")
    for (i, value) in all.enumerated() {
      guard case .dictionary(var v) = value else { continue }
      v["tags"] = nil
      v["scores"] = nil
      venues.append(.dictionary(v))
      let pk = Int64(i + 1)
      var location: SQLValue = .null
      if case .dictionary(let l)? = v["location"] {
        location = .integer(pk)
        _ = try db.execute(
          SQLStatement(
            sql: "INSERT INTO ZLOCATION VALUES (?, 1, 1, ?, ?, ?, ?)",
            bindings: [.integer(pk), .integer(pk), sqlValue(l["distance"]), sqlValue(l["city"]), sqlValue(l["zip"])]))
      }
      _ = try db.execute(
        SQLStatement(
          sql: "INSERT INTO ZVENUE VALUES (?, 3, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          bindings: [.integer(pk)] + ["createdAt", "favorite", "id"].map { sqlValue(v[$0]) } + [location]
            + ["specialCount", "tipCount", "distance", "rating", "code", "name", "phone", "priceCategory"].map {
              sqlValue(v[$0])
            }))
      if case .array(let menu)? = v["menu"] {
        for (position, m) in menu.enumerated() {
          guard case .dictionary(let item) = m else { continue }
          menuKey += 1
          // Sparse order keys, as Core Data writes them (notes, section 4).
          _ = try db.execute(
            SQLStatement(
              sql: "INSERT INTO ZMENUITEM VALUES (?, 2, 1, ?, ?, ?, ?, ?)",
              bindings: [
                .integer(menuKey), sqlValue(item["vegan"]), .integer(pk), .integer(Int64(position + 1) * 1024),
                sqlValue(item["price"]), sqlValue(item["item"]),
              ]))
        }
      }
    }
    _ = try db.execute(
      SQLStatement(
        sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = CASE Z_ENT WHEN 2 THEN ? ELSE ? END",
        bindings: [.integer(menuKey), .integer(Int64(all.count))]))
    try db.executeScript("COMMIT")
    return (path, venues)
  }

  @Test func everyFittingCaseAnswersLikeMemory() throws {
    let (path, venues) = try Self.build()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("Venues.xcdatamodel"))
    let withModel = try CoreDataStore(database: try SQLiteDatabase(readOnly: path), model: model)
    let inferred = try CoreDataStore(database: try SQLiteDatabase(readOnly: path))
    let records = try JSONRecords.records(from: .array(venues))
    let cases = try Self.jsonLines("venues-cases.jsonl")
    var ran = 0, rejected = 0
    for c in cases {
      guard case .string(let id)? = c["id"], case .string(let format)? = c["format"] else { continue }
      if format.contains("tags") || format.contains("scores") { continue }  // arrays: no Core Data type
      var args: [SiftValue] = []
      if case .array(let a)? = c["args"] { args = a }
      // Fails before any engine.
      guard let predicate = try? SiftPredicate(format: format, arguments: args) else { continue }
      let memory = Result { () throws(SiftError) in
        try predicate.compile().matchingIndices(records).map { Int64($0 + 1) }
      }
      for (label, store) in [("model", withModel), ("inferred", inferred)] {
        // Without the model, a to-many whose inverse is a foreign key (Venue.menu) is unknown.
        if label == "inferred" && format.contains("menu") { continue }
        // The inferred schema's keys are lower-cased column names: ask with lower-cased keys.
        let lowered = args.map { a -> SiftValue in if case .string(let k) = a { .string(Self.lowerKeys(k)) } else { a }
        }
        let p = label == "model" ? predicate : try SiftPredicate(format: Self.lowerKeys(format), arguments: lowered)
        let answer = Result { () throws in
          let st = try SQLCompiler(dialect: SQLiteDialect(), schema: store.schema)
            .compile(SiftFetchRequest(entity: "Venue", predicate: p))
          return try store.database.execute(st).map { row -> Int64 in if case .integer(let k) = row[0] { k } else { -1 }
          }
        }
        switch (memory, answer) {
        case (.success(let m), .success(let s)): #expect(m == s, "\(id) [\(label)]: \(format)")
        case (.failure, .failure): if label == "model" { rejected += 1 }
        case (.success, .failure(let e)): Issue.record("\(id) [\(label)]: memory answers, the store fails: \(e)")
        case (.failure(let e), .success):
          Issue.record("\(id) [\(label)]: memory fails (\(e.diagnostic.id)), the store answers")
        }
      }
      ran += 1
    }
    #expect(ran >= 90 && rejected < ran / 4, "ran \(ran), rejected \(rejected)")
  }

  /// The model's camel-case keys as the inferred schema spells them (`priceCategory` →
  /// `pricecategory`), outside quoted strings.
  static func lowerKeys(_ format: String) -> String {
    var out = ""
    var plain = ""
    var quote: Character?
    func flush() {
      for key in ["priceCategory", "specialCount", "tipCount", "createdAt"] {
        plain = plain.replacingOccurrences(of: key, with: key.lowercased())
      }
      out += plain
      plain = ""
    }
    for ch in format {
      if let q = quote {
        out.append(ch)
        if ch == q { quote = nil }
      } else if ch == "\"" || ch == "'" {
        flush()
        quote = ch
        out.append(ch)
      } else {
        plain.append(ch)
      }
    }
    flush()
    return out
  }
}
