extension IntrospectedColumn {
  /// The one rule both catalog readers (SQLite's `JSON` columns, PostgreSQL's `json`/`jsonb`)
  /// apply to a JSON column's sample: when every sampled value is a JSON array (`shapes` is
  /// exactly `["array"]`) and the elements are of one scalar kind (`arrayType(elementKinds:)`),
  /// the column becomes that array attribute stored as JSON; otherwise it is left out, with a
  /// warning that says how a schema file can still type it. Each reader only gathers the
  /// kinds, in its own SQL.
  ///
  /// ```swift
  /// c.adoptJSONArray(shapes: ["array"], elementKinds: ["integer"], table: "t", warnings: &w)
  /// c.type   // .integerArray, c.arrayStorage == .json
  /// ```
  mutating func adoptJSONArray(
    shapes: Set<String>, elementKinds: Set<String>, table: String, warnings: inout [SQLIntrospectionWarning]
  ) {
    if shapes == ["array"], let type = Self.arrayType(elementKinds: elementKinds) {
      self.type = type
      arrayStorage = .json
      return
    }
    warnings.append(
      SQLIntrospectionWarning(
        kind: .unsupportedColumn, table: table, columns: [name], member: name,
        message: "\(name) (\(nativeType)) does not hold JSON arrays of one scalar kind; left out "
          + "(a schema file can give it a type, e.g. {\"type\": \"stringArray\", \"arrayStorage\": \"json\"})"))
  }

  /// The array type for JSON element kinds (`json_type` / `jsonb_typeof` names): all text →
  /// strings, all integer → integers, numbers → doubles; nil for none or a mix.
  ///
  /// ```swift
  /// IntrospectedColumn.arrayType(elementKinds: ["integer", "real"])   // .doubleArray
  /// ```
  static func arrayType(elementKinds: Set<String>) -> SQLAttributeType? {
    if elementKinds.isEmpty { return nil }
    if elementKinds == ["text"] || elementKinds == ["string"] { return .stringArray }
    if elementKinds == ["integer"] { return .integerArray }
    if elementKinds.isSubset(of: ["integer", "real", "number"]) { return .doubleArray }
    return nil
  }
}
