import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax

/// The native-encodings oracle: a database Sift did not create — a STRICT SQLite table whose
/// dates are ISO-8601 text with milliseconds, integer milliseconds since 1970 and seconds since
/// 2001 (Core Data's), whose array is JSON text and one column `ANY` — read with its introspected
/// schema. In-memory evaluation over the rows as Sift reads them (through each column's codec)
/// and the SQL compiled for the table select the same rows, or both fail; nothing traps.
///
/// ```swift
/// NativeOracle.check("when > %@ AND ANY tags == 'wifi'")   // nil
/// ```
public enum NativeOracle {
  /// The table, written as another program would.
  public static let script = """
    CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, code ANY, n INTEGER, x REAL, flag INTEGER,
      "when" TEXT, ms INTEGER, cd REAL, tags TEXT) STRICT;
    INSERT INTO item VALUES
      (1, 'Blue Café', 'A-1', 3, 2.5, 1, '2024-05-01T12:00:00.250Z', 1714564800250, 736257600.25, '["wifi","quiet"]'),
      (2, 'red bar', 'b_2%', -7, -1.5, 0, '1999-12-31T23:59:59Z', 946684799000, -1.0, '[]'),
      (3, '', '', 0, 1e300, 1, '2001-01-01T00:00:00.001Z', 978307200001, 0.001, '["","Straße","wifi"]'),
      (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '["ΣΑΣ"]'),
      (5, 'naïve *?\\ x', 'ß', 9223372036854775807, 0.1, 0, '2030-06-15T08:30:00Z', 1907735400000, 929435400.5,
        '["a","A","á"]'),
      (6, 'Zoë''s 100% [c]', 'Z', -9223372036854775808, -1e-5, 1, '1970-01-01T00:00:00Z', 0, -978307200.0, '["quiet"]');
    """

  /// What the introspected schema cannot know from a STRICT table's values alone (integer
  /// milliseconds and Core Data seconds look like any numbers; ISO and JSON text like any text).
  public static let schemaFile = """
    {"entities": {"item": {"attributes": {
      "flag": {"type": "boolean"},
      "when": {"type": "date", "dateEncoding": "iso8601"},
      "ms": {"type": "date", "dateEncoding": "millisecondsSince1970"},
      "cd": {"type": "date", "dateEncoding": "secondsSince2001"},
      "tags": {"type": "stringArray", "arrayStorage": "json"}}}}}
    """

  /// The database, its schema and the rows as memory sees them, or why they could not be made.
  public static let fixture: Result<(LockedDatabase, SQLSchema, [Int64], [SiftObject]), FuzzSetupError> = {
    do {
      let db = try SQLiteDatabase()
      try db.executeScript(script)
      let schema = try db.introspectSchema().schema.merging(json: schemaFile)
      let rows = try db.fetch(
        SiftFetchRequest(entity: "item", sortDescriptors: [SiftSortDescriptor("id")]), as: SiftRow.self, schema: schema)
      let names = schema.entity("item")?.attributes.map(\.name) ?? []
      let values: [SiftValue] = rows.map { row in
        .dictionary(Dictionary(uniqueKeysWithValues: names.map { ($0, row[$0] ?? .null) }))
      }
      let ids = rows.compactMap { row -> Int64? in if case .int(let i)? = row["id"] { return i } else { return nil } }
      return .success((LockedDatabase(db), schema, ids, try JSONRecords.records(from: .array(values))))
    } catch {
      return .failure(FuzzSetupError(message: "native fixture: \(error)"))
    }
  }()

  /// Nil when the oracle holds for `text`.
  public static func check(_ text: String) -> FuzzFailure? {
    guard let p = PreparedInput.predicate(text) else { return nil }
    switch fixture {
    case .failure(let e): return FuzzFailure(oracle: "native", message: e.message, input: text)
    case .success(let (db, schema, ids, objects)):
      let memory: DifferentialOracle.Outcome
      do {
        memory = .matches(try p.compile().matchingIndices(objects).map { Int(ids[$0]) })
      } catch {
        memory = .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
      }
      let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
      let sql: DifferentialOracle.Outcome
      var statement: SQLStatement?
      do {
        let w = try compiler.compileWhere(p, entity: "item")
        let st = SQLStatement(
          sql: "SELECT t0.\"id\" FROM \"item\" t0 WHERE " + w.sql + " ORDER BY t0.\"id\"", bindings: w.bindings)
        statement = st
        do {
          let rows = try db.withDatabase { try $0.execute(st) }
          sql = .matches(rows.compactMap { $0.first?.intValue.map { Int(truncatingIfNeeded: $0) } })
        } catch let error as SiftError {
          sql = .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
        } catch {
          sql = .failed("\(error)")
        }
      } catch {
        sql = .refused("\(error.diagnostic.id): \(error.diagnostic.message)")
      }
      if memory.agrees(with: sql) { return nil }
      // Documented gap (as in the differential oracle): SQL compares NFC text, memory does not
      // normalize the predicate's own strings.
      let nfc = p.predicateFormat.precomposedStringWithCanonicalMapping
      if nfc != p.predicateFormat, let q = try? SiftPredicate.parse(nfc),
        let m = try? q.compile().matchingIndices(objects).map({ Int(ids[$0]) }),
        DifferentialOracle.Outcome.matches(m).agrees(with: sql)
      {
        return nil
      }
      var message = "memory \(memory) but SQLite \(sql) (predicate \(p.predicateFormat))"
      if let statement {
        message +=
          "\n  SQL: \(statement.sql)\n  bindings: \(statement.bindings.map(\.description).joined(separator: ", "))"
      }
      return FuzzFailure(oracle: "native", message: message, input: text)
    }
  }
}
