import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import SiftSyntax

/// `--db STORE.sqlite [--model MODEL.xcdatamodeld]` on a Core Data store: the schema comes from
/// SiftCoreData (`CoreDataStore`): the model's entities and keys when a model is given, else
/// the store's (entities from `Z_PRIMARYKEY`, keys from column names without `Z`,
/// lower-cased). A file with `Z_PRIMARYKEY` and `Z_METADATA` is taken for a store. `"rows"`
/// answers are `Z_PK` values; nothing is written.
extension ExistingDatabase {
  /// Reads a Core Data model file, bundle or `contents` XML, or fails naming it; with
  /// `configuration` (`--configuration NAME`), only that configuration's entities.
  static func loadModel(_ path: String, configuration: String? = nil) throws(Failure) -> CoreDataModel {
    let full = (path as NSString).expandingTildeInPath
    guard FileManager.default.fileExists(atPath: full) else {
      throw Failure("cannot read model \(path): no such file or folder")
    }
    do {
      let model = try CoreDataModel(contentsOf: URL(fileURLWithPath: full))
      return try configuration.map { c throws(SiftError) in try model.restricted(toConfiguration: c) } ?? model
    } catch {
      throw Failure(error.description)
    }
  }

  /// The database on a Core Data store opened read-only as `db`.
  static func openCoreData(
    _ db: SQLiteDatabase, label: String, model modelPath: String?, schemaFile: String?, configuration: String? = nil
  ) throws(Failure) -> ExistingDatabase {
    let model = try modelPath.map { p throws(Failure) in try loadModel(p, configuration: configuration) }
    guard CoreDataStore.isStore(db) else {
      throw Failure(
        "\(label) is not a Core Data store (no Z_PRIMARYKEY and Z_METADATA tables); --model goes with a store")
    }
    let store: CoreDataStore
    do {
      store = try CoreDataStore(database: db, model: model, label: label)
    } catch {
      throw Failure("\(error)")
    }
    let schema = try merge(store.schema, schemaFile: schemaFile)
    let warnings = store.warnings.map {
      SQLIntrospectionWarning(kind: .coreData, table: label, columns: [], message: $0)
    }
    let opened = ExistingDatabase(kind: .sqlite, database: db, schema: schema, warnings: warnings, label: label)
    opened.coreData = store
    return opened
  }
}
