import Foundation

/// The key paths a converted `#Predicate` or `SortDescriptor` read from its root, by stored
/// name (`"rating"` → `\Note.rating`): what memory needs to read a Swift value straight through
/// them (`note[keyPath: kp]`) instead of encoding it. How they are read and tested is
/// SiftEvaluation's (`TypedLowering`, a lowering of the evaluator's plan); this holds only what
/// conversion finds. `isComplete` is false when some key path of the root is not one property
/// (a nested chain `\.location?.city`): then the values are encoded.
package final class SiftTypedKeyPaths: @unchecked Sendable {
  /// The type the key paths start from (`Note`).
  package let root: Any.Type
  /// Stored name → the key path of the root it is read through (a `KeyPath<Root, Value>`).
  package private(set) var keyPaths: [String: AnyKeyPath] = [:]
  package private(set) var isComplete = true

  package init(root: Any.Type) { self.root = root }

  /// Registers `keyPath` of the root under `name`, or marks the set incomplete.
  func add(_ name: String, _ keyPath: AnyKeyPath) {
    guard type(of: keyPath).rootType == root else { return markIncomplete() }
    keyPaths[name] = keyPath
  }

  func markIncomplete() { isComplete = false }
}

/// The key paths a converted predicate or sort descriptor carries (`SiftTypedKeyPaths`). It is
/// no part of what the predicate means: every box equals every other and hashes to nothing,
/// so a converted predicate still equals the same predicate parsed from its format string.
package struct SiftTypedKeyPathsBox: Sendable, Hashable {
  package var keyPaths: SiftTypedKeyPaths?
  package init(_ keyPaths: SiftTypedKeyPaths? = nil) { self.keyPaths = keyPaths }
  package static func == (lhs: Self, rhs: Self) -> Bool { true }
  package func hash(into hasher: inout Hasher) {}
}

extension SiftTypedKeyPaths {
  /// True when `names` (attributes with a key path) give every attribute `predicate` reads from
  /// the root: each root key path starts with one of them and continues with collection
  /// operators only, and `SELF` is never read whole. A tree changed after conversion may fail
  /// this; it is then evaluated on encoded values instead.
  package static func covers(_ predicate: PredicateNode, names: Set<String>) -> Bool {
    var covered = true
    ASTWalker.forEachExpression(in: predicate) { e in
      switch e.kind {
      case .keyPath(nil, let kp):
        if !covers(kp, names: names) { covered = false }
      case .evaluatedObject, .anyKey: covered = false
      default: break
      }
    }
    return covered
  }

  /// `kp` is a key with a key path followed by collection operators only.
  package static func covers(_ kp: SiftKeyPath, names: Set<String>) -> Bool {
    guard case .key(let name)? = kp.components.first, names.contains(name) else { return false }
    return !kp.components.dropFirst().contains { if case .key = $0 { true } else { false } }
  }
}
