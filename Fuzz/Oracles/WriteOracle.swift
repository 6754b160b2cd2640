import Foundation
import SiftLive
import SiftLiveSQLite
import SiftSQL
import SiftSQLite
import SiftSyntax

/// The write oracle: bytes read as batches of edits, each written through a live table
/// (`SQLiteLiveTable.write`, what `sift watch --write` and the REPL's edits run) to a database
/// Sift did not create, whose tables declare foreign keys (CASCADE, RESTRICT, NO ACTION and a
/// deferred one). A plain model of the rows and of SQLite's foreign-key rules decides each
/// batch too. After every batch: both took it or both refused it; `PRAGMA foreign_key_check`
/// is clean; each live table's records (memory) equal its rows (SQL) and the model's; a write's
/// own table reports nothing at its next `refresh()` (a refused write is nobody's change); and
/// every date is stored in the column's own spelling (`'yyyy-MM-dd HH:mm:ss.SSS'`).
///
/// ```swift
/// WriteOracle.check(Array("\u{82}\u{3}\u{0}\u{0}".utf8))   // nil: shop 4's delete refused by both
/// ```
public enum WriteOracle {
  /// The database, written as another program would.
  public static let script = """
    CREATE TABLE shop (id INTEGER PRIMARY KEY, name TEXT, rating INTEGER, opened DATETIME);
    CREATE TABLE item (id INTEGER PRIMARY KEY, shop_id INTEGER REFERENCES shop(id) ON DELETE CASCADE, qty INTEGER);
    CREATE TABLE lease (id INTEGER PRIMARY KEY, shop_id INTEGER NOT NULL REFERENCES shop(id) ON DELETE RESTRICT);
    CREATE TABLE note (id INTEGER PRIMARY KEY, shop_id INTEGER NOT NULL REFERENCES shop(id));
    CREATE TABLE audit (id INTEGER PRIMARY KEY,
                        shop_id INTEGER NOT NULL REFERENCES shop(id) DEFERRABLE INITIALLY DEFERRED);
    INSERT INTO shop VALUES (1, 'a', 3, '2024-01-01 00:00:30.000'), (2, 'b', 1, '2024-01-02 10:00:00.500'),
      (3, 'c', 5, '2024-01-03 00:00:00.000'), (4, 'd', 2, '2024-01-04 00:00:00.000'),
      (5, 'e', 4, '2024-01-05 00:00:00.000');
    INSERT INTO item VALUES (10, 1, 1), (11, 1, 2), (12, 2, 3), (13, NULL, 4);
    INSERT INTO lease VALUES (1, 3);
    INSERT INTO note VALUES (1, 5);
    INSERT INTO audit VALUES (1, 4);
    """

  /// The rows the script inserts, as the model holds them.
  static let shops: [Int64: [String: SiftValue]] = [
    1: shop(1, "a", 3, 1_704_067_230), 2: shop(2, "b", 1, 1_704_189_600.5), 3: shop(3, "c", 5, 1_704_240_000),
    4: shop(4, "d", 2, 1_704_326_400), 5: shop(5, "e", 4, 1_704_412_800),
  ]
  static let items: [Int64: [String: SiftValue]] = [
    10: item(10, 1, 1), 11: item(11, 1, 2), 12: item(12, 2, 3), 13: item(13, nil, 4),
  ]
  /// Parents no delete may remove: RESTRICT (lease), NO ACTION (note), both checked at once.
  static let pinned: Set<Int64> = [3, 5]
  /// The parent the deferred key (audit) needs at COMMIT.
  static let deferredParent: Int64 = 4
  static let shopIDs: [Int64] = Array(1...7)
  static let itemIDs: [Int64] = Array(10...16)

  static func shop(_ id: Int64, _ name: String, _ rating: Int64, _ seconds: Double) -> [String: SiftValue] {
    [
      "id": .int(id), "name": .string(name), "rating": .int(rating),
      "opened": .date(Date(timeIntervalSince1970: seconds)),
    ]
  }

  static func item(_ id: Int64, _ shop: Int64?, _ qty: Int64) -> [String: SiftValue] {
    ["id": .int(id), "shop_id": shop.map(SiftValue.int) ?? .null, "qty": .int(qty)]
  }

  /// One batch: which table, and its edits.
  struct Batch {
    var onShops: Bool
    var edits: [SQLiteLiveTable.Edit] = []
  }

  /// Four bytes an edit: `b0` (bit 7: the batch ends here; bit 5 of a batch's first edit: the
  /// item table; bits 0–1: insert, update, delete, update to NULLs), the id, two values.
  static func batches(_ bytes: [UInt8]) -> [Batch] {
    var out: [Batch] = []
    var current: Batch?
    var i = 0
    while i + 4 <= min(bytes.count, 256) {
      let (b0, b1, b2, b3) = (bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3])
      i += 4
      var batch = current ?? Batch(onShops: b0 & 0x20 == 0)
      let ids = batch.onShops ? shopIDs : itemIDs
      let id = SiftValue.int(ids[Int(b1) % ids.count])
      var record: [String: SiftValue]
      if batch.onShops {
        let seconds = 1_704_067_200 + Double(b3) * 3_600 + (b3 & 1 == 1 ? 0.25 : 0)
        record = [
          "name": .string(["a", "b", ""][Int(b2) % 3]), "rating": .int(Int64(b2 >> 2) % 6),
          "opened": .date(Date(timeIntervalSince1970: seconds)),
        ]
      } else {
        record = ["shop_id": b2 % 8 == 0 ? .null : .int(Int64(b2 % 8)), "qty": .int(Int64(b3))]
      }
      switch b0 & 3 {
      case 0:
        record["id"] = id
        batch.edits.append(.insert(record))
      case 1: batch.edits.append(.update(id, set: record))
      case 2: batch.edits.append(.delete(id))
      default: batch.edits.append(.update(id, set: record.mapValues { _ in .null }))
      }
      if b0 & 0x80 != 0 {
        out.append(batch)
        current = nil
      } else {
        current = batch
      }
    }
    if let current { out.append(current) }
    return out
  }

  /// Nil when the oracle holds for `bytes`.
  public static func check(_ bytes: [UInt8]) -> FuzzFailure? {
    let input = bytes.map { String(format: "%02x", $0) }.joined()
    func fail(_ message: String) -> FuzzFailure { FuzzFailure(oracle: "write", message: message, input: input) }
    let db: SQLiteDatabase
    let shopTable: SQLiteLiveTable
    let itemTable: SQLiteLiveTable
    do {
      db = try SQLiteDatabase()
      try db.executeScript(script)
      shopTable = try SQLiteLiveTable(
        database: db, table: "shop", predicate: try SiftPredicate(format: "rating > 2"),
        sortDescriptors: [SiftSortDescriptor("rating", ascending: false)])
      itemTable = try SQLiteLiveTable(database: db, table: "item", predicate: nil, sortDescriptors: [])
    } catch {
      return fail("setup: \(error)")
    }
    var model = Model(shops: shops, items: items)
    for (n, batch) in batches(bytes).enumerated() {
      let table = batch.onShops ? shopTable : itemTable
      let expected = model.applying(batch)
      var refusal: String?
      do { _ = try table.write(batch.edits) } catch { refusal = "\(error.id): \(error.diagnostic.message)" }
      if (expected == nil) != (refusal != nil) {
        return fail("batch \(n): the model \(expected == nil ? "refused" : "took") it, SQLite \(refusal ?? "took it")")
      }
      if let expected { model = expected }
      if let why = consistency(db, shopTable, itemTable, model, writer: table) { return fail("batch \(n): \(why)") }
    }
    return nil
  }

  /// What is wrong after a batch, or nil.
  static func consistency(
    _ db: SQLiteDatabase, _ shopTable: SQLiteLiveTable, _ itemTable: SQLiteLiveTable, _ model: Model,
    writer: SQLiteLiveTable
  ) -> String? {
    do {
      let violations = try db.execute(SQLStatement(sql: "PRAGMA foreign_key_check"))
      guard violations.isEmpty else { return "foreign_key_check: \(violations)" }
      let shopRows = try db.execute(SQLStatement(sql: "SELECT id, name, rating, opened FROM shop"))
      var sqlShops: [Int64: [String: SiftValue]] = [:]
      for r in shopRows {
        guard case .integer(let id) = r[0] else { return "shop row without id: \(r)" }
        var opened = SiftValue.null
        if r[3] != .null {
          guard case .text(let text) = r[3], text.utf8.count == 23, Array(text.utf8)[10] == 0x20,
            let date = SQLDateEncoding.sqliteDateTime.date(from: r[3])
          else { return "shop \(id): opened \(r[3]) is not in the column's spelling yyyy-MM-dd HH:mm:ss.SSS" }
          opened = .date(date)
        }
        sqlShops[id] = [
          "id": .int(id), "name": SQLColumnCodec.plain(r[1]), "rating": SQLColumnCodec.plain(r[2]), "opened": opened,
        ]
      }
      var sqlItems: [Int64: [String: SiftValue]] = [:]
      for r in try db.execute(SQLStatement(sql: "SELECT id, shop_id, qty FROM item")) {
        guard case .integer(let id) = r[0] else { return "item row without id: \(r)" }
        sqlItems[id] = ["id": .int(id), "shop_id": SQLColumnCodec.plain(r[1]), "qty": SQLColumnCodec.plain(r[2])]
      }
      if sqlShops != model.shops { return "shops: SQL \(sqlShops), model \(model.shops)" }
      if sqlItems != model.items { return "items: SQL \(sqlItems), model \(model.items)" }
      func shown(_ r: [String: SiftValue]?) -> String { r.map { "\($0)" } ?? "none" }
      func differs(_ table: SQLiteLiveTable, _ ids: Set<Int64>, _ sql: [Int64: [String: SiftValue]]) -> String? {
        for id in ids.sorted() where table.results.record(for: .int(id)) != sql[id] {
          return "\(table.table) \(id): memory \(shown(table.results.record(for: .int(id)))), SQL \(shown(sql[id]))"
        }
        return nil
      }
      let allShops = Set(shopIDs).union(shops.keys)
      let allItems = Set(itemIDs).union(items.keys)
      // The written table is current at once, whether its write was taken or rolled back; the
      // other catches up (cascades) at its refresh. The written one then has nothing to report.
      if let why = differs(
        writer, writer === shopTable ? allShops : allItems, writer === shopTable ? sqlShops : sqlItems)
      {
        return "right after the write: \(why)"
      }
      if let echo = try writer.refresh(), !echo.isEmpty { return "the write's own table reported \(echo)" }
      _ = try shopTable.refresh()
      _ = try itemTable.refresh()
      if let why = differs(shopTable, allShops, sqlShops) ?? differs(itemTable, allItems, sqlItems) { return why }
      let matching = Set(sqlShops.values.filter { (Model.key($0["rating"]) ?? 0) > 2 }.compactMap { $0["id"] })
      if Set(shopTable.results.ids) != matching || shopTable.results.ids.count != matching.count {
        return "matching shops: memory \(shopTable.results.ids), SQL \(matching)"
      }
      return nil
    } catch {
      return "reading back: \(error)"
    }
  }
}
