import Foundation
import SiftEvaluation
import SiftSyntax

/// One entity the REPL can query: a name, its records (dictionaries), the attributes seen in
/// them, and the columns a result table shows by default.
///
/// ```swift
/// let people = REPLDataSet(name: "people", records: [["name": "Ana", "age": 31]])
/// people.attributes.map(\.name)   // ["age", "name"]
/// ```
public struct REPLDataSet: Sendable {
  /// The entity name (`venues`, `notes`, or the file stem of a loaded file).
  public var name: String
  /// The records, each normally a `.dictionary`.
  public var records: [SiftValue]
  /// Attributes found in the records, in display order.
  public var attributes: [REPLAttribute]
  /// Columns shown by default in result tables.
  public var defaultColumns: [String]
  /// Where the data came from, for the banner and `.entities`.
  public var origin: String
  /// The records in SiftEvaluation's fast form (nil when some record is not a dictionary).
  var objects: [SiftObject]?

  /// Creates a data set; attributes are inferred from the records when not given.
  public init(
    name: String, records: [SiftValue], defaultColumns: [String]? = nil, origin: String = "memory"
  ) {
    self.name = name
    self.records = records
    self.origin = origin
    self.attributes = REPLAttribute.infer(from: records)
    self.objects = MemoryEngine.objects(for: records)
    self.defaultColumns = defaultColumns ?? REPLDataSet.pickColumns(attributes)
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
public struct REPLAttribute: Sendable, Hashable {
  /// Dotted key path, e.g. `location.city` for nested ones.
  public var name: String
  /// Value kinds seen (`SiftValue.kindName`), sorted.
  public var kinds: [String]
  /// Element kinds when the attribute holds arrays.
  public var elementKinds: [String]

  /// Creates an attribute description.
  public init(name: String, kinds: [String], elementKinds: [String] = []) {
    self.name = name
    self.kinds = kinds
    self.elementKinds = elementKinds
  }

  /// `integer`, `string?` (nullable), `array<string>`, `dictionary`…
  public var typeDescription: String {
    let nonNull = kinds.filter { $0 != "nil" }
    var text = nonNull.isEmpty ? "nil" : nonNull.joined(separator: "|")
    if nonNull.contains("array"), !elementKinds.isEmpty {
      text = text.replacingOccurrences(of: "array", with: "array<\(elementKinds.joined(separator: "|"))>")
    }
    return kinds.contains("nil") && !nonNull.isEmpty ? text + "?" : text
  }

  /// Scans up to 5,000 records for top-level attributes and one level of nested dictionaries.
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
      guard case .dictionary(let d) = record else { continue }
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
