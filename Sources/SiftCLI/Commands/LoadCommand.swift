import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax

/// `sift load --data D.json --schema S.json --into NEW.sqlite [--entity NAME] [--replace]`:
/// copies JSON records into a new SQLite file that Sift creates with the schema's tables (Sift's
/// own layout). The only CLI command that writes a database. It refuses a file that exists
/// (`--replace` deletes and recreates it) and builds the database in a temporary file beside
/// the target, renamed into place only when every record is in: a failure leaves nothing, and
/// a later load of the same target removes what a killed one left (`LoadTemporaryFiles`).
enum LoadCommand: SiftSubcommand {
  static let name = "load"
  static let options = CommandOptions(
    valued: ["--data", "--schema", "--into", "--entity", "--dates"],
    switches: ["--replace"])
  static var help: String { HelpCommand.pages[name] ?? "" }

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: "load")
    }
    guard parsed.positionals.isEmpty, let dataPath = parsed.value("--data"), let schemaPath = parsed.value("--schema"),
      let target = parsed.value("--into")
    else {
      return CLIOutput.usageError("load needs --data D.json --schema S.json --into NEW.sqlite", command: "load")
    }
    do {
      let schema = try CommandInputs.schema(schemaPath)
      let entity = try entityName(parsed.value("--entity"), schema: schema, schemaPath: schemaPath)
      let data = try CommandInputs.data(dataPath, dates: CommandInputs.dates(parsed.all("--dates")))
      if let why = data.notRowsReason { throw CommandInputs.Failure(description: "\(dataPath): \(why)") }
      let count = try load(
        data.values, entity: entity, schema: schema, into: target, replace: parsed.flags.contains("--replace"))
      print("loaded \(count) records of '\(entity)' into \(target) (\(schema.entityNames.count) entities)")
      return .success
    } catch {
      return CLIOutput.failed("load", error)
    }
  }

  static func entityName(_ given: String?, schema: SQLSchema, schemaPath: String) throws -> String {
    if let given {
      guard schema.entity(given) != nil else {
        throw CommandInputs.Failure(
          description:
            "entity '\(given)' is not in \(schemaPath) (entities: \(schema.entityNames.joined(separator: ", ")))")
      }
      return given
    }
    guard schema.entityNames.count == 1, let only = schema.entityNames.first else {
      throw CommandInputs.Failure(
        description:
          "\(schemaPath) has \(schema.entityNames.count) entities; say which the records are with --entity NAME")
    }
    return only
  }

  /// Creates `path` (refusing an existing file unless `replace`) with the records in it.
  static func load(_ records: [SiftValue], entity: String, schema: SQLSchema, into path: String, replace: Bool) throws
    -> Int
  {
    let fm = FileManager.default
    let target = (path as NSString).expandingTildeInPath
    if fm.fileExists(atPath: target) && !replace {
      throw CommandInputs.Failure(
        description: "\(path) exists; sift load only writes a database it creates (--replace deletes and recreates it)")
    }
    // What killed loads of this target left (their process is gone), then this load's own
    // temporary file, removed on every way out.
    LoadTemporaryFiles.removeStale(of: target)
    let temporary = LoadTemporaryFiles.path(for: target)
    defer { LoadTemporaryFiles.remove(temporary) }
    do {
      let db = try SQLiteDatabase(path: temporary)
      try db.load(records, entity: entity, schema: schema, dialect: SQLiteDialect())
    } catch {
      throw CommandInputs.Failure(description: "cannot load into \(path): \(error.diagnostic.message)")
    }
    do {
      if replace && fm.fileExists(atPath: target) { try fm.removeItem(atPath: target) }
      try fm.moveItem(atPath: temporary, toPath: target)
    } catch {
      throw CommandInputs.Failure(description: "cannot create \(path): \(error.localizedDescription)")
    }
    return records.count
  }
}
