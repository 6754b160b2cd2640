import Foundation

/// How a converted `#Predicate` or `SortDescriptor` reads its attributes straight from a Swift
/// value (`note[keyPath: \.title]`), so evaluating it in memory needs no `Encodable` pass over
/// every property of every value: one reader per stored name the tree uses at the top level.
/// `isComplete` is false when some key path of the root has no reader (a nested chain
/// `\.location?.city`, a property of a type with no `SiftValue`): then the values are encoded.
package final class SiftTypedReaders: @unchecked Sendable {
  /// The type the key paths start from (`Note`).
  package let root: Any.Type
  /// Stored name → a `(Root) -> SiftValue` closure.
  package private(set) var readers: [String: Any] = [:]
  package private(set) var isComplete = true
  /// Stored name → a `SiftTypedComparisonFactory<Root>` for the attributes `SiftTypedComparisons` compiles.
  private(set) var tests: [String: Any] = [:]

  package init(root: Any.Type) { self.root = root }

  /// Registers `keyPath` of the root under `name`, or marks the set incomplete.
  func add<Root, Value>(_ name: String, _ keyPath: KeyPath<Root, Value>) {
    guard Root.self == root, let r = SiftTypedReaders.reader(keyPath) else {
      isComplete = false
      return
    }
    readers[name] = r
    if let t = SiftTypedComparisons.factory(keyPath) { tests[name] = t }
  }

  func markIncomplete() { isComplete = false }

  /// `add(_:_:)` for a key path whose value type is known only at run time (a
  /// `SortDescriptor`'s), opened here.
  func add<Root>(_ name: String, keyPath: PartialKeyPath<Root>, valueType: Any.Type) {
    func open<Value>(_ type: Value.Type) {
      guard let k = keyPath as? KeyPath<Root, Value> else { return markIncomplete() }
      add(name, k)
    }
    open(valueType)
  }

  /// The readers, typed, sorted by name; nil when incomplete or not over `Root`.
  package func typed<Root>(_ type: Root.Type) -> [(name: String, read: (Root) -> SiftValue)]? {
    guard isComplete, root == Root.self else { return nil }
    var out: [(name: String, read: (Root) -> SiftValue)] = []
    for name in readers.keys.sorted() {
      guard let r = readers[name] as? (Root) -> SiftValue else { return nil }
      out.append((name, r))
    }
    return out
  }

  /// A closure reading `keyPath` as Sift's value, as `SiftRecordEncoder` would encode it: the
  /// common scalar types directly, any other `SiftValueConvertible` or raw-value enum through
  /// `SiftValue(converting:)`; nil for a type with no `SiftValue` (a struct, an array of them).
  static func reader<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> ((Root) -> SiftValue)? {
    switch keyPath {
    case let k as KeyPath<Root, String>: return { .string($0[keyPath: k]) }
    case let k as KeyPath<Root, Int>: return { .int(Int64($0[keyPath: k])) }
    case let k as KeyPath<Root, Double>: return { .double($0[keyPath: k]) }
    case let k as KeyPath<Root, Bool>: return { .bool($0[keyPath: k]) }
    case let k as KeyPath<Root, Date>: return { .date($0[keyPath: k]) }
    case let k as KeyPath<Root, String?>: return { $0[keyPath: k].map(SiftValue.string) ?? .null }
    case let k as KeyPath<Root, Int?>: return { $0[keyPath: k].map { .int(Int64($0)) } ?? .null }
    case let k as KeyPath<Root, Double?>: return { $0[keyPath: k].map(SiftValue.double) ?? .null }
    case let k as KeyPath<Root, Bool?>: return { $0[keyPath: k].map(SiftValue.bool) ?? .null }
    case let k as KeyPath<Root, Date?>: return { $0[keyPath: k].map(SiftValue.date) ?? .null }
    default:
      guard SiftTypedReaders.converts(Value.self) else { return nil }
      return { SiftValue(converting: $0[keyPath: keyPath]) ?? .null }
    }
  }

  /// True when every value of `type` has a `SiftValue` (`SiftValue(converting:)` succeeds).
  static func converts(_ type: Any.Type) -> Bool {
    type is any SiftValueConvertible.Type || type is any RawRepresentable.Type
  }
}

/// The readers a converted predicate or sort descriptor carries (`SiftTypedReaders`). It is
/// no part of what the predicate means: every box equals every other and hashes to nothing,
/// so a converted predicate still equals the same predicate parsed from its format string.
package struct SiftTypedReadersBox: Sendable, Hashable {
  package var readers: SiftTypedReaders?
  package init(_ readers: SiftTypedReaders? = nil) { self.readers = readers }
  package static func == (lhs: Self, rhs: Self) -> Bool { true }
  package func hash(into hasher: inout Hasher) {}
}

extension SiftTypedReaders {
  /// True when `names` (attributes with a reader) give every attribute `predicate` reads from
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

  /// `kp` is a key with a reader followed by collection operators only.
  package static func covers(_ kp: SiftKeyPath, names: Set<String>) -> Bool {
    guard case .key(let name)? = kp.components.first, names.contains(name) else { return false }
    return !kp.components.dropFirst().contains { if case .key = $0 { true } else { false } }
  }
}
