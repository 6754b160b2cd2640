import SiftSyntax

extension SQLSchema {
  /// Loads a schema from JSON text:
  ///
  /// ```json
  /// {"dateEncoding": "secondsSince1970",
  ///  "entities": {"Venue": {"table": "venue", "primaryKey": "id",
  ///    "attributes": {"id": "integer", "name": {"type": "string", "indexed": true}},
  ///    "relationships": {"location": {"toOne": "Location"}, "menu": {"toMany": "MenuItem"}}}}}
  /// ```
  ///
  /// Further keys, for a database Sift did not create (what `jsonText` writes for an
  /// introspected schema): top-level `"layout": "existing"`; per entity `"primaryKey"` as a
  /// list of attribute names (composite, or `[]` for none), `"view": true`, `"indexes"`
  /// (`[{"name", "columns", "unique", "collations"}]`), `"entityColumn"` and `"entityValues"` (a row
  /// filter, `SQLRowFilter`: `"entityColumn": "Z_ENT", "entityValues": [3, 4]`; `"ownEntityValues": [3]`, the
  /// entity's own rows for `includesSubentities = false`, `SQLEntity.ownRows`); per attribute `"nullable"`, `"nativeType"`,
  /// `"dateEncoding"` (any `SQLDateEncoding` name) and `"arrayStorage"` (`sideTable`,
  /// `array`, `json`); per to-many relationship `"orderColumn"` (an ordered one's order key,
  /// `SQLRelationship.orderColumn`).
  ///
  /// Defaults: `table` is the lower-cased entity name; `primaryKey` is `id`; a to-one's
  /// `foreignKey` is `<relationship>_id` on the source table; a to-many's
  /// `inverseForeignKey` is `<source table>_id` on the target table; a to-many with
  /// `"joinTable"` is many-to-many with `sourceColumn` `<source table>_id` and
  /// `targetColumn` `<target table>_id`. Attributes are ordered primary key first, then by
  /// name (JSON objects are unordered).
  ///
  /// ```swift
  /// let schema = try SQLSchema(json: #"{"entities": {"Item": {"attributes": {"name": "string"}}}}"#)
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `invalid-schema`).
  public init(json: String) throws(SiftError) {
    let root: SiftValue
    do { root = try SiftJSON.parse(json) } catch {
      throw SQLSchema.invalid("schema is not valid JSON: \(error)")
    }
    try self.init(value: root)
  }

  /// Loads a schema from an already parsed JSON value (see `init(json:)`).
  ///
  /// ```swift
  /// let schema = try SQLSchema(value: ["entities": ["Item": ["attributes": ["n": "integer"]]]])
  /// ```
  public init(value root: SiftValue) throws(SiftError) {
    let file = try SchemaFile(root)
    var entities: [SQLEntity] = []
    let tables = try file.tables(base: nil)
    for name in file.entities.keys.sorted() {
      guard let d = file.entities[name], let table = tables[name] else { continue }
      entities.append(try SQLSchema.entity(name, table: table, d, tables: tables, base: nil))
    }
    try self.init(entities: entities, dateEncoding: file.dateEncoding ?? .unixSeconds, layout: file.layout ?? .sift)
  }

  /// This schema with a schema file laid over it: how a schema read from a database is
  /// corrected or completed. For each entity of the file:
  /// - a new name adds the entity, read exactly as `init(json:)` reads it;
  /// - an existing name keeps the entity and changes what the file says: `table`,
  ///   `primaryKey`, `view`, `indexes` replace; each attribute given replaces the one of that
  ///   name field by field (`{"created": {"dateEncoding": "isoDate"}}` changes only the
  ///   encoding; a plain type name or a `"type"` changes the type) or is added; each
  ///   relationship given replaces the one of that name or is added; `"exclude": [names]`
  ///   removes attributes or relationships. A new attribute on a column the entity already
  ///   reads under a name the file does not mention renames it (that name goes, unless it is the
  ///   primary key; name both to
  ///   keep both), and so does a new relationship with the same target and keys.
  /// Top-level `dateEncoding` and `layout` replace the schema's. The result is checked as a
  /// whole (`invalid-schema`), so a relationship may target an entity read from the database.
  ///
  /// ```swift
  /// let schema = try db.introspectSchema().schema.merging(json: #"""
  ///   {"entities": {"message": {"exclude": ["sender_id"],
  ///     "relationships": {"sender": {"toOne": "person", "foreignKey": "sender_id"}}}}}
  ///   """#)
  /// ```
  /// - Throws: `SiftError` (stage `.sql`, id `invalid-schema`).
  public func merging(json: String) throws(SiftError) -> SQLSchema {
    let root: SiftValue
    do { root = try SiftJSON.parse(json) } catch {
      throw SQLSchema.invalid("schema is not valid JSON: \(error)")
    }
    return try merging(value: root)
  }

  /// See `merging(json:)`.
  public func merging(value root: SiftValue) throws(SiftError) -> SQLSchema {
    let file = try SchemaFile(root)
    let tables = try file.tables(base: self)
    var result: [String: SQLEntity] = entities
    for name in file.entities.keys.sorted() {
      guard let d = file.entities[name], let table = tables[name] else { continue }
      result[name] = try SQLSchema.entity(name, table: table, d, tables: tables, base: entities[name])
    }
    return try SQLSchema(
      entities: result.keys.sorted().compactMap { result[$0] }, dateEncoding: file.dateEncoding ?? dateEncoding,
      layout: file.layout ?? layout)
  }

  /// The top level of a schema file, checked but not yet turned into entities.
  private struct SchemaFile {
    var entities: [String: [String: SiftValue]] = [:]
    var dateEncoding: SQLDateEncoding?
    var layout: SQLStorageLayout?

    init(_ root: SiftValue) throws(SiftError) {
      guard case .dictionary(let top) = root, case .dictionary(let entitiesJSON)? = top["entities"] else {
        throw SQLSchema.invalid("schema must be an object with an \"entities\" object")
      }
      if let e = top["dateEncoding"] {
        guard case .string(let s) = e, let enc = SQLDateEncoding(rawValue: s) else {
          throw SQLSchema.invalid("dateEncoding must be \"secondsSince1970\" or \"secondsSince2001\"")
        }
        dateEncoding = enc
      }
      if let l = top["layout"] {
        guard case .string(let s) = l, let value = SQLStorageLayout(rawValue: s) else {
          throw SQLSchema.invalid("layout must be \"sift\" or \"existing\"")
        }
        layout = value
      }
      for (name, v) in entitiesJSON {
        guard case .dictionary(let d) = v else { throw SQLSchema.invalid("entity \(name) must be an object") }
        entities[name] = d
      }
    }

    /// Every entity's table (needed for relationship defaults): the file's, else the base
    /// schema's, else the lower-cased name.
    func tables(base: SQLSchema?) throws(SiftError) -> [String: String] {
      var tables: [String: String] = [:]
      for (name, e) in base?.entities ?? [:] { tables[name] = e.table }
      for (name, d) in entities {
        if let t = d["table"] {
          guard case .string(let s) = t else { throw SQLSchema.invalid("\(name).table must be a string") }
          tables[name] = s
        } else if tables[name] == nil {
          tables[name] = name.lowercased()
        }
      }
      return tables
    }
  }

  private static func string(_ v: SiftValue?, _ what: String) throws(SiftError) -> String? {
    guard let v else { return nil }
    guard case .string(let s) = v else { throw invalid("\(what) must be a string") }
    return s
  }

  private static func bool(_ v: SiftValue?, _ what: String) throws(SiftError) -> Bool? {
    guard let v else { return nil }
    guard case .bool(let b) = v else { throw invalid("\(what) must be true or false") }
    return b
  }

  private static func strings(_ v: SiftValue?, _ what: String) throws(SiftError) -> [String]? {
    guard let v else { return nil }
    guard case .array(let items) = v else { throw invalid("\(what) must be a list of strings") }
    var out: [String] = []
    for item in items {
      guard case .string(let s) = item else { throw invalid("\(what) must be a list of strings") }
      out.append(s)
    }
    return out
  }

  private static func entity(
    _ name: String, table: String, _ d: [String: SiftValue], tables: [String: String], base: SQLEntity?
  ) throws(SiftError) -> SQLEntity {
    let exclude = Set(try strings(d["exclude"], "\(name).exclude") ?? [])
    // Attributes: the base's (less the excluded), each replaced or extended by the file's.
    var attributes: [SQLAttribute] = (base?.attributes ?? []).filter { !exclude.contains($0.name) }
    if let a = d["attributes"] {
      guard case .dictionary(let attrs) = a else { throw invalid("\(name).attributes must be an object") }
      for key in attrs.keys.sorted() {
        guard let spec = attrs[key] else { continue }
        if let i = attributes.firstIndex(where: { $0.name == key }) {
          attributes[i] = try attribute(key, spec, entity: name, base: attributes[i])
        } else {
          let added = try attribute(key, spec, entity: name, base: nil)
          // A new name on a column the base already reads under a name the file does not
          // mention is a rename (a model's `createdAt` over a store's `createdat`).
          // The primary key stays (the file renames it with "primaryKey").
          let key = base?.primaryKey
          attributes.removeAll {
            $0.column == added.column && attrs[$0.name] == nil && !$0.type.isArray && $0.name != key
          }
          attributes.append(added)
        }
      }
    }
    // The primary key: a name, a list (composite, or none), or the base's.
    var pk = base?.primaryKey ?? "id"
    var pkColumns: [String]? = base?.primaryKeyColumns
    switch d["primaryKey"] {
    case nil: break
    case .string(let s)?:
      pk = s
      pkColumns = nil
    case .array?:
      let names = try strings(d["primaryKey"], "\(name).primaryKey") ?? []
      guard let first = names.first ?? attributes.first?.name else {
        throw invalid("\(name) has no primary key and no attributes")
      }
      pk = first
      var columns: [String] = []
      for n in names {
        guard let a = attributes.first(where: { $0.name == n }) else {
          throw invalid("primary key \(name).\(n) is not an attribute")
        }
        columns.append(a.column)
      }
      pkColumns = columns
    default:
      throw invalid("\(name).primaryKey must be an attribute name or a list of them")
    }
    if pkColumns == nil, let a = attributes.first(where: { $0.name == pk }) { pkColumns = [a.column] }
    var relationships: [SQLRelationship] = (base?.relationships ?? []).filter { !exclude.contains($0.name) }
    if let r = d["relationships"] {
      guard case .dictionary(let rels) = r else { throw invalid("\(name).relationships must be an object") }
      for key in rels.keys.sorted() {
        guard case .dictionary(let spec)? = rels[key] else {
          throw invalid("relationship \(name).\(key) must be an object such as {\"toOne\": \"Entity\"}")
        }
        let rel = try relationship(key, spec, entity: name, table: table, tables: tables)
        if let i = relationships.firstIndex(where: { $0.name == key }) {
          relationships[i] = rel
        } else {
          // The same link under a new name renames the one read (see attributes).
          relationships.removeAll { $0.kind == rel.kind && $0.target == rel.target && rels[$0.name] == nil }
          relationships.append(rel)
        }
      }
    }
    var indexes = base?.indexes ?? []
    if let list = d["indexes"] {
      guard case .array(let items) = list else { throw invalid("\(name).indexes must be a list") }
      indexes = []
      for item in items {
        guard case .dictionary(let spec) = item, let n = try string(spec["name"], "\(name).indexes[].name") else {
          throw invalid("each of \(name).indexes needs a \"name\"")
        }
        indexes.append(
          SQLIndex(
            name: n, columns: try strings(spec["columns"], "\(name).indexes[].columns") ?? [],
            isUnique: try bool(spec["unique"], "\(name).indexes[].unique") ?? false,
            hasExpressions: try bool(spec["expressions"], "\(name).indexes[].expressions") ?? false,
            isPartial: try bool(spec["partial"], "\(name).indexes[].partial") ?? false,
            collations: try strings(spec["collations"], "\(name).indexes[].collations") ?? []))
      }
    }
    let isView = try bool(d["view"], "\(name).view") ?? base?.isView ?? false
    var rowFilter = base?.rowFilter
    if let column = try string(d["entityColumn"], "\(name).entityColumn"),
      d["entityValues"] != nil || d["ownEntityValues"] == nil
    {
      guard case .array(let items)? = d["entityValues"] else {
        throw invalid("\(name).entityColumn needs \"entityValues\": a list of integers")
      }
      var values: [Int64] = []
      for item in items {
        guard case .int(let n) = item else { throw invalid("\(name).entityValues must be integers") }
        values.append(n)
      }
      rowFilter = SQLRowFilter(column: column, values: values)
    } else if d["entityValues"] != nil {
      throw invalid("\(name).entityValues needs \"entityColumn\"")
    }
    var entity = SQLEntity(
      name: name, table: table, primaryKey: pk, attributes: attributes, relationships: relationships,
      primaryKeyColumns: pkColumns, isView: isView, indexes: indexes, rowFilter: rowFilter)
    entity.ownRows = base?.ownRows
    if let own = d["ownEntityValues"] {
      guard case .array(let items) = own, !items.isEmpty,
        let column = try string(d["entityColumn"], "\(name).entityColumn")
          ?? base?.rowFilter?.column
      else {
        throw invalid("\(name).ownEntityValues needs \"entityColumn\" and a list of integers")
      }
      var values: [Int64] = []
      for item in items {
        guard case .int(let n) = item else { throw invalid("\(name).ownEntityValues must be integers") }
        values.append(n)
      }
      entity.ownRows = SQLRowFilter(column: column, values: values)
    }
    return entity
  }

  private static func attribute(
    _ key: String, _ spec: SiftValue, entity: String, base: SQLAttribute?
  ) throws(SiftError) -> SQLAttribute {
    let what = "\(entity).\(key)"
    func type(_ s: String) throws(SiftError) -> SQLAttributeType {
      guard let t = SQLAttributeType(rawValue: s) else {
        let names = SQLAttributeType.allCases.map(\.rawValue)
        let hint = Spelling.closest(to: s, in: names).map { "; did you mean '\($0)'?" } ?? ""
        throw invalid("attribute \(what) has unknown type '\(s)'\(hint)")
      }
      return t
    }
    /// A new type drops the encodings that belonged to the old one.
    func retyped(_ a: SQLAttribute, _ t: SQLAttributeType) -> SQLAttribute {
      var a = a
      if a.type != t {
        a.type = t
        a.dateEncoding = nil
        a.arrayStorage = nil
      }
      return a
    }
    switch spec {
    case .string(let s):
      if let base { return retyped(base, try type(s)) }
      return SQLAttribute(name: key, type: try type(s))
    case .dictionary(let d):
      var a: SQLAttribute
      if let t = try string(d["type"], "\(what).type") {
        a = base.map { retyped($0, SQLAttributeType.string) } ?? SQLAttribute(name: key, type: .string)
        a = retyped(a, try type(t))
      } else if let base {
        a = base
      } else {
        throw invalid("attribute \(what) needs a \"type\"")
      }
      if let c = try string(d["column"], "\(what).column") { a.column = c }
      if let i = try bool(d["indexed"], "\(what).indexed") { a.indexed = i }
      if let n = try bool(d["nullable"], "\(what).nullable") { a.isNullable = n }
      if let n = try string(d["nativeType"], "\(what).nativeType") { a.nativeType = n }
      if let e = try string(d["dateEncoding"], "\(what).dateEncoding") {
        guard let enc = SQLDateEncoding(rawValue: e) else {
          throw invalid(
            "\(what).dateEncoding must be one of " + SQLDateEncoding.allCases.map(\.rawValue).joined(separator: ", "))
        }
        a.dateEncoding = enc
      }
      if let e = try string(d["arrayStorage"], "\(what).arrayStorage") {
        guard let storage = SQLArrayStorage(rawValue: e) else {
          throw invalid(
            "\(what).arrayStorage must be one of " + SQLArrayStorage.allCases.map(\.rawValue).joined(separator: ", "))
        }
        a.arrayStorage = storage
      }
      return a
    default:
      throw invalid("attribute \(what) must be a type name or an object")
    }
  }

  private static func relationship(
    _ key: String, _ d: [String: SiftValue], entity: String, table: String, tables: [String: String]
  ) throws(SiftError) -> SQLRelationship {
    let what = "\(entity).\(key)"
    if let target = try string(d["toOne"], "\(what).toOne") {
      let fk = try string(d["foreignKey"], "\(what).foreignKey") ?? key + "_id"
      if d["orderColumn"] != nil { throw invalid("relationship \(what) is to-one: it has no order column") }
      return SQLRelationship(name: key, target: target, kind: .toOne(foreignKey: fk))
    }
    guard let target = try string(d["toMany"], "\(what).toMany") else {
      throw invalid("relationship \(what) needs \"toOne\" or \"toMany\"")
    }
    let order = try string(d["orderColumn"], "\(what).orderColumn")
    if let join = try string(d["joinTable"], "\(what).joinTable") {
      let targetTable = tables[target] ?? target.lowercased()
      let source = try string(d["sourceColumn"], "\(what).sourceColumn") ?? table + "_id"
      let dest = try string(d["targetColumn"], "\(what).targetColumn") ?? targetTable + "_id"
      return SQLRelationship(
        name: key, target: target, kind: .manyToMany(joinTable: join, sourceColumn: source, targetColumn: dest),
        orderColumn: order)
    }
    let fk = try string(d["inverseForeignKey"], "\(what).inverseForeignKey") ?? table + "_id"
    return SQLRelationship(name: key, target: target, kind: .toMany(inverseForeignKey: fk), orderColumn: order)
  }
}
