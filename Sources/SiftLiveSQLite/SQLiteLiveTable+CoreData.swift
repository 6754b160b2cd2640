import SiftSQL
import SiftSQLite
import SiftSyntax

/// Writing a table of a Core Data store (Grammar/notes/coredata.md, "Writing a Core Data
/// store"): an update keeps Core Data's bookkeeping (`Z_OPT`, the row's version, goes up by
/// one); an insert (which needs `Z_PRIMARYKEY.Z_MAX` and the entity number `Z_ENT`) and a delete
/// (which needs the model's delete rules and join tables) are refused with an error saying so.
/// Values go through the column's codec, so a date is stored as seconds since 2001 and a
/// boolean as 0/1, as Core Data reads them.
extension SQLiteLiveTable {
  /// Core Data's own columns, never set by an edit.
  static let coreDataColumns: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]

  /// Whether `table` (with `columns`) is a Core Data store's entity table: it has `Z_PK`,
  /// `Z_ENT` and `Z_OPT`, and the database has `Z_PRIMARYKEY`.
  static func isCoreDataTable(_ db: SQLiteDatabase, columns: [String]) -> Bool {
    guard coreDataColumns.isSubset(of: Set(columns)) else { return false }
    let found = try? db.execute(
      SQLStatement(
        sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Z_PRIMARYKEY'"))
    return found?.isEmpty == false
  }

  /// Refuses an edit a Core Data table cannot take from Sift; nil when it can.
  func coreDataRefusal(_ edit: Edit) -> SiftError? {
    guard isCoreDataTable else { return nil }
    switch edit {
    case .insert:
      return SiftError.live(
        "\(table) is a Core Data store's table: a new row needs Core Data's bookkeeping (Z_PRIMARYKEY.Z_MAX, Z_ENT, "
          + "Z_OPT); insert it with Core Data. Nothing was written")
    case .delete:
      return SiftError.live(
        "\(table) is a Core Data store's table: deleting a row needs the model's delete rules and join tables; "
          + "delete it with Core Data. Nothing was written")
    case .update(_, let set):
      guard let own = set.keys.sorted().first(where: { Self.coreDataColumns.contains($0) }) else { return nil }
      return SiftError.live(
        "\(table).\(own) is Core Data's own bookkeeping and is not set by an edit; nothing was written")
    }
  }

  /// The SET term an update adds on a Core Data table.
  var bookkeepingSet: String { isCoreDataTable ? ", \"Z_OPT\" = COALESCE(\"Z_OPT\", 0) + 1" : "" }
}
