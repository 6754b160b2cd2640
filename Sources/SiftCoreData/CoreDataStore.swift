import Foundation
import SiftSQL
import SiftSyntax

/// A SQLite store Core Data wrote, opened on a caller's (read-only) connection, with the
/// `SQLSchema` to query it by: from the store's model when one is given, else inferred from the
/// store itself (Grammar/notes/coredata-mapping.md, section 6). Only reads: `Z_PRIMARYKEY`, the
/// catalog (`pragma_table_info`, `pragma_index_list`), never a row of an entity table. Core
/// Data stores are WAL-mode files, beside which even a read-only SQLite connection writes
/// `-wal`/`-shm`: open them with SiftSQLite's `SQLiteDatabase(untouched:)`.
///
/// ```swift
/// let db = try SQLiteDatabase(untouched: "Library.sqlite")
/// let store = try CoreDataStore(database: db, model: try CoreDataModel(contentsOf: modelURL))
/// let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: store.schema)
/// let request = try store.model.fetchRequest(named: "BooksByAuthor", substituting: ["AUTHOR": "Gaiman"])
/// let rows = try db.execute(try compiler.compile(request))
/// ```
public struct CoreDataStore {
  /// One row of `Z_PRIMARYKEY`: an entity's number, name and parent.
  public struct EntityRecord: Sendable, Hashable {
    /// `Z_ENT`: the number rows of this entity carry in their `Z_ENT` column.
    public var number: Int
    /// `Z_NAME`: the model's entity name.
    public var name: String
    /// `Z_SUPER`: the parent's number, 0 for a root entity.
    public var parent: Int
  }

  /// The connection (never written to).
  public let database: any SQLDatabase
  /// The store's entities (`Z_PRIMARYKEY`), by number; Core Data's own bookkeeping entities
  /// (numbers from 16000, persistent history) are left out.
  public let entityRecords: [EntityRecord]
  /// The model given, or the one inferred from the store (`isModelInferred`).
  public let model: CoreDataModel
  /// True when no model was given: keys are column names without the `Z`, lower-cased.
  public let isModelInferred: Bool
  /// The mapping of `model` onto this store's tables.
  public let mapping: CoreDataSQLMapping
  /// What was left out or assumed, one sentence each.
  public let warnings: [String]

  /// The schema to compile predicates and fetch requests with (layout `.existing`).
  public var schema: SQLSchema { mapping.schema }

  /// Reads the store's entities and maps `model` (or, without one, a model inferred from the
  /// store) onto its tables, checking that every table and column the schema names exists.
  ///
  /// ```swift
  /// let store = try CoreDataStore(database: try SQLiteDatabase(untouched: path))
  /// store.schema.entity("Book")?.attribute("createdat")?.column   // "ZCREATEDAT"
  /// ```
  /// - Parameters:
  ///   - database: the open store (`SQLiteDatabase(untouched:)` keeps it read-only).
  ///   - given: the model (`model:`), or nil to infer one from the store's own tables.
  ///   - label: how messages name the store (its path).
  /// - Throws: `SiftError` (stage `.model`, id `invalid-store`) when the database is not a Core
  ///   Data store or the model does not match it (an entity or column missing: usually another
  ///   model version).
  public init(database: any SQLDatabase, model given: CoreDataModel? = nil, label: String = "the store")
    throws(SiftError)
  {
    do { try self.init(opening: database, model: given, label: label) } catch { throw SiftError.model(error) }
  }

  init(opening database: any SQLDatabase, model given: CoreDataModel?, label: String) throws {
    self.database = database
    let catalog = try StoreCatalog(database: database, label: label)
    entityRecords = catalog.entities
    var warnings = catalog.warnings
    let model: CoreDataModel
    if let given {
      model = given
      warnings += given.warnings
      let names = Set(catalog.entities.map(\.name))
      for e in given.entities where !names.contains(e.name) {
        // A store of one configuration holds only its entities: name the ones that fit.
        let fitting = given.configurations.filter { c in c.entities.allSatisfy { names.contains($0) } }.map(\.name)
        let hint =
          fitting.isEmpty
          ? "" : "; or the configuration it holds (--configuration \(fitting.joined(separator: " or ")))"
        throw CoreDataStoreError(
          "\(label) has no entity '\(e.name)' in Z_PRIMARYKEY (model \(given.file)): the model does not describe this store; "
            + "pass the model version the store was written with (one .xcdatamodel folder of the bundle)\(hint)")
      }
      for r in catalog.entities where given.entity(r.name) == nil {
        warnings.append("entity \(r.name) (Z_ENT \(r.number)) is in the store but not in the model; left out")
      }
    } else {
      var inference = StoreModelInference(catalog: catalog)
      model = try inference.model()
      warnings += inference.warnings
    }
    self.model = model
    isModelInferred = given == nil
    let numbers = Dictionary(catalog.entities.map { ($0.name, $0.number) }, uniquingKeysWith: { a, _ in a })
    let known = numbers.filter { model.entity($0.key) != nil }
    let missingDerived = catalog.derivedWithoutColumn(model, entityNumbers: known)
    for m in missingDerived.sorted() {
      warnings.append("derived attribute \(m) has no column in \(label); left out (computed in memory only)")
    }
    var mapping: CoreDataSQLMapping
    do { mapping = try model.mapping(entityNumbers: known, leavingOut: missingDerived) } catch {
      throw SiftError.model(error)
    }
    if given == nil { mapping = catalog.joinTablesApplied(to: mapping) }
    try catalog.check(mapping, modelFile: given?.file)
    let (ordered, orderNotes) = catalog.orderColumnsChecked(mapping)
    mapping = ordered
    warnings += orderNotes
    warnings += mapping.unmapped
    self.mapping = mapping
    self.warnings = warnings
  }

  /// True when `database` looks like a Core Data store: it has the `Z_PRIMARYKEY` and
  /// `Z_METADATA` tables every Core Data SQLite store has.
  ///
  /// ```swift
  /// CoreDataStore.isStore(try SQLiteDatabase(readOnly: "notes.sqlite"))   // false
  /// ```
  public static func isStore(_ database: any SQLDatabase) -> Bool {
    let rows = try? database.execute(
      SQLStatement(
        sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)",
        bindings: [.text("Z_PRIMARYKEY"), .text("Z_METADATA")]))
    if case .integer(2)? = rows?.first?.first { return true }
    return false
  }

  /// The schema for a model file and/or an open store: the store's own numbers and tables
  /// when a store is given, the model's names when a model is given.
  ///
  /// ```swift
  /// let schema = try CoreDataStore.schema(model: URL(fileURLWithPath: "Library.xcdatamodeld"), store: nil)
  /// ```
  /// - Throws: `SiftError` (stage `.model`); when neither is given, id `invalid-store`.
  public static func schema(model url: URL?, store database: (any SQLDatabase)?) throws(SiftError) -> SQLSchema {
    let model = try url.map { u throws(SiftError) in try CoreDataModel(contentsOf: u) }
    if let database { return try CoreDataStore(database: database, model: model).schema }
    guard let model else {
      throw SiftError.model(CoreDataStoreError("a Core Data schema needs a model, a store, or both"))
    }
    return try model.sqlSchema()
  }
}

/// A store Sift cannot use: not a Core Data store, unreadable bookkeeping tables, or a model
/// that does not describe it. The message names the store (and the model file).
///
/// ```swift
/// do { _ = try CoreDataStore(database: db, model: model, label: "Library.sqlite") } catch {
///   print(error)   // Library.sqlite: table ZITEM has no column ZISBN for Book.isbn …
/// }
/// ```
public struct CoreDataStoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong, naming the store.
  public var message: String
  /// Creates an error.
  public init(_ message: String) { self.message = message }
  /// The message.
  public var description: String { message }
}
