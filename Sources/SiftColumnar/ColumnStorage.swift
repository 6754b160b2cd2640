import Foundation
import SiftSyntax

/// A column's values while it is built and read (see `Column`).
struct ColumnStorage: ColumnRows {
  /// The most text one column holds (1 GiB): ends are `UInt32`, and the `[c]`/`[d]` folded copy
  /// (`Column.folded`) can be up to three times longer than the text (a scalar folds to at most
  /// three), so it stays below 4 GiB too. A column past it makes the file take the general path.
  static let maxTextBytes = Int(UInt32.max) / 4

  /// `.object`, for the loader: the keys seen at each position of the previous record — their
  /// bytes one after another (key `k` ends at `slotEnds[k]`) and their columns — so a key is
  /// matched by its bytes in the text itself, without a `String`, a hash or a second pass. One
  /// flat array rather than an array of `[UInt8]` per key: copying a slot out retained and
  /// released its key and column, and with `memcmp` the lookup was 9.6% of loading (callgrind,
  /// `SIFT_BENCH_CASE=load sift-bench --suite columnar`).
  var slotBytes: [UInt8] = []
  var slotEnds: [Int] = []
  var slotColumns: [Column] = []

  // `keySlot` (the lookup) is in ColumnarUnsafeAccess.swift.
  mutating func rememberKey(_ position: Int, _ key: UnsafeBufferPointer<UInt8>, _ column: Column) {
    if position < slotColumns.count {
      let a = position == 0 ? 0 : slotEnds[position - 1]
      let delta = key.count - (slotEnds[position] - a)
      slotBytes.replaceSubrange(a..<slotEnds[position], with: key)
      for k in position..<slotEnds.count { slotEnds[k] += delta }
      slotColumns[position] = column
    } else if position == slotColumns.count {
      slotBytes.append(contentsOf: key)
      slotEnds.append(slotBytes.count)
      slotColumns.append(column)
    }
  }

  var kind: Column.Kind = .empty
  var count = 0
  var state: [UInt8] = []
  var ints: [Int64] = []
  /// `.double` values, and `.date` ones as `timeIntervalSinceReferenceDate`.
  var doubles: [Double] = []
  /// `.string`: the bytes of every row, and where each row's bytes end.
  var bytes: [UInt8] = []
  var ends: [UInt32] = []
  /// `.array`: where each row's elements end in `elements`.
  var elements: Column?
  /// `.object`: the child columns (rows are this column's rows).
  var fields: [String: Column] = [:]
  var fieldOrder: [String] = []
  var mixed: [SiftValue] = []
  /// The largest magnitude of an `.int` value (decides whether integers fit a `Double` column).
  var largestInt: UInt64 = 0

  /// Pads with missing rows up to `row`; a second value for a row is a duplicate key.
  @inline(__always)
  private mutating func start(_ row: Int) throws(Column.Unsupported) {
    if count == row { return }
    if count > row { throw Column.Unsupported() }
    while count < row { padMissing() }
  }

  private mutating func padMissing() {
    state.append(Column.missing)
    placeholder()
    count += 1
  }

  /// Appends the storage slot of a row that holds no value of the column's kind.
  @inline(__always)
  private mutating func placeholder() {
    switch kind {
    case .empty, .bool, .object: break
    case .int: ints.append(0)
    case .double, .date: doubles.append(0)
    case .string: ends.append(UInt32(truncatingIfNeeded: bytes.count))
    case .array: ends.append(UInt32(truncatingIfNeeded: elements?.count ?? 0))
    case .mixed: mixed.append(.null)
    }
  }

  /// Makes the column hold `k`: the first value decides; another kind makes it `mixed` (or,
  /// for integers and fractions, a `Double` column when every integer fits one exactly).
  @inline(__always)
  private mutating func become(_ k: Column.Kind) {
    if kind == k || kind == .mixed { return }
    if kind == .empty {
      kind = k
      for _ in 0..<count { placeholder() }
      if k == .array { elements = Column() }
      return
    }
    if kind == .int && k == .double && largestInt <= Column.exactDoubleLimit {
      doubles = ints.map { Double($0) }
      for r in 0..<count where state[r] == Column.value { state[r] = Column.marked }
      ints = []
      kind = .double
      return
    }
    if kind == .double && k == .int { return }  // the caller checks the integer fits
    toMixed()
  }

  private mutating func toMixed() {
    var values: [SiftValue] = []
    values.reserveCapacity(count)
    for r in 0..<count { values.append(value(at: r) ?? .null) }
    ints = []
    doubles = []
    bytes = []
    ends = []
    elements = nil
    fields = [:]
    fieldOrder = []
    mixed = values
    kind = .mixed
  }

  mutating func appendNull(_ row: Int) throws(Column.Unsupported) {
    try start(row)
    state.append(Column.null)
    placeholder()
    count += 1
  }

  mutating func appendInt(_ v: Int64, _ row: Int) throws(Column.Unsupported) {
    try start(row)
    if kind == .double && v.magnitude <= Column.exactDoubleLimit {
      state.append(Column.marked)
      doubles.append(Double(v))
      count += 1
      return
    }
    become(kind == .double ? .mixed : .int)
    if kind == .mixed { return appendMixed(.int(v)) }
    largestInt = max(largestInt, v.magnitude)
    state.append(Column.value)
    ints.append(v)
    count += 1
  }

  mutating func appendDouble(_ v: Double, _ row: Int) throws(Column.Unsupported) {
    try start(row)
    become(.double)
    if kind == .mixed { return appendMixed(.double(v)) }
    state.append(Column.value)
    doubles.append(v)
    count += 1
  }

  mutating func appendBool(_ v: Bool, _ row: Int) throws(Column.Unsupported) {
    try start(row)
    become(.bool)
    if kind == .mixed { return appendMixed(.bool(v)) }
    state.append(v ? Column.marked : Column.value)
    count += 1
  }

  mutating func appendDate(_ v: Date, _ row: Int) throws(Column.Unsupported) {
    try start(row)
    become(.date)
    if kind == .mixed { return appendMixed(.date(v)) }
    state.append(Column.value)
    doubles.append(v.timeIntervalSinceReferenceDate)
    count += 1
  }

  /// Appends a string's UTF-8 bytes (valid UTF-8; `ascii` when every byte is below 0x80).
  mutating func appendString(_ p: UnsafeBufferPointer<UInt8>, ascii: Bool, _ row: Int) throws(Column.Unsupported) {
    try start(row)
    become(.string)
    if kind == .mixed { return appendMixed(.string(String(decoding: p, as: UTF8.self))) }
    guard bytes.count + p.count <= ColumnStorage.maxTextBytes else { throw Column.Unsupported() }
    state.append(ascii ? Column.value : Column.marked)
    bytes.append(contentsOf: p)
    ends.append(UInt32(truncatingIfNeeded: bytes.count))
    count += 1
  }

  mutating func appendString(_ s: String, _ row: Int) throws(Column.Unsupported) {
    var s = s
    let ascii = TextFolding.isASCII(s)
    var failed = false
    s.withUTF8 { p in
      do { try appendString(p, ascii: ascii, row) } catch { failed = true }
    }
    if failed { throw Column.Unsupported() }
  }

  /// Starts an array value in `row`: elements go to the returned column (rows from
  /// `firstElement`), then `endArray` closes the row.
  mutating func beginArray(_ row: Int) throws(Column.Unsupported) -> Column? {
    try start(row)
    become(.array)
    if kind == .mixed { return nil }
    return elements
  }

  mutating func endArray() {
    state.append(Column.value)
    ends.append(UInt32(truncatingIfNeeded: elements?.count ?? 0))
    count += 1
  }

  /// Starts an object value in `row`; its keys go to `field(_:)`, then `endObject` closes it.
  mutating func beginObject(_ row: Int) throws(Column.Unsupported) -> Bool {
    try start(row)
    become(.object)
    return kind == .object
  }

  mutating func endObject() {
    state.append(Column.value)
    count += 1
  }

  /// The child column for `key` (created on first use).
  mutating func field(_ key: String) -> Column {
    if let c = fields[key] { return c }
    let c = Column()
    fields[key] = c
    fieldOrder.append(key)
    return c
  }

  mutating func appendMixed(_ v: SiftValue) {
    state.append(v == .null ? Column.null : Column.value)
    mixed.append(v)
    count += 1
  }

  /// Appends any value (the general loader and values from Swift).
  mutating func append(_ v: SiftValue, _ row: Int, depth: Int = 64) throws(Column.Unsupported) {
    if kind == .mixed {
      try start(row)
      return appendMixed(v)
    }
    switch v {
    case .null: try appendNull(row)
    case .bool(let b): try appendBool(b, row)
    case .int(let i): try appendInt(i, row)
    case .double(let d): try appendDouble(d, row)
    case .string(let s): try appendString(s, row)
    case .date(let d): try appendDate(d, row)
    case .data: try appendAsMixed(v, row)
    case .array(let items):
      guard depth > 0 else { return try appendAsMixed(v, row) }
      guard let child = try beginArray(row) else { return appendMixed(v) }
      for item in items { try child.append(item, child.count, depth: depth - 1) }
      endArray()
    case .dictionary(let d):
      guard depth > 0 else { return try appendAsMixed(v, row) }
      guard try beginObject(row) else { return appendMixed(v) }
      for (k, x) in d { try field(k).append(x, row, depth: depth - 1) }
      endObject()
    }
  }

  private mutating func appendAsMixed(_ v: SiftValue, _ row: Int) throws(Column.Unsupported) {
    try start(row)
    become(.mixed)
    appendMixed(v)
  }

  /// Pads this column (and its children) with missing rows to `rows`.
  mutating func finish(rows: Int) {
    while count < rows { padMissing() }
    for key in fieldOrder { fields[key]?.finish(rows: rows) }
    if let elements { elements.finish(rows: elements.count) }
  }

  /// Replaces the values with dates read from them (`SiftJSONDates` keys); false when some
  /// value cannot be read (the general loader then reports it).
  mutating func convertToDates(_ format: SiftJSONDates.Format) -> Bool {
    switch kind {
    case .empty, .date: return true
    case .array: return elements?.convertToDates(format) ?? true
    case .string where format == .iso8601:
      // Read from the stored bytes (what `SiftJSON.parseDate` reads of the same text): making a
      // `String` of each first was half the conversion's cost (callgrind, loading venues).
      var out = [Double](repeating: 0, count: count)
      let parsed = ColumnBuffers.lend(bytes, from: 0, count: bytes.count) { all in
        for r in 0..<count where state[r] >= Column.value {
          let row = range(of: r)
          guard let d = SiftDateParser.parse(bytes: UnsafeBufferPointer(start: all + row.lowerBound, count: row.count))
          else {
            return false
          }
          out[r] = d.timeIntervalSinceReferenceDate
          state[r] = Column.value
        }
        return true
      }
      guard parsed else { return false }
      bytes = []
      ends = []
      doubles = out
    case .int where format != .iso8601:
      let scale = format == .milliseconds ? 1000.0 : 1
      doubles = ints.map { Date(timeIntervalSince1970: Double($0) / scale).timeIntervalSinceReferenceDate }
      ints = []
    case .double where format != .iso8601:
      for r in 0..<count where state[r] >= Column.value {
        let v = state[r] == Column.marked ? Double(Int64(doubles[r])) : doubles[r]
        guard v.isFinite else { return false }
        doubles[r] = Date(timeIntervalSince1970: format == .milliseconds ? v / 1000 : v).timeIntervalSinceReferenceDate
        state[r] = Column.value
      }
    default: return false
    }
    kind = .date
    return true
  }
}
