import SiftSyntax

/// One `SQLDataLoader.forEachRow` run: the plan and the keys handed out so far.
@usableFromInline
final class SQLLoadRun {
  var state: SQLDataLoader.State
  let root: Int
  /// The root entity's primary key when it is an integer (its largest value is found first,
  /// so records without one get keys above it).
  @usableFromInline let integerPrimaryKey: String?

  @usableFromInline
  init(loader: SQLDataLoader, entity name: String) throws(SiftError) {
    guard let e = loader.schema.entity(name) else {
      throw SQLDataLoader.error("entity '\(name)' not found in the schema")
    }
    let plan = SQLDataLoader.Plan(loader: loader)
    guard let root = plan.entityIndex[e.name] else {
      throw SQLDataLoader.error("entity '\(name)' not found in the schema")
    }
    self.root = root
    state = SQLDataLoader.State(plan: plan)
    integerPrimaryKey = e.primaryKeyAttribute.type == .integer ? e.primaryKey : nil
  }

  @usableFromInline
  func notePrimaryKey(_ v: SiftValue) {
    if case .int(let i) = v { state.note(root, i) }
  }

  @usableFromInline
  func insertRecord(
    _ i: Int, kind: String?, value: (String) -> SiftValue?, _ row: (_ table: Int, _ values: [SQLValue]) throws -> Void
  ) throws {
    _ = try state.insert(
      kind: kind, value: value, entity: root, index: i, parent: nil, depth: 0, path: { "record \(i)" }, row)
  }
}

/// A table the loader inserts rows into: its name, columns and parameterized INSERT.
public struct SQLLoadTable: Sendable, Hashable {
  /// Position in `SQLDataLoader.tables(for:)`.
  public let index: Int
  /// The table name (unquoted).
  public let name: String
  /// The columns each row gives values for, in order (unquoted).
  public let columns: [String]
  /// `INSERT INTO "t" ("a", "b") VALUES (?1, ?2)` in the loader's dialect.
  public let insertSQL: String
}

/// A record `SQLDataLoader` can read: an object answering keys, or a value that is not an
/// object (an error for the loader). `SiftValue` and `[String: SiftValue]` conform; other
/// record forms (SiftEvaluation's `SiftObject`) can conform without converting whole records.
///
/// ```swift
/// SiftValue.dictionary(["id": 1]).sqlLoadValue(forKey: "id")   // .int(1)
/// ```
public protocol SQLLoadRecord {
  /// nil for an object; else the kind of value this is (`SiftValue.kindName`), for the error.
  var sqlLoadKind: String? { get }
  /// The value under `key` (nil or `.null` when missing).
  func sqlLoadValue(forKey key: String) -> SiftValue?
}

extension SiftValue: SQLLoadRecord {
  /// nil for a dictionary, else `kindName`.
  public var sqlLoadKind: String? {
    if case .dictionary = self { return nil }
    return kindName
  }

  /// A dictionary's entry for `key`.
  public func sqlLoadValue(forKey key: String) -> SiftValue? {
    if case .dictionary(let d) = self { return d[key] }
    return nil
  }
}

extension Dictionary: SQLLoadRecord where Key == String, Value == SiftValue {
  /// Always nil: a dictionary is an object.
  public var sqlLoadKind: String? { nil }
  /// The entry for `key`.
  public func sqlLoadValue(forKey key: String) -> SiftValue? { self[key] }
}
