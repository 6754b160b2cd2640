import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax

/// Shared fixtures of the SQL tests: the venues schema and records, and one SQLite database
/// holding them (guarded by a lock, since tests run in parallel).
enum SQLFixtures {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  static func text(_ relative: String) -> String {
    (try? String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)) ?? ""
  }

  static let schema: SQLSchema = {
    do { return try SQLSchema(json: text("sql/venues.schema.json")) } catch {
      preconditionFailure("venues.schema.json: \(error)")
    }
  }()

  static let records: [SiftValue] = {
    guard case .array(let a)? = try? SiftJSON.parse(text("conformance/venues.json")) else { return [] }
    return a
  }()

  static let sqlite = SQLCompiler(dialect: SQLiteDialect(), schema: schema)
  static let postgres = SQLCompiler(dialect: PostgreSQLDialect(), schema: schema)

  /// The venues loaded into an in-memory SQLite database.
  static let database = LockedDatabase {
    let db = try SQLiteDatabase()
    try db.load(records, entity: "Venue", schema: schema, dialect: SQLiteDialect())
    return db
  }

  /// JSON lines as dictionaries.
  static func jsonLines(_ relative: String) -> [[String: SiftValue]] {
    text(relative).split(separator: "\n").compactMap {
      if case .dictionary(let d)? = try? SiftJSON.parse(String($0)) { return d }
      return nil
    }
  }
}

/// A database used by one test at a time.
final class LockedDatabase: @unchecked Sendable {
  private let lock = NSLock()
  private let make: () throws -> SQLiteDatabase
  private var db: SQLiteDatabase?

  init(_ make: @escaping () throws -> SQLiteDatabase) { self.make = make }

  func with<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    if db == nil { db = try make() }
    guard let db else { throw SQLTestFailure("no database") }
    return try body(db)
  }
}

struct SQLTestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ d: String) { description = d }
}

/// Placeholders outside quoted identifiers and string literals: the number of `?` and the
/// number of `$n` (with the highest n).
func placeholders(_ sql: String) -> (questionMarks: Int, dollars: Int, maxDollar: Int) {
  var marks = 0
  var dollars = 0
  var maxDollar = 0
  var quote: Character?
  let chars = Array(sql) + [" "]
  var i = 0
  while i < chars.count - 1 {
    let ch = chars[i]
    if let q = quote {
      if ch == q { quote = nil }
    } else if ch == "\"" || ch == "'" {
      quote = ch
    } else if ch == "?" {
      marks += 1
    } else if ch == "$", chars[i + 1].isNumber {
      var j = i + 1
      var n = 0
      while j < chars.count, let d = chars[j].wholeNumberValue {
        n = n &* 10 &+ d
        j += 1
      }
      dollars += 1
      maxDollar = max(maxDollar, n)
      i = j
      continue
    }
    i += 1
  }
  return (marks, dollars, maxDollar)
}

/// True when a statement's placeholders match its bindings for the dialect: `?` only for
/// SQLite; `$1…$n` only for PostgreSQL, each number once, n = bindings.
func placeholdersMatch(_ st: SQLStatement, _ dialect: any SQLDialect) -> Bool {
  let p = placeholders(st.sql)
  if dialect.placeholder(1) == "?" { return p.dollars == 0 && p.questionMarks == st.bindings.count }
  return p.questionMarks == 0 && p.dollars == st.bindings.count && p.maxDollar == st.bindings.count
}
