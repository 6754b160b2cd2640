import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import SiftSyntax

/// `sift index --db FILE --fold TABLE.COLUMN [--options c|d|cd]`: creates the expression index
/// README recommends for `[c]`/`[d]` comparisons on a table of an SQLite file Sift did not
/// create, `CREATE INDEX "t_c_sift_fold_c" ON "t" (sift_fold("c", 1))`, so `==[c]`, `IN[c]` and
/// `BEGINSWITH[c]` are served by it. An explicit write: one transaction, on an existing file
/// Sift may write (not read-only, not a Core Data store), naming a table and column it has.
enum IndexCommand: SiftSubcommand {
  static let name = "index"
  static let options = CommandOptions(
    valued: ["--db", "--fold", "--options"],
    switches: [])
  static var help: String { HelpCommand.pages[name] ?? "" }

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: "index")
    }
    guard parsed.positionals.isEmpty, let path = parsed.value("--db"), let target = parsed.value("--fold") else {
      return CLIOutput.usageError("index needs --db FILE --fold TABLE.COLUMN [--options c|d|cd]", command: "index")
    }
    let parts = target.split(separator: ".", maxSplits: 1).map(String.init)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
      return CLIOutput.usageError("--fold takes TABLE.COLUMN, not '\(target)'", command: "index")
    }
    // sift_fold's second argument: 1 = [c], 2 = [d], 3 = [cd] (README, Indexes).
    let codes = ["c": 1, "d": 2, "cd": 3, "dc": 3]
    let optionText = parsed.value("--options") ?? "c"
    guard let code = codes[optionText] else {
      return CLIOutput.usageError("--options takes c, d or cd, not '\(optionText)'", command: "index")
    }
    do {
      let line = try createFoldIndex(path: path, table: parts[0], column: parts[1], code: code, options: optionText)
      print(line)
      return .success
    } catch {
      return CLIOutput.failed("index", error)
    }
  }

  /// Creates the index and returns what was done, one line; an index of that name already on
  /// the file is left as it is and said so.
  static func createFoldIndex(path: String, table: String, column: String, code: Int, options: String) throws -> String
  {
    func failure(_ s: String) -> CommandInputs.Failure { CommandInputs.Failure(description: s) }
    let file = (path as NSString).expandingTildeInPath
    let fm = FileManager.default
    guard fm.fileExists(atPath: file) else {
      throw failure("\(path) does not exist; sift index writes only an existing SQLite file")
    }
    guard fm.isWritableFile(atPath: file) else {
      throw failure("\(path) is read-only; sift index cannot create an index in it")
    }
    let db: SQLiteDatabase
    do { db = try SQLiteDatabase(path: file) } catch {
      throw failure("cannot open \(path): \(ExistingDatabase.message(of: error))")
    }
    do {
      guard !CoreDataStore.isStore(db) else {
        throw failure(
          "\(path) is a Core Data store; Core Data owns its indexes (declare them in the model), sift index refuses it")
      }
      let tables = try db.execute(
        SQLStatement(
          sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", bindings: [.text(table)]))
      guard !tables.isEmpty else {
        let all = try db.execute(
          SQLStatement(
            sql:
              "SELECT name FROM sqlite_master WHERE type = 'table'"
              + " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
          ))
        let names = all.compactMap { row -> String? in
          if case .text(let s)? = row.first { return s } else { return nil }
        }
        throw failure("\(path) has no table '\(table)' (tables: \(names.joined(separator: ", ")))")
      }
      let q = SQLiteDialect().quoteIdentifier
      let columns = try db.execute(SQLStatement(sql: "SELECT name FROM pragma_table_info(?)", bindings: [.text(table)]))
      let names = columns.compactMap { row -> String? in
        if case .text(let s)? = row.first { return s } else { return nil }
      }
      guard names.contains(column) else {
        throw failure("table '\(table)' has no column '\(column)' (columns: \(names.joined(separator: ", ")))")
      }
      let name = "\(table)_\(column)_sift_fold_\(options == "dc" ? "cd" : options)"
      let definition = "\(q(table)) (sift_fold(\(q(column)), \(code)))"
      let create = "CREATE INDEX \(q(name)) ON \(definition)"
      if let taken = try nameTaken(name, in: db) {
        guard taken.isSame(as: create) else {
          throw failure(
            "cannot create index \(q(name)) in \(path): the name is taken by \(taken.description); nothing written "
              + "(drop or rename that \(taken.type), then run sift index again)")
        }
        return "index \(q(name)) already exists in \(path); nothing written"
      }
      try db.executeTransaction([SQLStatement(sql: create)])
      return "created index \(q(name)) ON \(definition) in \(path)\n"
        + "note: every program that writes \(q(table)) now needs Sift's SQL functions on its connection"
        + " (SiftSQLite does this; sift setup-sql --dialect sqlite shows how)"
    } catch let e as CommandInputs.Failure {
      throw e
    } catch {
      throw failure("cannot create the index in \(path): \(ExistingDatabase.message(of: error))")
    }
  }

  /// What already holds a name in the file's schema (indexes, tables, views and triggers share
  /// one namespace, without regard to ASCII case).
  struct TakenName {
    var type: String
    var name: String
    var table: String
    var sql: String?

    /// E.g. `index "note_title_sift_fold_c" on table "note" (CREATE INDEX … ON "note" ("title"))`.
    var description: String {
      let q = SiftJSON.serialize
      var text = "\(type) \(q(.string(name)))"
      if type != "table" && type != "view" { text += " on table \(q(.string(table)))" }
      if let sql { text += " (\(sql.split(whereSeparator: \.isNewline).joined(separator: " ")))" }
      return text
    }

    /// True when it is the index `create` makes, up to case, quoting and spacing.
    func isSame(as create: String) -> Bool {
      func plain(_ s: String) -> String {
        String(s.lowercased().filter { !$0.isWhitespace && !"\"`[]".contains($0) })
      }
      return type == "index" && sql.map(plain) == plain(create)
    }
  }

  static func nameTaken(_ name: String, in db: SQLiteDatabase) throws -> TakenName? {
    let rows = try db.execute(
      SQLStatement(
        sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE lower(name) = lower(?)",
        bindings: [.text(name)]))
    guard let row = rows.first, row.count == 4 else { return nil }
    func text(_ v: SQLValue) -> String? {
      if case .text(let s) = v { return s }
      return nil
    }
    return TakenName(
      type: text(row[0]) ?? "object", name: text(row[1]) ?? name, table: text(row[2]) ?? "", sql: text(row[3]))
  }
}
