import Foundation
import SiftLive
import SiftLivePostgres
import SiftLiveSQLite
import SiftSyntax

/// `.watch`, `.insert`, `.update`, `.delete`: live results over the current entity, printing
/// each change set as a table view's `NSFetchedResultsControllerDelegate` receives it. The
/// watch holds its own copy of the records: edits change it, not the entity.
final class REPLWatch {
  let live: SiftLiveResults<SiftValue, [String: SiftValue]>
  let idKey: String
  let entity: String
  /// The live table when a database table is watched (`REPLSession+DatabaseWatch.swift`).
  let table: SQLiteLiveTable?
  /// True when edits are written to that table (`sift --db FILE --write`).
  let writable: Bool
  /// The live hub when a PostgreSQL table is watched (read-only; `REPLSession+DatabaseWatch.swift`).
  var hub: PostgresLiveHub?

  init(
    live: SiftLiveResults<SiftValue, [String: SiftValue]>, idKey: String, entity: String, table: SQLiteLiveTable? = nil,
    writable: Bool = false
  ) {
    self.live = live
    self.idKey = idKey
    self.entity = entity
    self.table = table
    self.writable = writable
  }
}

extension REPLSession {
  /// `.watch [PREDICATE] [--section KEYPATH] [--id KEY]`, `.watch` (show), `.watch off`.
  func watch(_ arg: String) -> REPLResponse {
    if arg.lowercased() == "off" {
      watching = nil
      return .ok("not watching\n")
    }
    if arg.isEmpty, let w = watching { return .ok(externalChanges(w) + sectionSummary(w)) }
    var text = arg
    func option(_ name: String) -> String? {
      guard let r = text.range(of: " " + name + " ") ?? (text.hasPrefix(name + " ") ? text.range(of: name + " ") : nil)
      else { return nil }
      let rest = text[r.upperBound...].trimmingCharacters(in: .whitespaces)
      let value = String(rest.prefix { !$0.isWhitespace })
      text = String(text[..<r.lowerBound]) + " " + String(rest.dropFirst(value.count))
      return value
    }
    let section = option("--section")
    let idOption = option("--id")
    let idKey = idOption ?? "id"
    text = text.trimmingCharacters(in: .whitespaces)
    if let db = sql.existing, let e = databaseEntity {
      return watchTable(text, section: section, idKey: idOption, e, db)
    }
    guard let set = current else { return .failure(errorLine(".watch works on in-memory entities (.use one)")) }
    let format = text.isEmpty ? (lastPredicate ?? "TRUEPREDICATE") : text
    let predicate: SiftPredicate
    switch prepare(format) {
    case .success(let p): predicate = p
    case .failure(let e): return .failure(render(e))
    }
    var records: [[String: SiftValue]] = []
    var ids: [SiftValue] = []
    for (i, v) in set.records.enumerated() {
      guard case .dictionary(let d) = v, let id = d[idKey], id != .null else {
        return .failure(errorLine("record \(i) of \(set.name) has no '\(idKey)' (name the id key with --id KEY)"))
      }
      records.append(d)
      ids.append(id)
    }
    do {
      let live = try SiftLiveResults(
        records: records, ids: ids, predicate: predicate, sortDescriptors: sort, sectionKeyPath: section,
        variables: variables)
      let w = REPLWatch(live: live, idKey: idKey, entity: set.name)
      watching = w
      var out = "watching \(set.name) where \(predicate.predicateFormat)"
      if !sort.isEmpty { out += ", sorted by " + sort.map(\.description).joined(separator: ", ") }
      if let section { out += ", sections by \(section)" }
      return .ok(out + "\n" + sectionSummary(w))
    } catch {
      return .failure(errorLine(error.message))
    }
  }

  /// `.insert {RECORD}`
  func watchInsert(_ arg: String) -> REPLResponse {
    watchEdit { w in
      guard case .dictionary(let r) = try SiftJSON.parse(arg) else {
        throw SiftError.live("insert takes a JSON object")
      }
      return .insert(r)
    }
  }

  /// `.update ID {"key": JSON, …}`
  func watchUpdate(_ arg: String) -> REPLResponse {
    watchEdit { w in
      let (id, rest) = try Self.leadingJSON(arg)
      guard case .dictionary(let changes) = try SiftJSON.parse(rest) else {
        throw SiftError.live(#"update takes ID {"key": JSON, …}"#)
      }
      if let newID = changes[w.idKey], newID != id { throw SiftError.live("update cannot change '\(w.idKey)'") }
      return .update(id, set: changes)
    }
  }

  /// `.delete ID`
  func watchDelete(_ arg: String) -> REPLResponse {
    watchEdit { _ in .delete(try SiftJSON.parse(arg)) }
  }

  /// Applies one edit to the watched results: in memory to the watch's own copy, on a
  /// database table written in one transaction (only when the session may write).
  func watchEdit(_ parse: (REPLWatch) throws -> SQLiteLiveTable.Edit) -> REPLResponse {
    guard let w = watching else {
      if let db = sql.existing, let e = databaseEntity, let why = watchRefusal(e, db) {
        return .refusal(errorLine(why))
      }
      return .failure(errorLine("nothing is watched; start with .watch [PREDICATE]"))
    }
    if w.hub != nil {
      return .refusal(
        errorLine(
          "\(w.entity) is watched read-only on PostgreSQL: .watch shows other programs' commits; edits are not written")
      )
    }
    if let table = w.table {
      guard w.writable else {
        return .refusal(
          errorLine(
            "\(table.table) is watched read-only: start the REPL with sift --db FILE --write to write edits to the database (as sift watch --write does)"
          ))
      }
      do {
        let edit = try parse(w)
        let external = externalChanges(w)
        let before = w.live.sections
        let changes = try table.write([edit])
        return .ok(external + delegateCalls(changes, before: before, after: w.live.sections) + sectionSummary(w))
      } catch {
        return .failure(errorLine("\(error)"))
      }
    }
    do {
      let edit = try parse(w)
      let before = w.live.sections
      let changes = try w.live.perform { tx in
        switch edit {
        case .insert(let r): try tx.insert(r, id: r[w.idKey] ?? .null)
        case .update(let id, let set): try tx.update(id) { r in for (k, v) in set { r[k] = v } }
        case .delete(let id): try tx.delete(id)
        }
      }
      return .ok(delegateCalls(changes, before: before, after: w.live.sections) + sectionSummary(w))
    } catch {
      return .failure(errorLine("\(error)"))
    }
  }

  /// The delegate calls, in NSFetchedResultsController's order.
  func delegateCalls(
    _ cs: SiftChangeSet<SiftValue>, before: [SiftLiveSection<SiftValue>], after: [SiftLiveSection<SiftValue>]
  ) -> String {
    if cs.isEmpty { return "no changes\n" }
    func id(_ p: SiftIndexPath, _ s: [SiftLiveSection<SiftValue>]) -> String {
      s.indices.contains(p.section) && s[p.section].ids.indices.contains(p.item)
        ? SiftJSON.serialize(s[p.section].ids[p.item]) : "?"
    }
    func name(_ i: Int, _ s: [SiftLiveSection<SiftValue>]) -> String {
      s.indices.contains(i) ? " \"\(s[i].name)\"" : ""
    }
    var out = "controllerWillChangeContent\n"
    for i in cs.sectionDeletes { out += "  section \(i)\(name(i, before)): delete\n" }
    for i in cs.sectionInserts { out += "  section \(i)\(name(i, after)): insert\n" }
    for p in cs.deleted { out += "  object \(id(p, before)) at \(p): delete\n" }
    for p in cs.inserted { out += "  object \(id(p, after)) at new \(p): insert\n" }
    for m in cs.moved { out += "  object \(id(m.from, before)) at \(m.from) → \(m.to): move\n" }
    for p in cs.updated { out += "  object \(id(p, before)) at \(p): update\n" }
    return out + "controllerDidChangeContent\n"
  }

  /// `sections: "Oslo" [1, 2] · "Paris" [3]` (ids shortened past 8).
  func sectionSummary(_ w: REPLWatch) -> String {
    let parts = w.live.sections.map { s -> String in
      let shown = s.ids.prefix(8).map { SiftJSON.serialize($0) }.joined(separator: ", ")
      return "\"\(s.name)\" [\(shown)\(s.ids.count > 8 ? ", … \(s.ids.count) in all" : "")]"
    }
    return "\(w.live.count) of \(w.entity): " + parts.joined(separator: " · ") + "\n"
  }

  /// The first JSON value of `text` (a number, a quoted string, true/false/null) and the rest.
  static func leadingJSON(_ text: String) throws -> (SiftValue, String) {
    let t = text.trimmingCharacters(in: .whitespaces)
    var end = t.startIndex
    if t.first == "\"" {
      var i = t.index(after: t.startIndex)
      while i < t.endIndex, t[i] != "\"" {
        i = t[i] == "\\" ? t.index(i, offsetBy: 2, limitedBy: t.endIndex) ?? t.endIndex : t.index(after: i)
      }
      end = i < t.endIndex ? t.index(after: i) : t.endIndex
    } else {
      end = t.firstIndex { $0.isWhitespace || $0 == "{" } ?? t.endIndex
    }
    return (try SiftJSON.parse(String(t[..<end])), String(t[end...]))
  }
}
