import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax

/// One entity the REPL can query: a name, its records (dictionaries), the attributes seen in
/// them, and the columns a result table shows by default.
///
/// The records are held once. Records the columnar loader read (`.load`, `--data`) and
/// generated ones (`.generate`) are held as columns only: kernels scan them, a shown record is
/// read out of them, and the `SiftObject` rows the row evaluator needs are built on first need
/// and then kept (`LazyRows`, the mechanism `sift eval` uses). Other records are held in
/// SiftEvaluation's fast `SiftObject` form when every record is a dictionary, else as
/// `SiftValue`s. Records may be plain values (`["Do", "Re"]`): they are evaluated as `SELF`
/// and described and shown as a `SELF` attribute.
///
/// ```swift
/// let people = REPLDataSet(name: "people", records: [["name": "Ana", "age": 31]])
/// people.attributes.map(\.name)   // ["age", "name"]
/// ```
struct REPLDataSet: Sendable {
  /// The entity name (`venues`, `notes`, or the file stem of a loaded file).
  var name: String
  /// Attributes found in the records, in display order.
  var attributes: [REPLAttribute]
  /// Columns shown by default in result tables.
  var defaultColumns: [String]
  /// Where the data came from, for the banner and `.entities`.
  var origin: String
  /// The records as columns, when the columnar loader read them or `.generate` made them:
  /// filters with kernels for every comparison scan these (`MemoryEngine.matches`).
  let columns: SiftColumnarRecords?
  /// The rows: built from `columns` on first need, or the records as given.
  private let rows: LazyRows
  /// The records as values, kept only when some record is not a dictionary.
  private let values: [SiftValue]
  /// The number of records.
  let count: Int

  /// Creates a data set; attributes are inferred from the records.
  init(
    name: String, records: [SiftValue], defaultColumns: [String]? = nil, origin: String = "memory"
  ) {
    let attributes = REPLAttribute.infer(from: records)
    if let objects = MemoryEngine.objects(for: records) {
      self.init(
        name: name, rows: LazyRows(objects: objects), values: [], count: objects.count, attributes: attributes,
        defaultColumns: defaultColumns, origin: origin)
    } else {
      self.init(
        name: name, rows: LazyRows(values: records), values: records, count: records.count, attributes: attributes,
        defaultColumns: defaultColumns, origin: origin)
    }
  }

  /// Creates a data set from converted records; `sample` (the first records as values) is
  /// what the attributes are inferred from.
  init(name: String, objects: [SiftObject], sample: [SiftValue], defaultColumns: [String]?, origin: String) {
    self.init(
      name: name, rows: LazyRows(objects: objects), values: [], count: objects.count,
      attributes: REPLAttribute.infer(from: sample), defaultColumns: defaultColumns, origin: origin)
  }

  /// Creates a data set from records held as columns (the columnar loader, `.generate`): no
  /// row is built until a command needs one; the attributes come from the first records.
  init(name: String, columns: SiftColumnarRecords, defaultColumns: [String]?, origin: String) {
    let sample = (0..<min(columns.count, REPLDataSetBuilder.sampleSize)).map(columns.record(at:))
    self.init(
      name: name, rows: LazyRows(columns: columns), values: [], count: columns.count,
      attributes: REPLAttribute.infer(from: sample), defaultColumns: defaultColumns, origin: origin,
      columns: columns)
  }

  private init(
    name: String, rows: LazyRows, values: [SiftValue], count: Int, attributes: [REPLAttribute],
    defaultColumns: [String]?, origin: String, columns: SiftColumnarRecords? = nil
  ) {
    self.name = name
    self.columns = columns
    self.rows = rows
    self.values = values
    self.count = count
    self.attributes = attributes
    self.origin = origin
    self.defaultColumns = defaultColumns ?? REPLDataSet.pickColumns(attributes)
  }

  /// The records in SiftEvaluation's fast form (nil when some record is not a dictionary).
  /// Held as columns, they are built here on first use and kept: for the row evaluator, not
  /// for showing a few records (`record(at:)`, `object(at:)` read the columns).
  var objects: [SiftObject]? { values.isEmpty || count == 0 ? rows.records : nil }

  /// The rows the row evaluator scans for `range`: held as columns, only the rows up to the
  /// range's end are built (and kept), so a scan builds each round's rows as it reaches them.
  func objects(covering range: Range<Int>) -> [SiftObject]? {
    columns == nil ? objects : rows.records(through: range.upperBound)
  }

  /// True when every record is a dictionary (rows of a table), without building rows.
  var isAllDictionaries: Bool { columns != nil || values.isEmpty }

  /// True once rows were built from the columns (tests check commands that need none).
  var rowsBuilt: Bool { rows.rowsBuilt }

  /// Record `i` as a value (read from the columns, or converted from its object).
  func record(at i: Int) -> SiftValue {
    if let columns { return columns.record(at: i) }
    if values.isEmpty, let objects = rows.records { return objects[i].siftValue }
    return values[i]
  }

  /// Record `i` in the evaluator's form, when every record is a dictionary; read from the
  /// columns without building the others.
  func object(at i: Int) -> SiftObject? {
    if let columns { return columns.object(at: i) }
    return objects?[i]
  }

  /// Every record as a value. This converts them all: O(n) time and memory, for copies into
  /// SQL, `.watch` and tests, not for per-row use.
  var records: [SiftValue] {
    if let columns { return (0..<columns.count).map(columns.record(at:)) }
    return objects?.map(\.siftValue) ?? values
  }

  /// The records as values when they are held as values (empty otherwise).
  var plainValues: [SiftValue] { values }

  /// The value at a dotted key path of record `i` (`location.city`, `tags.@count`), reading
  /// only the first key's value out of an object; `SELF` is the record itself.
  func value(of path: String, at i: Int) -> SiftValue {
    if path == "SELF" { return record(at: i) }
    if !values.isEmpty { return RecordPath.value(of: path, in: values[i]) }
    let first = path.prefix { $0 != "." }
    let head: SiftValue
    if let columns {
      head = columns.value(forKey: String(first), at: i) ?? .null
    } else {
      head = objects?[i].value(forKey: String(first)) ?? .null
    }
    guard first.endIndex < path.endIndex else { return head }
    return RecordPath.value(of: String(path[path.index(after: first.endIndex)...]), in: head)
  }

  /// Up to eight scalar attributes, `id`/`name`/`title` first.
  static func pickColumns(_ attributes: [REPLAttribute]) -> [String] {
    let preferred = ["id", "name", "title"]
    let scalars = attributes.filter { !$0.kinds.contains("array") && !$0.kinds.contains("dictionary") }
    let first = preferred.filter { p in scalars.contains { $0.name == p } }
    let rest = scalars.map(\.name).filter { !preferred.contains($0) }
    let cols = Array((first + rest).prefix(8))
    return cols.isEmpty ? attributes.prefix(6).map(\.name) : cols
  }
}

/// An attribute of an entity as seen in the data: its name and the kinds of value it holds
/// (`integer`, `string`, `array`, …), plus the attributes of nested dictionaries.
///
/// ```swift
/// REPLAttribute.infer(from: [["a": 1], ["a": nil]]).first?.kinds   // ["integer", "nil"]
/// ```
struct REPLAttribute: Sendable, Hashable {
  /// Dotted key path, e.g. `location.city` for nested ones.
  var name: String
  /// Value kinds seen (`SiftValue.kindName`), sorted.
  var kinds: [String]
  /// Element kinds when the attribute holds arrays.
  var elementKinds: [String]

  /// Creates an attribute description.
  init(name: String, kinds: [String], elementKinds: [String] = []) {
    self.name = name
    self.kinds = kinds
    self.elementKinds = elementKinds
  }

  /// `integer`, `string?` (nullable), `array<string>`, `dictionary`…
  var typeDescription: String {
    let nonNull = kinds.filter { $0 != "nil" }
    var text = nonNull.isEmpty ? "nil" : nonNull.joined(separator: "|")
    if nonNull.contains("array"), !elementKinds.isEmpty {
      text = text.replacingOccurrences(of: "array", with: "array<\(elementKinds.joined(separator: "|"))>")
    }
    return kinds.contains("nil") && !nonNull.isEmpty ? text + "?" : text
  }

  /// Scans up to 5,000 records for top-level attributes and one level of nested dictionaries;
  /// records that are plain values make a `SELF` attribute.
  static func infer(from records: [SiftValue]) -> [REPLAttribute] {
    var kinds: [String: Set<String>] = [:]
    var elements: [String: Set<String>] = [:]
    var order: [String] = []
    func note(_ name: String, _ v: SiftValue) {
      if kinds[name] == nil { order.append(name) }
      kinds[name, default: []].insert(v.kindName)
      if case .array(let items) = v {
        for x in items.prefix(50) { elements[name, default: []].insert(x.kindName) }
      }
    }
    for record in records.prefix(5000) {
      guard case .dictionary(let d) = record else {
        note("SELF", record)  // a plain-value record (`"Do"`) is its own attribute
        continue
      }
      for key in d.keys.sorted() {
        let v = d[key] ?? .null
        note(key, v)
        if case .dictionary(let nested) = v {
          for sub in nested.keys.sorted() { note(key + "." + sub, nested[sub] ?? .null) }
        }
      }
    }
    // Records missing a key make it nullable.
    let dictCount = records.prefix(5000).filter { if case .dictionary = $0 { return true } else { return false } }.count
    var counts: [String: Int] = [:]
    for record in records.prefix(5000) {
      guard case .dictionary(let d) = record else { continue }
      for key in d.keys { counts[key, default: 0] += 1 }
    }
    return order.sorted().map { name in
      var k = kinds[name] ?? []
      if !name.contains("."), counts[name, default: 0] < dictCount { k.insert("nil") }
      return REPLAttribute(name: name, kinds: k.sorted(), elementKinds: (elements[name] ?? []).sorted())
    }
  }
}
