import Foundation

/// One row a committed transaction changed, named by its replica-identity key (the primary key
/// with REPLICA IDENTITY DEFAULT), in PostgreSQL's text form.
package struct PostgresRowChange: Equatable, Sendable {
  package enum Kind: String, Equatable, Sendable { case insert, update, delete }
  package var kind: Kind
  /// The row's key after the change (for a delete: the key it had).
  package var key: [String?]
  /// The key before an update that changed it (nil when the key stayed the same).
  package var oldKey: [String?]?
  /// The new row, column by column (insert, update); `.unchangedToast` where the server left a
  /// large unchanged value out.
  package var new: [PgOutputColumn]?
}

/// What one committed transaction did to one published table.
package struct PostgresTableChanges: Equatable, Sendable {
  package var schema: String
  package var table: String
  package var columns: [String]
  package var keyColumns: [String]
  /// Every row changed, in commit order.
  package var rows: [PostgresRowChange]
  /// TRUNCATE: every row may be gone, whatever `rows` says; re-read the table.
  package var truncated: Bool
}

/// One committed transaction: its LSNs and the rows it changed, grouped per table.
package struct PostgresCommittedTransaction: Equatable, Sendable {
  /// Where the commit record is.
  package var commitLSN: PostgresLSN
  /// Just past the commit: what to confirm as flushed once the change set is delivered.
  package var endLSN: PostgresLSN
  /// Microseconds since 2000-01-01 UTC.
  package var commitTime: Int64
  /// The transaction id (32 bits, as Begin gives it).
  package var xid: UInt32 = 0
  package var tables: [PostgresTableChanges]
}

/// Folds pgoutput messages into committed transactions: remembers the relations the server
/// described, collects a transaction's changes from Begin to Commit, and hands back the
/// transaction at its Commit. A change for a relation never described, a Begin inside a
/// transaction or a Commit outside one is a protocol error, not a trap.
package struct PostgresChangeAssembler: Sendable {
  private var relations: [UInt32: PgOutputRelation] = [:]
  private var open: (xid: UInt32, tables: [UInt32: PostgresTableChanges], order: [UInt32])?

  package init() {}

  /// Feeds one message; returns the transaction when `message` is its Commit.
  package mutating func consume(_ message: PgOutputMessage) throws(PostgresError) -> PostgresCommittedTransaction? {
    switch message {
    case .begin(_, _, let xid):
      guard open == nil else { throw Self.protocolError("Begin inside a transaction") }
      open = (xid, [:], [])
    case .commit(_, let commitLSN, let endLSN, let time):
      guard let tx = open else { throw Self.protocolError("Commit outside a transaction") }
      open = nil
      return PostgresCommittedTransaction(
        commitLSN: commitLSN, endLSN: endLSN, commitTime: time, xid: tx.xid,
        tables: tx.order.compactMap { tx.tables[$0] })
    case .relation(let relation):
      relations[relation.id] = relation
    case .origin, .type, .message:
      break
    case .insert(let id, let new):
      let r = try relation(id, columns: new.count)
      try append(id, PostgresRowChange(kind: .insert, key: Self.key(new, r), oldKey: nil, new: new))
    case .update(let id, let old, _, let new):
      let r = try relation(id, columns: new.count)
      let key = Self.key(new, r)
      var oldKey: [String?]?
      if let old {
        _ = try relation(id, columns: old.count)
        let k = Self.key(old, r)
        if k != key { oldKey = k }
      }
      try append(id, PostgresRowChange(kind: .update, key: key, oldKey: oldKey, new: new))
    case .delete(let id, let old, _):
      let r = try relation(id, columns: old.count)
      try append(id, PostgresRowChange(kind: .delete, key: Self.key(old, r), oldKey: nil, new: nil))
    case .truncate(_, let ids):
      for id in ids {
        _ = try relation(id, columns: nil)
        try touch(id) { $0.truncated = true }
      }
    }
    return nil
  }

  private func relation(_ id: UInt32, columns: Int?) throws(PostgresError) -> PgOutputRelation {
    guard let r = relations[id] else { throw Self.protocolError("change for relation \(id) never described") }
    if let columns, columns != r.columns.count {
      throw Self.protocolError("\(columns) columns for \(r.schema).\(r.name), which has \(r.columns.count)")
    }
    return r
  }

  private mutating func touch(_ id: UInt32) throws(PostgresError) -> PostgresTableChanges {
    guard var tx = open else { throw Self.protocolError("change outside a transaction") }
    if let t = tx.tables[id] { return t }
    guard let r = relations[id] else { throw Self.protocolError("change for relation \(id) never described") }
    let t = PostgresTableChanges(
      schema: r.schema, table: r.name, columns: r.columns.map(\.name),
      keyColumns: r.columns.filter(\.isKey).map(\.name), rows: [], truncated: false)
    tx.tables[id] = t
    tx.order.append(id)
    open = tx
    return t
  }

  private mutating func touch(_ id: UInt32, _ change: (inout PostgresTableChanges) -> Void) throws(PostgresError) {
    var t = try touch(id)
    change(&t)
    open?.tables[id] = t
  }

  private mutating func append(_ id: UInt32, _ row: PostgresRowChange) throws(PostgresError) {
    try touch(id) { $0.rows.append(row) }
  }

  /// The key columns' values of `tuple` (text; nil for NULL or a value the message left out).
  private static func key(_ tuple: [PgOutputColumn], _ r: PgOutputRelation) -> [String?] {
    zip(tuple, r.columns).compactMap { value, column -> String?? in
      guard column.isKey else { return nil }
      if case .text(let s) = value { return .some(s) }
      return .some(nil)
    }
  }

  static func protocolError(_ detail: String) -> PostgresError {
    PostgresError(kind: .result, message: "malformed replication stream: \(detail)")
  }
}
