import SiftSyntax

extension SQLSchema {
  /// The schema as the JSON value `init(value:)` reads back: every table, column, key and
  /// encoding spelled out (defaults included), so a schema read from a database can be saved,
  /// edited (renamed, retyped) and given back, whole or in part (`merging(json:)`).
  ///
  /// ```swift
  /// let again = try SQLSchema(value: schema.jsonValue)
  /// ```
  public var jsonValue: SiftValue {
    var top: [String: SiftValue] = ["dateEncoding": .string(dateEncoding.rawValue), "layout": .string(layout.rawValue)]
    var entitiesJSON: [String: SiftValue] = [:]
    for name in entityNames {
      guard let e = entities[name] else { continue }
      entitiesJSON[name] = SQLSchema.json(e)
    }
    top["entities"] = .dictionary(entitiesJSON)
    return .dictionary(top)
  }

  /// `jsonValue` as text, one entity per line, keys sorted.
  ///
  /// ```swift
  /// try schema.jsonText.write(toFile: "notes.schema.json", atomically: true, encoding: .utf8)
  /// ```
  public var jsonText: String {
    guard case .dictionary(let top) = jsonValue, case .dictionary(let entitiesJSON)? = top["entities"] else {
      return "{}"
    }
    var out = "{\"dateEncoding\": " + SiftJSON.serialize(top["dateEncoding"] ?? .null)
    out += ", \"layout\": " + SiftJSON.serialize(top["layout"] ?? .null) + ", \"entities\": {"
    for (i, name) in entitiesJSON.keys.sorted().enumerated() {
      out += i == 0 ? "\n  " : ",\n  "
      SiftJSON.writeString(name, into: &out)
      out += ": " + SiftJSON.serialize(entitiesJSON[name] ?? .null)
    }
    return out + "\n}}\n"
  }

  private static func json(_ e: SQLEntity) -> SiftValue {
    var d: [String: SiftValue] = ["table": .string(e.table)]
    if e.hasSingleColumnKey {
      d["primaryKey"] = .string(e.primaryKey)
    } else {
      d["primaryKey"] = .array(
        e.primaryKeyColumns.map { column in
          .string(e.attributes.first(where: { $0.column == column })?.name ?? column)
        })
    }
    if e.isView { d["view"] = .bool(true) }
    if let f = e.rowFilter {
      d["entityColumn"] = .string(f.column)
      d["entityValues"] = .array(f.values.map { .int($0) })
    }
    if let own = e.ownRows {
      d["entityColumn"] = .string(own.column)
      d["ownEntityValues"] = .array(own.values.map { .int($0) })
    }
    var attrs: [String: SiftValue] = [:]
    for a in e.attributes {
      var spec: [String: SiftValue] = ["type": .string(a.type.rawValue)]
      if a.column != a.name { spec["column"] = .string(a.column) }
      if a.indexed { spec["indexed"] = .bool(true) }
      if !a.isNullable { spec["nullable"] = .bool(false) }
      if let n = a.nativeType { spec["nativeType"] = .string(n) }
      if let enc = a.dateEncoding { spec["dateEncoding"] = .string(enc.rawValue) }
      if let s = a.arrayStorage { spec["arrayStorage"] = .string(s.rawValue) }
      attrs[a.name] = spec.count == 1 ? .string(a.type.rawValue) : .dictionary(spec)
    }
    d["attributes"] = .dictionary(attrs)
    var rels: [String: SiftValue] = [:]
    for r in e.relationships {
      switch r.kind {
      case .toOne(let fk):
        rels[r.name] = ["toOne": .string(r.target), "foreignKey": .string(fk)]
      case .toMany(let fk):
        rels[r.name] = ["toMany": .string(r.target), "inverseForeignKey": .string(fk)]
      case .manyToMany(let join, let source, let target):
        rels[r.name] = [
          "toMany": .string(r.target), "joinTable": .string(join), "sourceColumn": .string(source),
          "targetColumn": .string(target),
        ]
      }
      if let order = r.orderColumn, case .dictionary(var spec)? = rels[r.name] {
        spec["orderColumn"] = .string(order)
        rels[r.name] = .dictionary(spec)
      }
    }
    if !rels.isEmpty { d["relationships"] = .dictionary(rels) }
    if !e.indexes.isEmpty {
      d["indexes"] = .array(
        e.indexes.map { index in
          var spec: [String: SiftValue] = [
            "name": .string(index.name), "columns": .array(index.columns.map { .string($0) }),
          ]
          if index.isUnique { spec["unique"] = .bool(true) }
          if index.hasExpressions { spec["expressions"] = .bool(true) }
          if index.isPartial { spec["partial"] = .bool(true) }
          if !index.collations.isEmpty { spec["collations"] = .array(index.collations.map { .string($0) }) }
          return .dictionary(spec)
        })
    }
    return .dictionary(d)
  }
}
