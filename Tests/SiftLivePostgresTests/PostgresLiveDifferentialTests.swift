import Foundation
import SiftLive
import SiftPostgres
import SiftSQL
import SiftSyntax
import Testing

@testable import SiftLivePostgres

/// Random commits from two sessions on a uniquely named table; after each commit every
/// watcher's change set, applied to its previous sections as a table view applies it, must
/// give what a fresh fetch gives (the table read again and fetched in memory: predicate, sort,
/// limit/offset, sections), and the watcher's own results must equal it too. Parameterised by
/// the change source: the push mode runs the same commits through `run(source:)`.
@Suite("PostgreSQL live: change sets equal refetch-and-diff")
struct PostgresLiveDifferentialTests {
  /// One watcher's fetch: predicate format and argument, sorts, section, window.
  struct Spec {
    var format: String?
    var argument: SiftValue = .null
    var sorts: [SiftSortDescriptor] = []
    var section: String?
    var limit: Int?
    var offset: Int?
  }

  static let specs: [Spec] = [
    // Three of one shape (one shared statement), different values.
    Spec(format: "score > %@", argument: 20, sorts: [SiftSortDescriptor("score", ascending: false)]),
    Spec(format: "score > %@", argument: 50, sorts: [SiftSortDescriptor("score", ascending: false)]),
    Spec(format: "score > %@", argument: 80, sorts: [SiftSortDescriptor("score", ascending: false)]),
    Spec(format: "grp != %@", argument: "c", sorts: [SiftSortDescriptor("name")], section: "grp"),
    Spec(format: nil, sorts: [SiftSortDescriptor("score")], limit: 5, offset: 3),
    Spec(
      format: "score BETWEEN {10, 70}", sorts: [SiftSortDescriptor("grp", ascending: false)], section: "grp", limit: 8),
    Spec(format: "name BEGINSWITH %@", argument: "n1"),
  ]

  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func pollingChangeSetsEqualRefetchAndDiff() throws {
    try Self.run(source: { PostgresLivePolling(interval: 0.01) }, commits: 150, seed: 0x5EED_0033)
  }

  @Test(.enabled(if: LivePostgresServer.isAvailable, Comment(rawValue: LivePostgresServer.skipMessage)))
  func rowChangeSetsEqualRefetchAndDiff() throws {
    // A source naming the rows each commit changed (as the push mode does): watchers without a
    // window re-read only those rows and match them in memory; the others run their query.
    let source = ScriptedChangeSource()
    try Self.run(source: { source }, commits: 150, seed: 0x5EED_0034) { table, keys in
      source.pending.append(.rows(table: table, keys: keys))
    }
  }

  /// Drives `commits` random commits against watchers on a hub with `source`; `announce` (for a
  /// scripted source) is told each commit's table and changed keys before the hub looks;
  /// `prepare` runs on the table's schema (its name given) before the hub starts (push setup).
  static func run(
    source: () -> any PostgresLiveChangeSource, commits: Int, seed: UInt64,
    announce: ((PostgresLiveTableName, [String]) -> Void)? = nil,
    prepare: (PostgresDatabase, String) throws -> Void = { _, _ in }
  ) throws {
    let info = LivePostgresServer.conninfo ?? ""
    let db = try LivePostgresServer.open()
    defer { db.close() }
    let schemaName = db.schemaName ?? ""
    try db.run("CREATE TABLE item (id int8 PRIMARY KEY, grp text, score int8, name text)")
    var random = LiveSeededRandom(seed: seed)
    let groups = ["a", "b", "c", "d"]
    var nextID = 0
    func row() -> String {
      defer { nextID += 1 }
      let g = groups.randomElement(using: &random) ?? "a"
      return
        "(\(nextID), '\(g)', \(Int.random(in: 0..<100, using: &random)), 'n\(Int.random(in: 0..<30, using: &random))')"
    }
    try db.run("INSERT INTO item VALUES " + (0..<30).map { _ in row() }.joined(separator: ", "))
    try prepare(db, schemaName)
    let table = PostgresLiveTableName(schema: schemaName, name: "item")
    let hub = try PostgresLiveHub(conninfo: info, schema: schemaName, source: source())
    defer { hub.close() }
    var watchers: [(PostgresLiveWatcher, Spec)] = []
    for s in specs {
      let p = try s.format.map { f throws in
        s.argument == .null ? try SiftPredicate(format: f) : try SiftPredicate(format: f, s.argument)
      }
      let r = SiftFetchRequest(entity: "item", predicate: p, sortDescriptors: s.sorts, limit: s.limit, offset: s.offset)
      watchers.append((try hub.watch(r, sectionKeyPath: s.section), s))
    }
    let sessions = [
      try PostgresDatabase(conninfo: info, schema: .named(schemaName)),
      try PostgresDatabase(conninfo: info, schema: .named(schemaName)),
    ]
    defer { for s in sessions { s.close() } }
    for (w, s) in watchers {
      let want = try expected(s, db)
      #expect(sections(w) == want, "start")
    }
    for step in 0..<commits {
      // Statements of one transaction: inserts, updates (score, group, name), deletes.
      var statements: [String] = []
      var touched: [String] = []
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let id = Int.random(in: 0..<max(nextID, 1), using: &random)
        touched.append(String(id))
        switch Int.random(in: 0..<7, using: &random) {
        case 0:
          touched.append(String(nextID))
          statements.append("INSERT INTO item VALUES \(row())")
        case 1: statements.append("DELETE FROM item WHERE id = \(id)")
        case 2:
          statements.append("UPDATE item SET grp = '\(groups.randomElement(using: &random) ?? "a")' WHERE id = \(id)")
        case 6:
          // A new key for the row (its old and new key both change).
          touched.append(String(nextID))
          statements.append("UPDATE item SET id = \(nextID) WHERE id = \(id)")
          nextID += 1
        case 3:
          statements.append("UPDATE item SET name = 'n\(Int.random(in: 0..<30, using: &random))' WHERE id = \(id)")
        default:
          statements.append("UPDATE item SET score = \(Int.random(in: 0..<100, using: &random)) WHERE id = \(id)")
        }
      }
      let s = sessions[step % 2]
      if step % 5 == 4 {
        // Two sessions at once: one transaction stays open while the other commits.
        try s.run("BEGIN; " + statements.joined(separator: "; "))
        // (Rows the open transaction did not lock: a new one.)
        announce?(table, [String(nextID)])
        try sessions[(step + 1) % 2].run("INSERT INTO item VALUES \(row())")
        try check(hub, watchers, db, "step \(step) (other session)")
        try s.run("COMMIT")
      } else {
        try s.run("BEGIN; " + statements.joined(separator: "; ") + "; COMMIT")
      }
      announce?(table, touched)
      try check(hub, watchers, db, "step \(step)")
    }
  }

  /// Refreshes until each watcher's sections equal a fresh fetch (or 5 s pass), checking each
  /// change set against the sections it started from.
  static func check(
    _ hub: PostgresLiveHub, _ watchers: [(PostgresLiveWatcher, Spec)], _ db: PostgresDatabase, _ label: String
  ) throws {
    let wanted = try watchers.map { try expected($0.1, db) }
    let deadline = Date().addingTimeInterval(5)
    var before = watchers.map { sections($0.0) }
    var records = watchers.map { w in
      Dictionary(uniqueKeysWithValues: w.0.results.ids.map { ($0, w.0.results.record(for: $0)) })
    }
    repeat {
      for event in hub.refresh(timeout: 0.02) {
        switch event {
        case .error(_, let e): Issue.record("\(label): \(e.id) \(e.message)")
        case .changes(let w, let cs):
          guard let i = watchers.firstIndex(where: { $0.0 === w }) else { continue }
          let applied = LiveChangeSetCheck.apply(cs, to: before[i]) { w.results.id(at: $0) }
          #expect(applied == sections(w), "\(label), watcher \(i): the change set does not lead to the results")
          let updated = cs.updated.map { before[i][$0.section][$0.item] }
          for id in updated {
            #expect(records[i][id] != w.results.record(for: id), "\(label): \(id) updated unchanged")
          }
          for id in w.results.ids where records[i][id] != nil && records[i][id] != w.results.record(for: id) {
            let moved = cs.moved.contains { before[i][$0.from.section][$0.from.item] == id }
            let replaced = cs.deleted.contains { before[i][$0.section][$0.item] == id }
            #expect(updated.contains(id) || moved || replaced, "\(label): changed row \(id) not reported")
          }
          before[i] = sections(w)
          records[i] = Dictionary(uniqueKeysWithValues: w.results.ids.map { ($0, w.results.record(for: $0)) })
        }
      }
    } while watchers.map({ sections($0.0) }) != wanted && Date() < deadline
    for (i, w) in watchers.enumerated() { #expect(sections(w.0) == wanted[i], "\(label), watcher \(i)") }
  }

  static func sections(_ w: PostgresLiveWatcher) -> [[SiftValue]] { w.results.sections.map(\.ids) }

  /// A fresh fetch: the whole table read, the fetch done in memory, the window taken, grouped.
  static func expected(_ s: Spec, _ db: PostgresDatabase) throws -> [[SiftValue]] {
    let rows = try db.execute(SQLStatement(sql: "SELECT id, grp, score, name FROM item"))
    let records: [[String: SiftValue]] = rows.map { r in
      Dictionary(uniqueKeysWithValues: zip(["id", "grp", "score", "name"], r.map(SQLColumnCodec.plain)))
    }
    let p = try s.format.map { f throws in
      s.argument == .null ? try SiftPredicate(format: f) : try SiftPredicate(format: f, s.argument)
    }
    let all = try SiftLiveResults(
      records: records, ids: records.map { $0["id"] ?? .null }, predicate: p,
      sortDescriptors: s.sorts + [SiftSortDescriptor("id")], sectionKeyPath: s.section)
    let flat = all.ids
    let start = min(s.offset ?? 0, flat.count)
    let window = flat[start..<min(flat.count, start + (s.limit ?? flat.count))]
    guard let section = s.section else { return [Array(window)] }
    var out: [[SiftValue]] = []
    var last: SiftValue?
    for id in window {
      let v = all.record(for: id)?[section] ?? .null
      if out.isEmpty || v != last { out.append([]) }
      out[out.count - 1].append(id)
      last = v
    }
    return out
  }
}

/// A change source that reports what the test tells it (`pending`), as a push source would.
final class ScriptedChangeSource: PostgresLiveChangeSource {
  let mode = "scripted"
  var pending: [PostgresLiveChange] = []
  func start(database: PostgresDatabase, conninfo: String) throws(SiftError) {}
  func changes(database: PostgresDatabase, timeout: Double) throws(SiftError) -> [PostgresLiveChange] {
    defer { pending = [] }
    return pending
  }
  func stop() {}
}
