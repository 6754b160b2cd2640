import Foundation
import SiftMySQL
import SiftSQL
import SiftSyntax

extension ExistingDatabase {
  /// Connects to MySQL or MariaDB (`mysql://USER:PASSWORD@HOST:PORT/DATABASE`) in a read-only
  /// session unless `writable`, and reads the URL's database (never created). Failures name
  /// the server (`host:port`), never the password.
  ///
  /// ```swift
  /// let db = try ExistingDatabase.open(mysql: "mysql://reader:pw@127.0.0.1:3306/shop")
  /// db.label   // "MariaDB database shop at 127.0.0.1:3306"
  /// ```
  static func open(mysql url: String, schemaFile: String? = nil, writable: Bool = false) throws(Failure)
    -> ExistingDatabase
  {
    let parsed: MySQLURL
    do {
      parsed = try MySQLURL(url)
    } catch {
      throw Failure(error.message)
    }
    guard let name = parsed.database, !name.isEmpty else {
      throw Failure(
        "--mysql names no database (\(parsed)): end the URL with the database, "
          + "for example mysql://USER:PASSWORD@HOST:3306/shop")
    }
    let db: MySQLDatabase
    do {
      db = try MySQLDatabase(url: url, readOnly: !writable)
    } catch {
      throw Failure(error.message)
    }
    let label = "\(db.isMariaDB ? "MariaDB" : "MySQL") database \(name) at \(parsed.server)"
    return try adopt(
      db, kind: .mysql, label: label, schemaFile: schemaFile, close: db.close,
      read: { () throws(Failure) in
        do {
          return try db.introspectSchema(named: name)
        } catch {
          throw Failure("cannot read \(label): \(message(of: error))")
        }
      })
  }
}
