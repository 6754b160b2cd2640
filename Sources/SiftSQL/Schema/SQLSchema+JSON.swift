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
    guard case .dictionary(let top) = root, case .dictionary(let entitiesJSON)? = top["entities"] else {
      throw SQLSchema.invalid("schema must be an object with an \"entities\" object")
    }
    var encoding = SQLDateEncoding.unixSeconds
    if let e = top["dateEncoding"] {
      guard case .string(let s) = e, let enc = SQLDateEncoding(rawValue: s) else {
        throw SQLSchema.invalid("dateEncoding must be \"secondsSince1970\" or \"secondsSince2001\"")
      }
      encoding = enc
    }
    // Tables are needed for relationship defaults, so read them first.
    var tables: [String: String] = [:]
    for (name, v) in entitiesJSON {
      guard case .dictionary(let d) = v else { throw SQLSchema.invalid("entity \(name) must be an object") }
      if let t = d["table"] {
        guard case .string(let s) = t else { throw SQLSchema.invalid("\(name).table must be a string") }
        tables[name] = s
      } else {
        tables[name] = name.lowercased()
      }
    }
    var entities: [SQLEntity] = []
    for name in entitiesJSON.keys.sorted() {
      guard case .dictionary(let d)? = entitiesJSON[name], let table = tables[name] else { continue }
      entities.append(try SQLSchema.entity(name, table: table, d, tables: tables))
    }
    try self.init(entities: entities, dateEncoding: encoding)
  }

  private static func string(_ v: SiftValue?, _ what: String) throws(SiftError) -> String? {
    guard let v else { return nil }
    guard case .string(let s) = v else { throw invalid("\(what) must be a string") }
    return s
  }

  private static func entity(
    _ name: String, table: String, _ d: [String: SiftValue], tables: [String: String]
  ) throws(SiftError) -> SQLEntity {
    let pk = try string(d["primaryKey"], "\(name).primaryKey") ?? "id"
    var attributes: [SQLAttribute] = []
    if let a = d["attributes"] {
      guard case .dictionary(let attrs) = a else { throw invalid("\(name).attributes must be an object") }
      for key in attrs.keys.sorted() {
        guard let spec = attrs[key] else { continue }
        attributes.append(try attribute(key, spec, entity: name))
      }
    }
    var relationships: [SQLRelationship] = []
    if let r = d["relationships"] {
      guard case .dictionary(let rels) = r else { throw invalid("\(name).relationships must be an object") }
      for key in rels.keys.sorted() {
        guard case .dictionary(let spec)? = rels[key] else {
          throw invalid("relationship \(name).\(key) must be an object such as {\"toOne\": \"Entity\"}")
        }
        relationships.append(try relationship(key, spec, entity: name, table: table, tables: tables))
      }
    }
    return SQLEntity(name: name, table: table, primaryKey: pk, attributes: attributes, relationships: relationships)
  }

  private static func attribute(_ key: String, _ spec: SiftValue, entity: String) throws(SiftError) -> SQLAttribute {
    let what = "\(entity).\(key)"
    func type(_ s: String) throws(SiftError) -> SQLAttributeType {
      guard let t = SQLAttributeType(rawValue: s) else {
        let names = SQLAttributeType.allCases.map(\.rawValue)
        let hint = Spelling.closest(to: s, in: names).map { "; did you mean '\($0)'?" } ?? ""
        throw invalid("attribute \(what) has unknown type '\(s)'\(hint)")
      }
      return t
    }
    switch spec {
    case .string(let s):
      return SQLAttribute(name: key, type: try type(s))
    case .dictionary(let d):
      guard let t = try string(d["type"], "\(what).type") else { throw invalid("attribute \(what) needs a \"type\"") }
      var indexed = false
      if let i = d["indexed"] {
        guard case .bool(let b) = i else { throw invalid("\(what).indexed must be true or false") }
        indexed = b
      }
      return SQLAttribute(name: key, column: try string(d["column"], "\(what).column"), type: try type(t), indexed: indexed)
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
      return SQLRelationship(name: key, target: target, kind: .toOne(foreignKey: fk))
    }
    guard let target = try string(d["toMany"], "\(what).toMany") else {
      throw invalid("relationship \(what) needs \"toOne\" or \"toMany\"")
    }
    if let join = try string(d["joinTable"], "\(what).joinTable") {
      let targetTable = tables[target] ?? target.lowercased()
      let source = try string(d["sourceColumn"], "\(what).sourceColumn") ?? table + "_id"
      let dest = try string(d["targetColumn"], "\(what).targetColumn") ?? targetTable + "_id"
      return SQLRelationship(
        name: key, target: target, kind: .manyToMany(joinTable: join, sourceColumn: source, targetColumn: dest))
    }
    let fk = try string(d["inverseForeignKey"], "\(what).inverseForeignKey") ?? table + "_id"
    return SQLRelationship(name: key, target: target, kind: .toMany(inverseForeignKey: fk))
  }
}
