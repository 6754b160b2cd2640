import SiftLive
import SiftLiveSQLite
import SiftSyntax

/// The JSON Lines contract of `sift watch`: edits in, change sets and snapshots out
/// (Grammar/notes/live.md). Only plumbing: the results and the change sets are SiftLive's.
enum WatchProtocol {
  typealias Live = SiftLiveResults<SiftValue, [String: SiftValue]>

  struct Failure: Error { var message: String }

  /// One input line's edits: `insert`, `update` and `delete`, or a `batch` of them.
  static func edits(_ edit: SiftValue, idKey: String, nested: Bool = false) throws(Failure) -> [SQLiteLiveTable.Edit] {
    guard case .dictionary(let d) = edit, d.count == 1, let (verb, body) = d.first else {
      throw Failure(message: "an edit is one object with one key: insert, update, delete or batch")
    }
    switch verb {
    case "insert":
      guard case .dictionary(let record) = body else { throw Failure(message: "insert takes a record object") }
      guard let id = record[idKey], id != .null else { throw Failure(message: "the inserted record has no '\(idKey)'") }
      return [.insert(record)]
    case "update":
      guard case .dictionary(let u) = body, let id = u["id"], case .dictionary(let changes)? = u["set"],
        Set(u.keys) == ["id", "set"]
      else { throw Failure(message: #"update takes {"id": V, "set": {…}}"#) }
      if let newID = changes[idKey], newID != id { throw Failure(message: "update cannot change '\(idKey)'") }
      return [.update(id, set: changes)]
    case "delete":
      return [.delete(body)]
    case "batch":
      guard !nested else { throw Failure(message: "a batch cannot hold a batch") }
      guard case .array(let items) = body else { throw Failure(message: "batch takes an array of edits") }
      var out: [SQLiteLiveTable.Edit] = []
      for e in items { out += try edits(e, idKey: idKey, nested: true) }
      return out
    default:
      throw Failure(message: "unknown edit '\(verb)'; use insert, update, delete or batch")
    }
  }

  /// Applies edits to in-memory live results as one transaction (`set` replaces keys).
  static func apply(_ edits: [SQLiteLiveTable.Edit], idKey: String, to live: Live) throws -> SiftChangeSet<SiftValue> {
    try live.perform { tx in
      for e in edits {
        switch e {
        case .insert(let r): try tx.insert(r, id: r[idKey] ?? .null)
        case .update(let id, let changes): try tx.update(id) { r in for (k, v) in changes { r[k] = v } }
        case .delete(let id): try tx.delete(id)
        }
      }
    }
  }

  /// `{"sections": [{"name": …, "ids": […]}, …]}`
  static func snapshot(_ live: Live) -> String {
    var out = #"{"sections": ["#
    for (i, s) in live.sections.enumerated() {
      if i > 0 { out += ", " }
      out += #"{"name": "#
      SiftJSON.writeString(s.name, into: &out)
      out += #", "ids": ["#
      out += s.ids.map { SiftJSON.serialize($0) }.joined(separator: ", ")
      out += "]}"
    }
    return out + "]}"
  }

  /// One answer line, keys in the contract's order (`external` first for changes committed by
  /// another connection).
  static func answer(_ cs: SiftChangeSet<SiftValue>, _ live: Live, external: Bool = false) -> String {
    func path(_ p: SiftIndexPath) -> String { "[\(p.section), \(p.item)]" }
    func paths(_ ps: [SiftIndexPath]) -> String { "[" + ps.map(path).joined(separator: ", ") + "]" }
    func ints(_ xs: [Int]) -> String { "[" + xs.map(String.init).joined(separator: ", ") + "]" }
    let moves = "[" + cs.moved.map { "[\(path($0.from)), \(path($0.to))]" }.joined(separator: ", ") + "]"
    return (external ? #"{"external": true, "# : "{") + #""sections": {"deleted": "# + ints(cs.sectionDeletes)
      + #", "inserted": "# + ints(cs.sectionInserts)
      + #"}, "deleted": "# + paths(cs.deleted) + #", "inserted": "# + paths(cs.inserted) + #", "moved": "# + moves
      + #", "updated": "# + paths(cs.updated) + #", "snapshot": "# + snapshot(live) + "}"
  }

  /// `{"error": {"message": …, "line": N}}`
  static func error(_ message: String, line: Int) -> String {
    var out = #"{"error": {"message": "#
    SiftJSON.writeString(message, into: &out)
    return out + #", "line": \#(line)}}"#
  }
}
