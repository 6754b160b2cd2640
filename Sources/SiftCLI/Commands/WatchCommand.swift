import Foundation
import SiftCoreData
import SiftEvaluation
import SiftLive
import SiftLiveSQLite
import SiftSQL
import SiftSQLite
import SiftSyntax

/// `sift watch 'FORMAT' (--data FILE.json | --db FILE.sqlite --entity TABLE [--write]) [--sort 'key asc, …']
/// [--section KEYPATH] [--id KEY]`:
/// fetched results that stay current. Prints a snapshot, then answers each JSON Lines edit on
/// standard input with its change set (`WatchProtocol`; Grammar/notes/live.md).
enum WatchCommand: SiftSubcommand {
  static let name = "watch"
  static let options = CommandOptions(
    valued: Set(
      ["--data", "--sort", "--section", "--id", "--db", "--entity", "--dates", "--model", "--configuration"]
        + WatchPostgres.valued),
    switches: ["--write"])

  static let help = """
    sift watch 'FORMAT' --data FILE.json [--sort 'KEY asc, KEY desc'] [--section KEYPATH] [--id KEY] [--dates F]
    sift watch 'FORMAT' --db FILE.sqlite --entity ENTITY|TABLE [--model M [--configuration C]] [--write]
               [--sort …] [--section …] [--id COLUMN]
    sift watch 'FORMAT' --postgres CONNINFO [--pg-schema S] --entity TABLE [--mode poll|push [--slot N]] [--interval SECONDS]
               [--policy POLICY.json [--var NAME=JSON]] [--sort …] [--section …] [--id COLUMN]

    Fetched results that stay current (NSFetchedResultsController). Prints the records of FILE
    that match FORMAT, sorted and grouped into sections:
      {"snapshot": {"sections": [{"name": …, "ids": […]}]}}
    then reads one edit per line from standard input and answers each with the change set a
    table view would animate, and the new snapshot:
      {"insert": {RECORD}}   {"update": {"id": V, "set": {…}}}   {"delete": V}
      {"batch": [EDIT, …]}   (one transaction)
      → {"sections": {"deleted": [i…], "inserted": [i…]}, "deleted": [[s, r]…],
         "inserted": [[s, r]…], "moved": [[[s, r], [s, r]]…], "updated": [[s, r]…], "snapshot": {…}}
    Deleted, updated and moves' origins are old index paths; inserted and moves' destinations
    new ones. A bad edit is answered {"error": {"message": …, "line": N}} and changes nothing.

      --data FILE                  the records (JSON array or JSON Lines), held in memory
      --dates F                    which values are dates, as for 'sift eval' (with --data)
      --sort 'K asc, K2 desc [c]'  sort descriptors (as .sort in the REPL); ties keep file order
      --section KEYPATH            one section per value of KEYPATH (ordered by it)
      --id KEY                     the records' id key (default id; with --db the primary key)
      --db FILE                    watch a table of an SQLite file instead; commits by other
                                   connections are printed as they happen, as {"external": true, …}
      --entity TABLE               with --db: the table, or an entity name (of the schema read
                                   from FILE, of a Core Data store's model, or --model M), which
                                   names attributes and to-one key paths as sift batch --db does
      --model M                    with --db on a Core Data store: its .xcdatamodeld
      --configuration C            with --model: only configuration C's entities
      --write                      with --db: write the edits to the database (else refused)
      --postgres CONNINFO          watch a PostgreSQL table or view instead, read-only (a role with
                                   SELECT is enough; nothing is created): commits are printed as
                                   {"external": true, …} lines; input lines are answered with an error
      --pg-schema S                with --postgres: the schema of the table (default public)
      --mode poll|push             with --postgres: how commits are noticed; poll (the default)
                                   compares pg_current_snapshot() every --interval and re-runs the
                                   fetch when it changed (a role with SELECT only is enough); push
                                   streams each commit from the replication slot and publication
                                   'sift setup-sql --live' made (tables only; wal_level = logical)
      --slot NAME                  with --mode push: the slot and publication (default sift_live)
      --interval SECONDS           with --postgres: seconds between looks (default 0.25)
      --policy POLICY.json         with --postgres: FORMAT is a client's filter, checked and narrowed
                                   by the policy (as sift check and sift batch --policy)
      --var NAME=JSON              with --policy: a server variable the policy's require uses

    EXAMPLE
      echo '{"update": {"id": 2, "set": {"rating": 1}}}' |
        sift watch 'rating > 0' --data venues.json --sort 'rating desc' --section city
    """

  /// Where the records live: a JSON file (in memory) or an SQLite table.
  enum Source {
    case memory(WatchProtocol.Live)
    case sqlite(SQLiteLiveTable, writable: Bool)

    var live: WatchProtocol.Live {
      switch self {
      case .memory(let l): return l
      case .sqlite(let t, _): return t.results
      }
    }
  }

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: "watch")
    }
    guard parsed.positionals.count == 1, let format = parsed.positionals.first else {
      return CLIOutput.usageError("watch takes exactly one format string", command: "watch")
    }
    if parsed.value("--postgres") != nil { return WatchPostgres.run(format, parsed) }
    for o in WatchPostgres.valued where parsed.value(o) != nil {
      return CLIOutput.usageError("\(o) goes with --postgres CONNINFO", command: "watch")
    }
    let dataPath = parsed.value("--data"), dbPath = parsed.value("--db")
    guard (dataPath == nil) != (dbPath == nil) else {
      return CLIOutput.usageError("watch needs --data FILE.json or --db FILE.sqlite --entity TABLE", command: "watch")
    }
    if dbPath != nil, parsed.value("--entity") == nil {
      return CLIOutput.usageError("watch --db needs --entity TABLE", command: "watch")
    }
    if dbPath == nil, parsed.flags.contains("--write") || parsed.value("--entity") != nil {
      return CLIOutput.usageError("--entity and --write go with --db FILE.sqlite", command: "watch")
    }
    let source: Source
    do {
      let predicate = try SiftPredicate(format: format)
      for w in predicate.warnings { CLIOutput.error(SiftDiagnosticRenderer().render(w, in: format)) }
      let sorts = try parsed.value("--sort").map { try SiftSortDescriptor.parseList($0) } ?? []
      if let dataPath {
        source = .memory(
          try memory(
            dataPath, idKey: parsed.value("--id") ?? "id", predicate: predicate, sorts: sorts,
            section: parsed.value("--section"), dates: CommandInputs.dates(parsed.all("--dates"))))
      } else if let dbPath, let entity = parsed.value("--entity") {
        let writable = parsed.flags.contains("--write")
        source = .sqlite(
          try sqlite(
            dbPath, entity: entity, model: parsed.value("--model"), configuration: parsed.value("--configuration"),
            writable: writable, key: parsed.value("--id"),
            predicate: predicate, sorts: sorts, section: parsed.value("--section")),
          writable: writable)
      } else {
        return .usage
      }
    } catch let e as SiftError {
      CLIOutput.error(CLIOutput.render(e))
      return .failure
    } catch {
      return CLIOutput.failed("watch", error)
    }
    let idKey: String
    switch source {
    case .memory: idKey = parsed.value("--id") ?? "id"
    case .sqlite(let t, _): idKey = t.key
    }
    emit(#"{"snapshot": "# + WatchProtocol.snapshot(source.live) + "}")
    var input = WatchInput()
    var line = 0
    var wait: Int32? = nil
    if case .sqlite = source { wait = 250 }
    var unreadable: String?
    while true {
      switch input.next(waitMilliseconds: wait) {
      case .end: return .success
      case .idle: reportExternal(source, line: line, unreadable: &unreadable)
      case .line(let text):
        line += 1
        if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
        reportExternal(source, line: line, unreadable: &unreadable)
        if let unreadable {
          emit(WatchProtocol.error("edit not applied: \(unreadable)", line: line))
          continue
        }
        emit(answer(text, line: line, idKey: idKey, source: source))
      }
    }
  }

  /// Prints what other connections committed since the last look (SQLite only). A failed
  /// re-read (another program renamed or dropped a watched column, say) is reported once and
  /// kept in `unreadable`: edits are refused until a full re-read succeeds (the next looks keep
  /// trying), which clears it.
  static func reportExternal(_ source: Source, line: Int, unreadable: inout String?) {
    guard case .sqlite(let table, _) = source else { return }
    do {
      if let cs = try table.refresh(), !cs.isEmpty { emit(WatchProtocol.answer(cs, table.results, external: true)) }
      unreadable = nil
    } catch {
      guard unreadable == nil else { return }
      let why =
        "\(table.table) cannot be read again since another program changed it (\(error)); edits are refused until "
        + "it can be: undo that change (the watch resumes on its own), or restart sift watch to follow the table as it is now"
      unreadable = why
      emit(WatchProtocol.error(why, line: line))
    }
  }

  static func memory(
    _ path: String, idKey: String, predicate: SiftPredicate, sorts: [SiftSortDescriptor], section: String?,
    dates: SiftJSONDates
  ) throws -> WatchProtocol.Live {
    let data = try CommandInputs.data(path, dates: dates)
    var records: [[String: SiftValue]] = []
    var ids: [SiftValue] = []
    for (i, v) in data.values.enumerated() {
      guard case .dictionary(let d) = v else {
        throw CommandInputs.Failure(description: "\(path): record \(i) is \(v.kindName), not an object")
      }
      guard let id = d[idKey], id != .null else {
        throw CommandInputs.Failure(
          description: "\(path): record \(i) has no '\(idKey)' (name the id key with --id KEY)")
      }
      records.append(d)
      ids.append(id)
    }
    return try WatchProtocol.Live(
      records: records, ids: ids, predicate: predicate, sortDescriptors: sorts, sectionKeyPath: section)
  }

  /// Opens the table: read-only unless `--write` (then the file must exist: watch never creates one).
  static func sqlite(
    _ path: String, entity: String, model: String? = nil, configuration: String? = nil, writable: Bool, key: String?,
    predicate: SiftPredicate,
    sorts: [SiftSortDescriptor], section: String?
  ) throws -> SQLiteLiveTable {
    let db: SQLiteDatabase
    do {
      if writable {
        guard FileManager.default.fileExists(atPath: path) else {
          throw CommandInputs.Failure(description: "cannot open \(path): no such file")
        }
        db = try SQLiteDatabase(path: path)
        // A lock another program holds is waited for, as a read-only open waits (its busy
        // timeout), and then named: never SQLite's "database is locked" under Sift's own SQL.
        db.waitWhenLocked(milliseconds: SQLiteDatabase.defaultBusyTimeout)
      } else {
        // Watching must see other programs' commits, so it cannot read a private copy (as
        // `sift --db` does); reading the live file would create -wal/-shm beside it.
        guard !SQLiteDatabase.readingCreatesFiles(beside: path) else {
          throw CommandInputs.Failure(
            description:
              "\(path) is a WAL-mode database no other program has open: watching it read-only would create \(path)-wal and -shm beside it; pass --write to allow that (edits are then written too), or query it with sift --db"
          )
        }
        db = try SQLiteDatabase(readOnly: path)
      }
    } catch let error as SiftError {
      throw CommandInputs.Failure(description: error.diagnostic.message)  // one line naming the file
    }
    do {
      let shape = try self.shape(of: entity, in: db, model: model, configuration: configuration)
      return try SQLiteLiveTable(
        database: db, table: shape?.table ?? entity, key: key, predicate: predicate, sortDescriptors: sorts,
        sectionKeyPath: section, shape: shape)
    } catch let error as SiftError where error.id == DiagnosticID.sqliteLocked.rawValue {
      throw CommandInputs.Failure(description: error.diagnostic.message)  // names the file and the lock
    } catch {
      throw CommandInputs.Failure(description: "\(path): \(error)")
    }
  }

  /// `entity` as `sift batch --db` reads it: an entity of the store's model (a Core Data store, or
  /// `--model`) or of the introspected schema, with attribute names and to-one key paths; nil for
  /// a table no entity names (its rows by column, as before).
  static func shape(of entity: String, in db: SQLiteDatabase, model: String?, configuration: String? = nil) throws
    -> SQLiteLiveShape?
  {
    let schema: SQLSchema
    if model != nil || CoreDataStore.isStore(db) {
      let loaded = try model.map { p throws in try ExistingDatabase.loadModel(p, configuration: configuration) }
      schema = try CoreDataStore(database: db, model: loaded).schema
    } else {
      schema = try db.introspectSchema(sampleLimit: 100).schema
    }
    guard schema.entity(entity) != nil else { return nil }
    return try SQLiteLiveShape(schema: schema, entity: entity)
  }

  /// The answer to one input line: a change set, or an error that changed nothing.
  static func answer(_ text: String, line: Int, idKey: String, source: Source) -> String {
    do {
      let value: SiftValue
      do { value = try SiftJSON.parse(text) } catch { throw WatchProtocol.Failure(message: "invalid JSON: \(error)") }
      let edits = try WatchProtocol.edits(value, idKey: idKey)
      switch source {
      case .memory(let live):
        return WatchProtocol.answer(try WatchProtocol.apply(edits, idKey: idKey, to: live), live)
      case .sqlite(let table, let writable):
        guard writable else {
          throw WatchProtocol.Failure(message: "the database is open read-only; pass --write to write edits to it")
        }
        return WatchProtocol.answer(try table.write(edits), table.results)
      }
    } catch let e as WatchProtocol.Failure {
      return WatchProtocol.error(e.message, line: line)
    } catch {
      return WatchProtocol.error("\(error)", line: line)
    }
  }

  static func emit(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }
}
