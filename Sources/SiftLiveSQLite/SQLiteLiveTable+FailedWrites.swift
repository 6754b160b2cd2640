import SiftLive
import SiftSQL
import SiftSQLite
import SiftSyntax

/// What `write` does around its transaction so a refused or failed write changes nothing: the
/// database's declared foreign keys enforced, the error's id kept, and the results put back
/// when the `COMMIT` fails after they took the write (Grammar/notes/live.md, "Writes").
extension SQLiteLiveTable {
  /// Turns on SQLite's enforcement of declared foreign keys for this connection when it is off
  /// (the default), and says whether it did: the caller turns it off again after its
  /// transaction. The pragma does nothing inside a transaction, so it is set before `BEGIN`.
  func foreignKeysOn() throws(SiftError) -> Bool {
    guard !database.isInTransaction,
      case .integer(0)? = try Self.run(database, SQLStatement(sql: "PRAGMA foreign_keys")).first?.first
    else { return false }
    _ = try Self.run(database, SQLStatement(sql: "PRAGMA foreign_keys = ON"))
    return true
  }

  /// The database's error as the write's: stage `.live`, the table named; a declared foreign key
  /// that refused the write keeps its id (`foreign-key-violation`), any other is `live-refused`.
  func refusal(_ error: SiftError) -> SiftError {
    let message = "\(table): \(error.diagnostic.message)"
    guard error.id == DiagnosticID.foreignKeyViolation.rawValue else {
      return SiftError.live(message, underlying: error)
    }
    return SiftError(
      stage: .live, id: .foreignKeyViolation, message: message + "; nothing was written", underlying: error)
  }

  /// Applies `edits` to the results; while a write runs, also remembers each touched id's
  /// record and place among equal sort keys before them, to put back if the write rolls back.
  func applyUndoably(_ edits: Edits) throws(SiftError) -> SiftChangeSet<SiftValue> {
    guard undo != nil else { return try results.apply(edits) }
    var seen = Set<SiftValue>()
    var before: [(id: SiftValue, record: [String: SiftValue]?, sequence: Int?)] = []
    for e in edits {
      let id: SiftValue
      switch e {
      case .insert(let i, _), .update(let i, _), .delete(let i): id = i
      }
      if seen.insert(id).inserted { before.append((id, results.record(for: id), results.sequence(of: id))) }
    }
    let changes = try results.apply(edits)
    undo?.append(before)
    return changes
  }

  /// After a write rolled back: the results as they were before it (the undo lists, last
  /// first; every record at its old place), and a full re-read due at the next `refresh()` for
  /// the rowid maps, which then finds no difference unless another connection did commit. Putting back records that the
  /// results held before cannot fail; if it did, that re-read would still bring them back.
  func undoResults() {
    needsFullReread = true
    for states in (undo ?? []).reversed() where !states.isEmpty {
      _ = try? results.restore(states)
    }
    undo = []
  }
}
