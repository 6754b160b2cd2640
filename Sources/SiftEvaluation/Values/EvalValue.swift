import Foundation
import SiftSyntax

/// The value the evaluator computes with: `SiftValue`'s cases plus references to records and
/// collections that are read lazily, so looking a key up never copies or converts a record.
///
/// `.values` and `.dict` wrap `SiftValue` collections as they are (converted element by element
/// when read); `.array` holds already-converted elements; `.object` is a `SiftObject`, the fast
/// record layout; `.record` is any other `SiftRecord`.
///
/// Sendability: constants captured by a compiled matcher never hold `.record`, which is the only
/// case whose payload may not be `Sendable`; records only live inside one evaluation call.
@usableFromInline
enum EvalValue: @unchecked Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case date(Date)
  case data(Data)
  case array([EvalValue])
  case values([SiftValue])
  case dict([String: SiftValue])
  case object(SiftObject)
  case record(RecordBox)

  /// Wraps a `SiftValue` without copying its collections.
  @inline(__always)
  init(_ v: SiftValue) {
    switch v {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .int(let i): self = .int(i)
    case .double(let d): self = .double(d)
    case .string(let s): self = .string(s)
    case .date(let d): self = .date(d)
    case .data(let d): self = .data(d)
    case .array(let a): self = .values(a)
    case .dictionary(let d): self = .dict(d)
    }
  }

  /// Wraps an optional `SiftValue`; a missing value is `.null`.
  @inline(__always)
  init(_ v: SiftValue?) {
    if let v { self.init(v) } else { self = .null }
  }

  var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The kind's name for diagnostics, matching `SiftValue.kindName`.
  var kindName: String {
    switch self {
    case .null: return "nil"
    case .bool: return "boolean"
    case .int: return "integer"
    case .double: return "double"
    case .string: return "string"
    case .date: return "date"
    case .data: return "data"
    case .array, .values: return "array"
    case .dict, .object, .record: return "dictionary"
    }
  }

  /// The elements when this is an ordered collection.
  @inline(__always)
  var list: EvalList? {
    switch self {
    case .array(let a): return EvalList(.converted(a))
    case .values(let a): return EvalList(.raw(a))
    default: return nil
    }
  }

  /// Converts back to a `SiftValue`. Nesting deeper than `depth` levels becomes `.null`
  /// (bounded recursion; the evaluator never builds values that deep).
  func siftValue(depth: Int = EvalLimits.maxDataDepth) -> SiftValue {
    if depth <= 0 { return .null }
    switch self {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .int(let i): return .int(i)
    case .double(let d): return .double(d)
    case .string(let s): return .string(s)
    case .date(let d): return .date(d)
    case .data(let d): return .data(d)
    case .array(let a): return .array(a.map { $0.siftValue(depth: depth - 1) })
    case .values(let a): return .array(a)
    case .dict(let d): return .dictionary(d)
    case .object(let o): return o.siftValue(depth: depth)
    case .record: return .null
    }
  }
}

/// A user record, boxed once so that `EvalValue` stays a plain (loadable) enum.
@usableFromInline
final class RecordBox {
  let record: any SiftRecord
  @usableFromInline init(_ record: any SiftRecord) { self.record = record }
}

/// Limits on recursion over data (nested arrays and dictionaries).
enum EvalLimits {
  /// Deepest nesting that deep equality, conversion and key-path mapping will walk.
  static let maxDataDepth = 256
}

/// An ordered collection seen by the evaluator, whichever storage it has.
struct EvalList {
  enum Storage {
    case converted([EvalValue])
    case raw([SiftValue])
  }
  let storage: Storage

  @inline(__always) init(_ storage: Storage) { self.storage = storage }

  @inline(__always)
  var count: Int {
    switch storage {
    case .converted(let a): return a.count
    case .raw(let a): return a.count
    }
  }

  @inline(__always)
  subscript(i: Int) -> EvalValue {
    switch storage {
    case .converted(let a): return a[i]
    case .raw(let a): return EvalValue(a[i])
    }
  }

  /// All elements converted (allocates; used when building new collections).
  var elements: [EvalValue] {
    switch storage {
    case .converted(let a): return a
    case .raw(let a): return a.map(EvalValue.init)
    }
  }
}
