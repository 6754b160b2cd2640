import SiftSyntax

/// The columns of a fetch's result rows: each one's name (an attribute, a key path, an
/// aggregate's or expression's name) and, where the column holds an attribute's stored value,
/// that attribute's codec, so `SiftRow` reads dates, booleans and arrays the way they are stored.
/// Shared by every row of one result.
///
/// ```swift
/// let columns = try compiler.resultColumns(for: SiftFetchRequest(entity: "Note"))
/// columns.names   // ["id", "title", "createdAt"]
/// ```
public final class SiftRowColumns: Sendable {
  /// The column names, in result order.
  public let names: [String]
  /// The codec of each column; nil for a computed value (a sum, a count, an expression).
  public let codecs: [SQLColumnCodec?]
  /// Position by name (the first column of a name).
  let positions: [String: Int]
  /// How each column's stored values read (the codecs' decoding half).
  package let readings: [SQLValueReading]

  /// Columns with these names and codecs (`codecs` as long as `names`; missing ones are nil).
  public init(names: [String], codecs: [SQLColumnCodec?]) {
    self.names = names
    self.codecs = (0..<names.count).map { $0 < codecs.count ? codecs[$0] : nil }
    var positions: [String: Int] = [:]
    for (i, n) in names.enumerated() where positions[n] == nil { positions[n] = i }
    self.positions = positions
    readings = self.codecs.map { $0?.reading ?? .plain }
  }

  /// The position of column `name`, or nil.
  public func position(of name: String) -> Int? { positions[name] }

  /// The same columns named as a `Decodable` type's coding keys under `keys`
  /// (`SiftKeyStrategy.swiftName`: `updated_at` is `updatedAt` with `.snakeCase`); `.exact`
  /// gives these columns.
  ///
  /// ```swift
  /// columns.renamed(for: .snakeCase).names   // ["id", "updatedAt"]
  /// ```
  package func renamed(for keys: SiftKeyStrategy) -> SiftRowColumns {
    if case .exact = keys { return self }
    return SiftRowColumns(names: names.map(keys.swiftName), codecs: codecs)
  }
}

extension SQLCompiler {
  /// The columns `compile(request)` returns (`SiftRowColumns`): for `.records`, the
  /// entity's attributes stored in its own table (arrays stored natively or as JSON included,
  /// see `compileForDecoding`); for properties, group-by keys and `min`/`max` the attribute
  /// each names, with its codec; for counts, sums, averages and expressions computed values.
  ///
  /// ```swift
  /// try compiler.resultColumns(for: SiftFetchRequest(entity: "Note", resultType: .count)).names   // ["count"]
  /// ```
  /// - Throws: `SiftError` (id `unknown-entity`).
  package func resultColumns(for request: SiftFetchRequest) throws(SiftError) -> SiftRowColumns {
    let e = try entity(request.entity)
    let codec = { (a: SQLAttribute) in SQLColumnCodec(a, schema: self.schema, dialect: self.dialect) }
    let resolved = { (k: String) in self.attribute(at: k, from: e).map(codec) }
    switch request.resultType {
    case .records:
      let attributes = SQLCompiler.decodedAttributes(of: e)
      return SiftRowColumns(names: attributes.map(\.name), codecs: attributes.map(codec))
    case .count: return SiftRowColumns(names: ["count"], codecs: [])
    case .indices: return SiftRowColumns(names: [SQLSchema.indexColumn], codecs: [])
    case .distinct(let k): return SiftRowColumns(names: [k], codecs: [resolved(k)])
    case .properties(let keys): return SiftRowColumns(names: keys, codecs: keys.map(resolved))
    case .expressions(let descriptions):
      return SiftRowColumns(
        names: descriptions.map(\.name),
        codecs: descriptions.map { resolved($0.expression.source.trimmingCharacters(in: .whitespaces)) })
    case .aggregates(let aggregates, let groupBy):
      let values = aggregates.map { a -> SQLColumnCodec? in
        guard a.function == .min || a.function == .max, let k = a.keyPath else { return nil }
        return resolved(k)
      }
      return SiftRowColumns(names: groupBy + aggregates.map(\.name), codecs: groupBy.map(resolved) + values)
    }
  }

  /// `compile(request)`, except that `.records` also selects the array attributes stored in
  /// the entity's own table (a native array or JSON column), so a `Decodable` type can read
  /// them; side-table arrays are not selected. Its columns are `resultColumns(for:)`.
  ///
  /// ```swift
  /// let st = try compiler.compileForDecoding(SiftFetchRequest(entity: "Note"))
  /// ```
  package func compileForDecoding(_ request: SiftFetchRequest) throws(SiftError) -> SQLStatement {
    checked(try select(request, decoding: true).statement(dialect))
  }

  /// The attributes `.records` rows hold for decoding: the columns, and arrays stored in one column.
  static func decodedAttributes(of e: SQLEntity) -> [SQLAttribute] {
    e.attributes.filter { !$0.type.isArray || $0.effectiveArrayStorage != .sideTable }
  }

  /// The attribute a key path names from `e`, through to-one relationships, or nil.
  func attribute(at keyPath: String, from e: SQLEntity) -> SQLAttribute? {
    var entity = e
    let steps = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    for step in steps.dropLast() {
      guard let r = entity.relationship(step), !r.isToMany, let next = schema.entity(r.target) else { return nil }
      entity = next
    }
    return steps.last.flatMap { entity.attribute($0) }
  }
}
