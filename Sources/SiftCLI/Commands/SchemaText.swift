import SiftSQL

/// `sift schema --text`: the schema Sift queries with, for reading rather than saving — each
/// entity's table, primary key and row filter, attributes (column, type), relationships (kind,
/// keys, the order column of an ordered one) and unique indexes other than the primary key's (a
/// Core Data model's uniqueness constraints among them). The JSON form (the default) is the
/// schema file `--schema` takes.
enum SchemaText {
  static func render(_ schema: SQLSchema) -> String {
    var out = ""
    for name in schema.entityNames {
      guard let e = schema.entity(name) else { continue }
      let key =
        e.primaryKeyColumns.isEmpty ? "no primary key" : "primary key \(e.primaryKeyColumns.joined(separator: ", "))"
      out += "entity \(e.name): table \(e.table), \(key)"
      if let f = e.rowFilter {
        out += ", rows with \(f.column) in \(f.values.map(String.init).joined(separator: ", "))"
      }
      out += "\n"
      for a in e.attributes {
        out += "  attribute \(a.name): \(a.type.rawValue), column \(a.column)\n"
      }
      for r in e.relationships {
        let keys: String
        switch r.kind {
        case .toOne(let fk): keys = "to-one, foreign key \(fk)"
        case .toMany(let fk): keys = "to-many, inverse foreign key \(fk)"
        case .manyToMany(let join, let source, let target):
          keys = "many-to-many, join table \(join)(\(source), \(target))"
        }
        out += "  relationship \(r.name) -> \(r.target): \(keys)"
        out += r.orderColumn.map { ", ordered by \($0)\n" } ?? "\n"
      }
      for index in e.indexes where index.isUnique && index.columns != e.primaryKeyColumns {
        out += "  unique \(index.name): \(index.columns.joined(separator: ", "))\n"
      }
    }
    return out
  }
}
