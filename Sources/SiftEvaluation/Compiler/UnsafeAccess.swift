import SiftSyntax

// The evaluator's unsafe constructs, in one file behind the small API compiled closures and
// scans use: `RecordArray` (layout test + lending loop), `lending(_:_:)`, `Frame`/`FrameRef`
// (slots, SUBQUERY bindings, work meter), `RootRef`/`Ctx`, the lent-record reads on
// `Unmanaged<SiftObject>`, and `InPlace`. Closures elsewhere only read through the pointers
// these hand out (`RootRef.dict`/`.value`, `Frame.Lent.value`: `.pointee`).
//
// Why they exist: each removes per-record reference counting, copies or checks. Measured:
// callgrind instructions per record over the 1,000 venues as `SiftObject`s (`SIFT_BENCH_PROFILE`
// 5 vs 105 passes of `sift-bench --suite evaluate`, SWIFT_DETERMINISTIC_HASHING=1), with the
// lent-record reads (`_withUnsafeGuaranteedRef` -> `takeUnretainedValue()`), the object lending
// loop (raw load -> `Unmanaged.passUnretained(items[i])`) and `InPlace`'s buffer loop (-> `for e
// in items`) in their safe forms, together: equality 482 -> 582, range 190 -> 236,
// compound_beginswith_c 1219 -> 1285, any_tags 464 -> 524, menu_count 104 -> 229, subquery
// 754 -> 1003, matches 276 -> 337 (each construct's share was not measured apart; the
// frame's raw slots and `RootRef`'s pointers were not measured against a safe form).
//
// The one rule that keeps all of them sound: whoever lends (a `Run`, `FetchColumn.read`,
// `SiftExpressionEvaluator.value`, a running SUBQUERY) owns the record array, the element's
// collection and the `Frame` for as long as anything lent is used.
//
// Record storage keeps its own raw memory with its reason beside it (`SiftObject.slots`,
// `KeyTable`'s dense table, `SiftRecordBatchEncoder`'s buffers), as do the UTF-8 byte scans
// of strings in Semantics/ (`TextRule`).

// MARK: - Record arrays, read in place

/// `records` as the array it is when `S` is exactly `[S.Element]` (the cast is to the very
/// type just tested, so it is the identity), else nil.
@inlinable
func exactArray<S: Sequence>(_ records: S) -> [S.Element]? {
  guard S.self == [S.Element].self else { return nil }
  return unsafeBitCast(records, to: [S.Element].self)
}

/// An array of one of Sift's own record layouts, which evaluation reads in place. The one
/// place that decides a record array's layout: the matcher's scans and the fetch's columns
/// both lend records through it.
@usableFromInline
enum RecordArray {
  case objects([SiftObject])
  case dictionaries([[String: SiftValue]])
  case values([SiftValue])

  /// How many records.
  var count: Int {
    switch self {
    case .objects(let a): return a.count
    case .dictionaries(let a): return a.count
    case .values(let a): return a.count
    }
  }

  /// The layout of `rows`, or nil for other record types. The type tests fold away once
  /// specialized; each cast is to the very type just tested (an `as?` would check every
  /// element at run time).
  @inlinable
  init?<T: SiftRecord>(_ rows: [T]) {
    if T.self == SiftObject.self {
      self = .objects(unsafeBitCast(rows, to: [SiftObject].self))
    } else if T.self == [String: SiftValue].self {
      self = .dictionaries(unsafeBitCast(rows, to: [[String: SiftValue]].self))
    } else if T.self == SiftValue.self {
      self = .values(unsafeBitCast(rows, to: [SiftValue].self))
    } else {
      return nil
    }
  }

  /// Lends each record in `range` (clamped to the array) to `body`, in order, until `body`
  /// returns false. Nothing is retained or wrapped per record: a fast record is passed
  /// unretained, a dictionary by pointer to where the array stores it; only a `SiftValue`
  /// record is converted (into a value on the stack).
  @inline(__always)
  func lend(_ range: Range<Int>, _ body: (Int, RootRef) -> Bool) {
    switch self {
    case .objects(let items):
      items.withUnsafeBufferPointer { buf in
        guard let base = buf.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let stride = MemoryLayout<Unmanaged<SiftObject>>.stride
        for i in range.clamped(to: 0..<buf.count) {  // never past the buffer
          // A plain load of the reference, so the record is not retained (see the header).
          // The range is clamped once: a bounds test per record cost ~5 instructions a record.
          let u = raw.load(fromByteOffset: i &* stride, as: Unmanaged<SiftObject>.self)
          if !body(i, .object(u)) { return }
        }
      }
    case .dictionaries(let items):
      items.withUnsafeBufferPointer { buf in
        guard let base = buf.baseAddress else { return }
        for i in range.clamped(to: 0..<buf.count) where !body(i, .dict(base + i)) { return }
      }
    case .values(let items):
      for i in range.clamped(to: 0..<items.count) where !lending(EvalValue(items[i]), { body(i, $0) }) { return }
    }
  }

  /// `body` with the record at `i` (a valid position) lent as `lend(_:_:)` lends it.
  @inline(__always)
  func lend<R>(at i: Int, _ body: (RootRef) throws(EvalFailure) -> R) throws(EvalFailure) -> R {
    switch self {
    case .objects(let items):
      return try withExtendedLifetime(items) { () throws(EvalFailure) -> R in
        try body(.object(Unmanaged.passUnretained(items[i])))
      }
    case .dictionaries(let items):
      let r: Result<R, EvalFailure> = items.withUnsafeBufferPointer { buf in
        do throws(EvalFailure) {
          guard let base = buf.baseAddress, buf.indices.contains(i) else {
            return .success(try lending(.dict(items[i]), body))
          }
          return .success(try body(.dict(base + i)))
        } catch {
          return .failure(error)
        }
      }
      return try r.get()
    case .values(let items):
      return try lending(EvalValue(items[i]), body)
    }
  }
}

/// `body` with `value` lent as a record (`RootRef.value`), for records of any other type.
@inline(__always)
func lending<R, E: Error>(_ value: consuming EvalValue, _ body: (RootRef) throws(E) -> R) throws(E) -> R {
  var root = value
  return try withUnsafePointer(to: &root) { (p) throws(E) -> R in try body(.value(p)) }
}

// MARK: - The call's frame

/// Mutable state of one evaluation call: the variable slots (free `$VARIABLES` first, then
/// one slot per SUBQUERY iterator). Made once per `matches`/`filter` call and reused for every
/// record, so records cost no allocation. The slots are raw memory: reading or writing one is
/// a plain load or store (no exclusivity check); slot numbers come from the compiler.
@usableFromInline
final class Frame {
  let slots: UnsafeMutablePointer<EvalValue>
  /// Per slot: the SUBQUERY element currently bound there when it is lent (read in place,
  /// not retained) instead of stored in `slots`. Only the running SUBQUERY, which keeps its
  /// collection alive, sets it (`Compiler.subqueryLoop`), and clears it when it ends.
  let lent: UnsafeMutablePointer<Lent>
  let slotCount: Int
  /// The call's work meter: SUBQUERY steps and the deadline (see `WorkMeter`).
  let meter: UnsafeMutablePointer<WorkMeter>

  /// An element borrowed from a collection that outlives the binding.
  enum Lent {
    case none
    case object(Unmanaged<SiftObject>)
    case value(UnsafePointer<SiftValue>)
  }

  init(slotCount: Int) {
    self.slotCount = slotCount
    slots = UnsafeMutablePointer<EvalValue>.allocate(capacity: max(slotCount, 1))
    slots.initialize(repeating: .null, count: slotCount)
    lent = UnsafeMutablePointer<Lent>.allocate(capacity: max(slotCount, 1))
    lent.initialize(repeating: .none, count: slotCount)
    meter = UnsafeMutablePointer<WorkMeter>.allocate(capacity: 1)
    meter.initialize(to: WorkMeter())
  }

  /// A frame with the free variables bound from `variables`; one missing is the error
  /// `unbound-variable` naming it (in `source`).
  convenience init(
    slotCount: Int, binding free: [(name: String, slot: Int, range: SiftSourceRange)],
    from variables: [String: SiftValue], source: String
  ) throws(SiftError) {
    self.init(slotCount: slotCount)
    for v in free {
      guard let value = variables[v.name] else {
        throw EvalDiagnostics.unboundVariable(v.name, at: v.range).error(source: source)
      }
      slots[v.slot] = EvalValue(value)
    }
  }

  /// The call's work meter (raw memory, so compiled closures update it through `FrameRef`).
  var workMeter: WorkMeter {
    get { meter.pointee }
    set { meter.pointee = newValue }
  }

  deinit {
    slots.deinitialize(count: slotCount)
    slots.deallocate()
    lent.deallocate()
    meter.deallocate()
  }
}

/// A frame's storage as plain pointers, so that passing it around per record costs no
/// reference counting. Valid while its `Frame` lives.
struct FrameRef {
  let slots: UnsafeMutablePointer<EvalValue>
  let lent: UnsafeMutablePointer<Frame.Lent>
  let meter: UnsafeMutablePointer<WorkMeter>

  init(_ frame: Frame) {
    slots = frame.slots
    lent = frame.lent
    meter = frame.meter
  }

  /// The value bound to `slot`.
  @inline(__always)
  func value(_ slot: Int) -> EvalValue {
    switch lent[slot] {
    case .none: return slots[slot]
    case .object(let u): return .object(u.takeUnretainedValue())
    case .value(let p): return EvalValue(p.pointee)
    }
  }
}

// MARK: - The record a closure reads

/// The record a `Ctx` evaluates, lent: nothing here is retained or released per record.
enum RootRef {
  /// A fast record from an array (the array keeps it alive for the whole call).
  case object(Unmanaged<SiftObject>)
  /// A dictionary record, read where it is stored.
  case dict(UnsafePointer<[String: SiftValue]>)
  /// Any other record, as an evaluator value stored by the caller.
  case value(UnsafePointer<EvalValue>)
  /// No record (compile-time folding).
  case none
}

/// What compiled code receives per record: the record and the call's frame.
///
/// Everything here is a plain pointer (the struct is trivial: passing or dropping it costs no
/// reference counting). The record is lent (`RootRef`); the frame is held as raw pointers. The
/// `Run` (or compile-time fold) that makes a `Ctx` keeps the record and the frame alive for as
/// long as the `Ctx` is used.
struct Ctx {
  let ref: RootRef
  let frame: FrameRef

  init(_ ref: RootRef, frame: Frame) {
    self.ref = ref
    self.frame = FrameRef(frame)
  }

  /// The lent fast record, if the record is one.
  @inline(__always)
  var object: Unmanaged<SiftObject>? {
    if case .object(let u) = ref { return u }
    return nil
  }

  /// The record as a value (the slower, general view: a lent record is retained here).
  var root: EvalValue {
    switch ref {
    case .object(let u): return .object(u.takeUnretainedValue())
    case .dict(let p): return .dict(p.pointee)
    case .value(let p): return p.pointee
    case .none: return .null
    }
  }

  /// Is the record one of Sift's own keyed layouts (fast record or dictionary)?
  @inline(__always)
  var isKeyed: Bool {
    switch ref {
    case .object, .dict: return true
    case .value(let p):
      switch p.pointee {
      case .object, .dict: return true
      default: return false
      }
    case .none: return false
    }
  }
}

// MARK: - Lent fast records

extension SiftObject {
  /// Where the value under key `id` is stored (nil when absent); valid while the record lives.
  @inline(__always)
  func slot(id: Int) -> UnsafeMutablePointer<EvalValue>? {
    let s = shape.slot(id)
    return s >= 0 ? slots + s : nil
  }
}

/// Reads of a lent fast record (`RootRef.object`, `Frame.Lent.object`) without retaining it:
/// `_withUnsafeGuaranteedRef` tells the optimizer the lender keeps the record alive.
extension Unmanaged where Instance == SiftObject {
  /// The value under key `id` (`.null` when absent).
  @inline(__always)
  func value(id: Int) -> EvalValue { _withUnsafeGuaranteedRef { $0.value(id: id) } }

  /// Where the value under key `id` is stored (nil when absent), valid while the lender lives.
  @inline(__always)
  func slot(id: Int) -> UnsafeMutablePointer<EvalValue>? { _withUnsafeGuaranteedRef { $0.slot(id: id) } }

  /// The element count of the array under key `id` (nil when it holds anything else).
  @inline(__always)
  func arrayCount(id: Int) -> Int? { _withUnsafeGuaranteedRef { $0.arrayCount(id: id) } }
}

// MARK: - Arrays scanned in place

/// Loops over an array's buffer: elements are read where they are stored.
enum InPlace {
  /// Does `test` return true for some element of `items`? Stops at the first that does, and
  /// at the first error.
  @inline(__always)
  static func contains<T>(_ items: [T], where test: (T) throws(EvalFailure) -> Bool) throws(EvalFailure) -> Bool {
    let r: Result<Bool, EvalFailure> = items.withUnsafeBufferPointer { buf in
      do throws(EvalFailure) {
        for i in 0..<buf.count where try test(buf[i]) { return .success(true) }
      } catch {
        return .failure(error)
      }
      return .success(false)
    }
    return try r.get()
  }
}

// MARK: - SUBQUERY's loop

/// Per element, SUBQUERY's loop (`SubqueryPlan.loop`) binds the iterator variable without copying: a fast
/// record or a `SiftValue` element is lent to the slot (`Frame.lent`), read in place while
/// `items` keeps it alive. (Written inline: the same loop behind a helper taking a closure cost
/// evaluate.subquery 548 → 605 instructions per record, passing the element to it 754.)
extension Compiler {
  @inline(never)  // one creation site for the loop (see `PlanLowering`)
  static func subqueryLoop(
    _ coll: @escaping ExpressionFn, range: SiftSourceRange, slot: Int, outermost: Bool, test: @escaping PredicateFn
  ) -> @Sendable (Ctx, Bool, (EvalValue) -> Void) throws(EvalFailure) -> Void {
    return { ctx, wantsElements, yield throws(EvalFailure) in
      let frame = ctx.frame
      let meter = frame.meter
      if outermost { meter.pointee.steps = 0 }
      // The binding never outlives this call, error or not.
      defer {
        frame.lent[slot] = .none
        frame.slots[slot] = .null
      }
      switch try coll(ctx) {
      case .null: return
      case .array(let items):
        // `items` keeps every element alive while it is lent.
        var failure: EvalFailure?
        items.withUnsafeBufferPointer { buf in
          for i in 0..<buf.count {
            if case .object(let o) = buf[i] {
              frame.lent[slot] = .object(Unmanaged.passUnretained(o))
            } else {
              frame.lent[slot] = .none
              frame.slots[slot] = buf[i]
            }
            do throws(EvalFailure) {
              try meter.pointee.step(at: range)
              if try test(ctx) { yield(wantsElements ? buf[i] : .null) }
            } catch {
              failure = error
              return
            }
          }
        }
        if let failure { throw failure }
      case .values(let items):
        var failure: EvalFailure?
        items.withUnsafeBufferPointer { buf in
          guard let base = buf.baseAddress else { return }
          for i in 0..<buf.count {
            frame.lent[slot] = .value(base + i)
            do throws(EvalFailure) {
              try meter.pointee.step(at: range)
              if try test(ctx) { yield(wantsElements ? EvalValue(buf[i]) : .null) }
            } catch {
              failure = error
              return
            }
          }
        }
        if let failure { throw failure }
      case let c:
        throw EvalDiagnostics.needsCollection("SUBQUERY", c, at: range)
      }
    }
  }
}
