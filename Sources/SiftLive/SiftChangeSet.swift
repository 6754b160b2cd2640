import SiftSyntax

/// What one transaction changed in live results, in `NSFetchedResultsController`'s vocabulary
/// and order, ready for a table view's batch update (Grammar/notes/live.md):
///
/// - `sectionDeletes` are indices in the old sections, `sectionInserts` in the new ones;
/// - `deleted` and `updated` index paths, and each move's `from`, refer to the old results;
///   `inserted` index paths and each move's `to` refer to the new results;
/// - an update that changes a sort key (or the section key) is a move; one that makes an object
///   start or stop matching is an insert or a delete; an object that moves is not also listed
///   as updated; an object whose order relative to the others did not change does not move.
///
/// Every list is sorted ascending (moves by `from`).
///
/// ```swift
/// let changes = try live.apply([.update(7, venue), .delete(3)])
/// tableView.performBatchUpdates {
///   tableView.deleteSections(IndexSet(changes.sectionDeletes), with: .fade)
///   // … deleteRows(changes.deleted), insertRows(changes.inserted), moveRow(from:to:) …
/// }
/// ```
public struct SiftChangeSet<ID: Hashable> {
  /// A move of one object: `from` in the old results, `to` in the new.
  public struct Move: Hashable, Sendable {
    /// The object's index path before the transaction.
    public var from: SiftIndexPath
    /// The object's index path after it.
    public var to: SiftIndexPath
  }

  /// Sections removed (indices in the old sections), ascending.
  public internal(set) var sectionDeletes: [Int] = []
  /// Sections added (indices in the new sections), ascending.
  public internal(set) var sectionInserts: [Int] = []
  /// Objects removed, at their old index paths.
  public internal(set) var deleted: [SiftIndexPath] = []
  /// Objects added, at their new index paths.
  public internal(set) var inserted: [SiftIndexPath] = []
  /// Objects whose position changed, old → new.
  public internal(set) var moved: [Move] = []
  /// Objects changed in place, at their old index paths.
  public internal(set) var updated: [SiftIndexPath] = []

  /// The same change over the flat list of ids (sections concatenated): removals at old
  /// offsets, insertions at new offsets, moves as associated pairs.
  var removals: [(offset: Int, id: ID, to: Int?)] = []
  var insertions: [(offset: Int, id: ID, from: Int?)] = []

  /// True when nothing visible changed.
  ///
  /// ```swift
  /// if try live.apply(edits).isEmpty { return }
  /// ```
  public var isEmpty: Bool {
    sectionDeletes.isEmpty && sectionInserts.isEmpty && deleted.isEmpty && inserted.isEmpty
      && moved.isEmpty && updated.isEmpty
  }

  /// The change as Swift's `CollectionDifference` over the flat ids (all sections in order):
  /// `oldIDs.applying(changes.difference) == newIDs`. Moves are associated removal/insertion
  /// pairs; in-place updates are not part of a difference.
  ///
  /// ```swift
  /// let before = live.ids
  /// let changes = try live.apply([.delete(3)])
  /// before.applying(changes.difference) == live.ids   // true
  /// ```
  public var difference: CollectionDifference<ID> {
    var changes: [CollectionDifference<ID>.Change] = []
    for r in removals { changes.append(.remove(offset: r.offset, element: r.id, associatedWith: r.to)) }
    for i in insertions { changes.append(.insert(offset: i.offset, element: i.id, associatedWith: i.from)) }
    if let d = CollectionDifference(changes) { return d }
    // Unreachable when the pairs are built together; the plain form is always valid.
    let plain = changes.map { c -> CollectionDifference<ID>.Change in
      switch c {
      case .remove(let o, let e, _): return .remove(offset: o, element: e, associatedWith: nil)
      case .insert(let o, let e, _): return .insert(offset: o, element: e, associatedWith: nil)
      }
    }
    return CollectionDifference(plain) ?? [ID]().difference(from: [])
  }

  /// Sorts every list into the documented order.
  mutating func normalize() {
    sectionDeletes.sort()
    sectionInserts.sort()
    deleted.sort()
    inserted.sort()
    moved.sort { $0.from < $1.from }
    updated.sort()
    removals.sort { $0.offset < $1.offset }
    insertions.sort { $0.offset < $1.offset }
  }
}

extension SiftError {
  /// Why a live-results transaction was refused (stage `.live`); nothing was changed.
  ///
  /// ```swift
  /// do { try live.apply([.delete(99)]) } catch { print(error) }   // no object with id 99
  /// ```
  package static func live(_ message: String, underlying: (any Error)? = nil) -> SiftError {
    SiftError(stage: .live, id: .liveRefused, message: message, underlying: underlying)
  }

  /// What a caller's closure threw, as Sift's one error type: a `SiftError` as it is, any
  /// other as stage `.live` (id `live-refused`), kept as `underlying`.
  package static func live(caught error: any Error) -> SiftError {
    if let e = error as? SiftError { return e }
    return live("\(error)", underlying: error)
  }
}
