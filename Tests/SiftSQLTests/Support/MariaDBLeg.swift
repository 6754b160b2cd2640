import Foundation
import SiftMySQL
import SiftSQL
import SiftSyntax

/// The MariaDB/MySQL leg of the differential tests: the same records loaded with
/// `MySQLDialect`'s DDL into a database of its own (`sift_dt_<random>`, dropped at the end),
/// Sift's functions set up in that same database, and predicates run there. Nil without
/// `SIFT_MYSQL` (the tests print `skipMessage`).
final class MariaDBLeg {
  static let howToRun =
    "run `.ci/mariadb-setup` (as root) and then `SIFT_MYSQL='mysql://sift:sift@127.0.0.1:3306/sift' swift test`"
  /// The reason printed when the leg is skipped.
  static let skipMessage = "MariaDB leg skipped: \(howToRun)"

  /// `SIFT_MYSQL` when it is set and reaches a server.
  static let url: String? = {
    guard let url = ProcessInfo.processInfo.environment["SIFT_MYSQL"], !url.isEmpty else { return nil }
    do {
      try MySQLDatabase(url: url).close()
      return url
    } catch {
      FileHandle.standardError.write(Data("note: cannot reach SIFT_MYSQL (\(error))\n".utf8))
      return nil
    }
  }()

  let name: String
  let db: MySQLDatabase
  let admin: MySQLDatabase
  let dialect: MySQLDialect
  let compiler: SQLCompiler
  let entity: String

  /// Loads `records` into a new database; nil when no server is configured.
  init?(schema: SQLSchema, entity: String, records: [SiftValue]) throws {
    guard let url = MariaDBLeg.url else { return nil }
    name = "sift_dt_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
    admin = try MySQLDatabase(url: url, readOnly: false)
    try admin.executeScript("CREATE DATABASE `\(name)` CHARACTER SET utf8mb4")
    var parsed = try MySQLURL(url)
    parsed.database = name
    let enc: (String) -> String = { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0 }
    let own =
      "mysql://" + enc(parsed.user) + (parsed.password.map { ":" + enc($0) } ?? "") + "@\(parsed.server)/" + name
    db = try MySQLDatabase(url: own, readOnly: false)
    dialect = MySQLDialect(functionDatabase: name)
    for statement in dialect.setupSQL { try db.executeScript(statement) }
    try db.load(records, entity: entity, schema: schema, dialect: dialect)
    compiler = SQLCompiler(dialect: dialect, schema: schema)
    self.entity = entity
  }

  deinit {
    db.close()
    try? admin.executeScript("DROP DATABASE IF EXISTS `\(name)`")
    admin.close()
  }

  /// The matching record indices, or the failure as "id: message".
  func run(_ p: SiftPredicate) -> EngineOutcome {
    do {
      let rows = try db.execute(try compiler.compileMatchingIndices(p, entity: entity))
      return .matches(rows.compactMap { $0.first?.intValue.map { Int(truncatingIfNeeded: $0) } })
    } catch {
      return .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
    }
  }

  /// The SQL of `p` here, for reports.
  func sql(_ p: SiftPredicate) -> String {
    guard let st = try? compiler.compileMatchingIndices(p, entity: entity) else { return "(does not compile)" }
    return st.sql + "\n  bindings: " + st.bindings.map(\.description).joined(separator: ", ")
  }

  /// A refusal documented in Grammar/notes/mysql.md (MariaDB cannot say what memory answers):
  /// compiled SQL refused (`unsupported-in-sql`), `[c]`/`[d]` of text beyond ASCII, a double
  /// divided by zero, a double beyond MariaDB's range (memory's infinity), an integer overflow.
  static func isDocumentedRefusal(_ outcome: EngineOutcome) -> Bool {
    guard case .failed(let why) = outcome else { return false }
    let documented = [
      "unsupported-in-sql:", "beyond ASCII", "division of a double by zero", "DOUBLE value is out of range",
      "BIGINT value is out of range",
    ]
    return documented.contains { why.contains($0) }
  }
}
