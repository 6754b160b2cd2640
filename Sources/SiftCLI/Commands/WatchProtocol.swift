import SiftLive
import SiftSyntax

/// The JSON Lines contract of `sift watch`: edits in, change sets and snapshots out
/// (Grammar/notes/live.md). Only plumbing: the results and the change sets are SiftLive's.
enum WatchProtocol {
  typealias Live = SiftLiveResults<SiftValue, [String: SiftValue]>
  typealias Transaction = SiftLiveTransaction<SiftValue, [String: SiftValue]>

  struct Failure: Error { var message: String }

  /// Reads one input line's edit (`insert`, `update`, `delete` or `batch`) into `tx`.
  static func apply(_ edit: SiftValue, idKey: String, to tx: inout Transaction, nested: Bool = false) throws {
    guard case .dictionary(let d) = edit, d.count == 1, let (verb, body) = d.first else {
      throw Failure(message: "an edit is one object with one key: insert, update, delete or batch")
    }
    switch verb {
    case "insert":
      guard case .dictionary(let record) = body else { throw Failure(message: "insert takes a record object") }
      guard let id = record[idKey], id != .null else { throw Failure(message: "the inserted record has no '\(idKey)'") }
      try tx.insert(record, id: id)
    case "update":
      guard case .dictionary(let u) = body, let id = u["id"], case .dictionary(let changes)? = u["set"],
        Set(u.keys) == ["id", "set"]
      else { throw Failure(message: #"update takes {"id": V, "set": {…}}"#) }
      if let newID = changes[idKey], newID != id { throw Failure(message: "update cannot change '\(idKey)'") }
      try tx.update(id) { record in
        for (k, v) in changes { record[k] = v }
      }
    case "delete":
      try tx.delete(body)
    case "batch":
      guard !nested else { throw Failure(message: "a batch cannot hold a batch") }
      guard case .array(let edits) = body else { throw Failure(message: "batch takes an array of edits") }
      for e in edits { try apply(e, idKey: idKey, to: &tx, nested: true) }
    default:
      throw Failure(message: "unknown edit '\(verb)'; use insert, update, delete or batch")
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

  /// One answer line, keys in the contract's order.
  static func answer(_ cs: SiftChangeSet<SiftValue>, _ live: Live) -> String {
    func path(_ p: SiftIndexPath) -> String { "[\(p.section), \(p.item)]" }
    func paths(_ ps: [SiftIndexPath]) -> String { "[" + ps.map(path).joined(separator: ", ") + "]" }
    func ints(_ xs: [Int]) -> String { "[" + xs.map(String.init).joined(separator: ", ") + "]" }
    let moves = "[" + cs.moved.map { "[\(path($0.from)), \(path($0.to))]" }.joined(separator: ", ") + "]"
    return #"{"sections": {"deleted": "# + ints(cs.sectionDeletes) + #", "inserted": "# + ints(cs.sectionInserts)
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
