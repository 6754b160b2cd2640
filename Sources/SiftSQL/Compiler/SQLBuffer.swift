import Foundation
import SiftSyntax

/// A piece of compiled SQL text: a span of its compilation's `SQLBuffer`.
///
/// Spans are plain offsets, so fragments are copied, combined and repeated without
/// allocating; they are meaningful only with the buffer that made them.
struct SQLSpan: Sendable {
  var start: Int
  var end: Int
  /// True when the text holds `SQLBuffer.raisesByte` (see `SQLExpr.mayRaise`).
  var raises: Bool

  var count: Int { end - start }
}

/// Something `SQLBuffer.put` can append: text (`String`, including literals), a span or an
/// expression's text. `write` returns true when what it wrote holds the raises mark.
protocol SQLPiece {
  @discardableResult func write(to buffer: SQLBuffer) -> Bool
}

/// Text is SQL only (identifiers, keywords, punctuation): never the raises mark, which only
/// `SQLRaisesMark` writes.
extension String: SQLPiece {
  @inline(__always) @discardableResult
  func write(to buffer: SQLBuffer) -> Bool {
    if utf8.withContiguousStorageIfAvailable({ buffer.append($0) }) == nil {
      var copy = self
      copy.withUTF8 { buffer.append($0) }
    }
    return false
  }
}

/// Literal text (keywords, separators), written straight from the binary's constant bytes.
extension StaticString: SQLPiece {
  @inline(__always) @discardableResult
  func write(to buffer: SQLBuffer) -> Bool {
    withUTF8Buffer { buffer.append($0) }
    return false
  }
}

extension SQLSpan: SQLPiece {
  @inline(__always) @discardableResult
  func write(to buffer: SQLBuffer) -> Bool {
    buffer.append(self)
    return raises
  }
}

extension SQLExpr: SQLPiece {
  @inline(__always) @discardableResult
  func write(to buffer: SQLBuffer) -> Bool {
    buffer.append(sql)
    return sql.raises
  }
}

/// `SQLBuffer.raisesByte` when `on`, before a construct that may raise at run time (see
/// `SQLExpr.mayRaise`); nothing otherwise.
struct SQLRaisesMark: SQLPiece {
  let on: Bool

  @inline(__always) @discardableResult
  func write(to buffer: SQLBuffer) -> Bool {
    if on { buffer.append(byte: SQLBuffer.raisesByte) }
    return on
  }
}

/// The bytes of one compilation's SQL, and the values its placeholders stand for.
///
/// Every fragment is written once at the end of the buffer and named by its span; combining
/// fragments copies their bytes to the end (bytes of dropped or superseded fragments stay
/// behind until the compilation ends). A bound value is written as `placeholderByte`
/// followed by four bytes of its index in `values` (each `0x80 | 7 bits`, never a control
/// byte), so a fragment carries its bindings with its text through every combination and
/// repetition, in text order; `statement(_:dialect:)` numbers them.
final class SQLBuffer {
  static let placeholderByte: UInt8 = 0x01
  /// Marks a construct that may raise an error at run time (see `SQLExpr.mayRaise`).
  static let raisesByte: UInt8 = 0x02
  static let placeholderLength = 5

  // Only the compilation that owns the buffer uses it, one call at a time: no dynamic
  // exclusivity checks on every append.
  @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private(set) var count = 0
  @exclusivity(unchecked) private var capacity: Int
  /// Bound values, by the index their placeholders carry.
  @exclusivity(unchecked) private(set) var values: [SQLValue] = []
  /// How many of `values` earlier compilations left (see `reset`).
  @exclusivity(unchecked) private var valuesBase = 0
  /// The entity this buffer's last compilation was for (the compiler's next one is often for
  /// the same entity: a name comparison instead of a lookup).
  @exclusivity(unchecked) var lastEntity: SQLEntityRef?
  /// Constants of fragments, by `SQLExpr.constantSlot`.
  @exclusivity(unchecked) private(set) var constants: [SiftValue] = []
  /// Nil conditions of fragments that may be NaN, by `SQLExpr.nilWhenSlot`.
  @exclusivity(unchecked) private(set) var nilConditions: [[SQLExpr]] = []

  /// True when the constant kept at `slot` is nil.
  func constantIsNull(at slot: Int) -> Bool {
    guard constants.indices.contains(slot), case .null = constants[slot] else { return false }
    return true
  }

  func keep(constant v: SiftValue) -> Int32 {
    constants.append(v)
    return Int32(constants.count - 1)
  }

  func keep(nilConditions c: [SQLExpr]) -> Int32 {
    nilConditions.append(c)
    return Int32(nilConditions.count - 1)
  }

  /// The text of `SQLExpr.alwaysTrue` and `SQLExpr.alwaysFalse`, at the start of every buffer.
  static let alwaysTrue = SQLSpan(start: 0, end: 5, raises: false)
  static let alwaysFalse = SQLSpan(start: 5, end: 10, raises: false)

  init(capacity: Int = 1024) {
    self.capacity = max(capacity, 64)
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    values.reserveCapacity(8)
    "1 = 11 = 0".write(to: self)
  }

  deinit { base.deallocate() }

  /// Empties the buffer for another compilation, keeping its storage.
  func reset() {
    count = SQLBuffer.alwaysFalse.end
    // Placeholders and slots carry absolute positions, so the side tables may keep earlier
    // compilations' entries (a few values) instead of being emptied every time.
    if values.count > 64 { values.removeAll(keepingCapacity: true) }
    if constants.count > 64 { constants.removeAll(keepingCapacity: true) }
    if !nilConditions.isEmpty { nilConditions.removeAll(keepingCapacity: true) }
    valuesBase = values.count
  }

  /// True when the buffer is small enough to keep for reuse.
  var isReusable: Bool { capacity <= 1 << 16 }

  @inline(__always)
  private func reserve(_ n: Int) {
    if count + n > capacity { grow(n) }
  }

  private func grow(_ n: Int) {
    let newCapacity = max(capacity * 2, count + n)
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    bigger.update(from: base, count: count)
    base.deallocate()
    base = bigger
    capacity = newCapacity
  }

  @inline(__always)
  func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (base + count).update(from: from, count: bytes.count)
    count += bytes.count
  }

  @inline(__always)
  func append(_ span: SQLSpan) {
    let n = span.count
    reserve(n)
    (base + count).update(from: base + span.start, count: n)
    count += n
  }

  @inline(__always)
  func append(byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  /// Appends the decimal digits of `n` (not negative).
  func append(decimal n: Int) {
    var digits = 1
    var rest = n.magnitude / 10
    while rest > 0 { digits += 1; rest /= 10 }
    reserve(digits)
    var v = n.magnitude
    for k in stride(from: count + digits - 1, through: count, by: -1) {
      base[k] = UInt8(ascii: "0") + UInt8(v % 10)
      v /= 10
    }
    count += digits
  }

  /// Appends any piece (text, a span, an expression's text); true when it holds the raises
  /// mark.
  @inline(__always) @discardableResult
  func put<P: SQLPiece>(_ p: P) -> Bool { p.write(to: self) }

  /// Appends `spans` separated by `, `.
  func put(list spans: [SQLSpan]) {
    for (i, s) in spans.enumerated() {
      if i > 0 { put(", ") }
      put(s)
    }
  }

  /// The number of placeholders in `span`.
  func bindingCount(in span: SQLSpan) -> Int {
    var n = 0
    var i = span.start
    while i < span.end {
      if base[i] == SQLBuffer.placeholderByte {
        n += 1
        i += SQLBuffer.placeholderLength
      } else {
        i += 1
      }
    }
    return n
  }

  /// The span from `start` to the end of the buffer.
  func span(since start: Int) -> SQLSpan {
    let n = count - start
    let raises = n > 0 && memchr(base + start, Int32(SQLBuffer.raisesByte), n) != nil
    return SQLSpan(start: start, end: count, raises: raises)
  }

  /// A placeholder for `value`.
  func placeholder(_ value: SQLValue) -> SQLSpan {
    let start = count
    let index = values.count
    values.append(value)
    reserve(SQLBuffer.placeholderLength)
    base[count] = SQLBuffer.placeholderByte
    for k in 0..<4 { base[count + 1 + k] = 0x80 | UInt8(truncatingIfNeeded: index >> (7 * k)) & 0x7F }
    count += SQLBuffer.placeholderLength
    return SQLSpan(start: start, end: count, raises: false)
  }

  /// The bytes of `span`, valid until the next write.
  func withBytes<R>(_ span: SQLSpan, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    body(UnsafeBufferPointer(start: base + span.start, count: span.count))
  }

  /// Copies `span` to `out`: raises marks dropped, each placeholder replaced by
  /// `placeholder(n)` (n counts from 1) and its value appended to `bindings`. Returns the
  /// bytes written, or nil when `out` is too small (then `bindings` is incomplete).
  private func render(
    _ span: SQLSpan, into out: UnsafeMutableBufferPointer<UInt8>, _ bindings: inout [SQLValue],
    placeholders: SQLPlaceholders
  ) -> Int? {
    guard let dst = out.baseAddress else { return span.count == 0 ? 0 : nil }
    let src = base
    var i = span.start
    var j = 0
    while i < span.end {
      // A run of plain text (every byte above the two marks), copied at once.
      var k = i
      if !span.raises {
        k = memchr(src + i, Int32(SQLBuffer.placeholderByte), span.end - i).map { $0.assumingMemoryBound(to: UInt8.self) - src } ?? span.end
      } else {
        while k < span.end && src[k] > SQLBuffer.raisesByte { k += 1 }
      }
      if k > i {
        guard j + (k - i) <= out.count else { return nil }
        (dst + j).update(from: src + i, count: k - i)
        j += k - i
        i = k
        continue
      }
      if src[i] == SQLBuffer.placeholderByte, i + SQLBuffer.placeholderLength <= span.end {
        var index = 0
        for k in 0..<4 { index |= Int(src[i + 1 + k] & 0x7F) << (7 * k) }
        if index < values.count { bindings.append(values[index]) }
        guard let after = placeholders.write(bindings.count, to: dst, at: j, limit: out.count) else { return nil }
        j = after
        i += SQLBuffer.placeholderLength
      } else {
        i += 1  // a raises mark (or a truncated placeholder): not SQL
      }
    }
    return j
  }

  /// The finished statement for `span`: placeholders numbered for the dialect, bindings in
  /// text order.
  func statement(_ span: SQLSpan, placeholders: SQLPlaceholders) -> SQLStatement {
    var bindings: [SQLValue] = []
    bindings.reserveCapacity(values.count - valuesBase)
    // Text bytes never grow, so a placeholder no longer than its marker (`?`) needs no more
    // room than the span: short statements become small strings. Otherwise try a little more
    // room, then as much as the longest placeholder could take.
    var room = span.count
    if !placeholders.allAlike || placeholders.longestCached > SQLBuffer.placeholderLength { room += 16 }
    while true {
      bindings.removeAll(keepingCapacity: true)
      var fits = true
      let text = String(unsafeUninitializedCapacity: room) { out in
        guard let n = render(span, into: out, &bindings, placeholders: placeholders) else {
          fits = false
          return 0
        }
        return n
      }
      if fits { return SQLStatement(sql: text, bindings: bindings) }
      room = room * 2 + 64
    }
  }

}

/// Buffers kept between compilations by one `SQLCompiler` (and its copies), so compiling
/// allocates no buffer in the steady state. Thread-safe; a buffer serves one compilation at
/// a time.
final class SQLBufferPool: @unchecked Sendable {
  private let lock = NSLock()
  @exclusivity(unchecked) private var idle: [SQLBuffer] = []  // under `lock`

  /// An empty buffer, reused when one is idle.
  func take() -> SQLBuffer {
    lock.lock()
    let b = idle.popLast()
    lock.unlock()
    return b ?? SQLBuffer()
  }

  /// Returns a buffer its compilation no longer uses (large ones are dropped).
  func give(_ b: SQLBuffer) {
    guard b.isReusable else { return }
    b.reset()
    lock.lock()
    if idle.count < 8 { idle.append(b) }
    lock.unlock()
  }
}
