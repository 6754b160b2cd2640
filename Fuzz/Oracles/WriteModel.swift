import SiftLiveSQLite
import SiftSyntax

extension WriteOracle {
  /// The write oracle's model: the shop and item rows, and what SQLite's foreign keys and the
  /// live table's own checks make of a batch, written plainly (no SQL, no live results).
  struct Model: Equatable {
    var shops: [Int64: [String: SiftValue]]
    var items: [Int64: [String: SiftValue]]

    /// The rows after `batch`, or nil when it is refused (then nothing of it is kept): an
    /// insert of an id there is, an update or delete of one there is not (as the batch's earlier
    /// edits leave them); a delete of a pinned parent (RESTRICT, NO ACTION: at once); an item
    /// whose shop is not there; the deferred key's parent missing at the end (COMMIT). A deleted
    /// shop's items go with it (CASCADE).
    func applying(_ batch: Batch) -> Model? {
      var m = self
      for edit in batch.edits {
        let ok = batch.onShops ? m.applyShop(edit) : m.applyItem(edit)
        guard ok else { return nil }
      }
      if batch.onShops, m.shops[WriteOracle.deferredParent] == nil { return nil }
      return m
    }

    static func key(_ v: SiftValue?) -> Int64? {
      if case .int(let i)? = v { return i }
      return nil
    }

    mutating func applyShop(_ edit: SQLiteLiveTable.Edit) -> Bool {
      switch edit {
      case .insert(let r):
        guard let id = Self.key(r["id"]), shops[id] == nil else { return false }
        shops[id] = r
      case .update(let idValue, let set):
        guard let id = Self.key(idValue), var r = shops[id] else { return false }
        for (k, v) in set { r[k] = v }
        shops[id] = r
      case .delete(let idValue):
        guard let id = Self.key(idValue), shops[id] != nil, !WriteOracle.pinned.contains(id) else { return false }
        shops[id] = nil
        items = items.filter { Self.key($0.value["shop_id"]) != id }
      }
      return true
    }

    mutating func applyItem(_ edit: SQLiteLiveTable.Edit) -> Bool {
      func parentThere(_ r: [String: SiftValue]) -> Bool {
        guard let shop = Self.key(r["shop_id"]) else { return true }  // NULL refers to nothing
        return shops[shop] != nil
      }
      switch edit {
      case .insert(let r):
        guard let id = Self.key(r["id"]), items[id] == nil, parentThere(r) else { return false }
        items[id] = r
      case .update(let idValue, let set):
        guard let id = Self.key(idValue), var r = items[id] else { return false }
        for (k, v) in set { r[k] = v }
        guard parentThere(r) else { return false }
        items[id] = r
      case .delete(let idValue):
        guard let id = Self.key(idValue), items[id] != nil else { return false }
        items[id] = nil
      }
      return true
    }
  }
}
