import SiftSyntax

/// Reads the `main` database of an SQLite connection: `pragma_table_list` (or `sqlite_master`
/// before SQLite 3.37), `pragma_table_xinfo`, `pragma_foreign_key_list`, `pragma_index_list`
/// and `pragma_index_xinfo`, each with the table name bound; then bounded samples of date and
/// JSON columns (identifiers quoted).
struct SQLiteCatalogReader {
  var db: any SQLDatabase
  var sampleLimit: Int

  private func rows(_ sql: String, _ bindings: [SQLValue] = []) throws -> [[SQLValue]] {
    try db.execute(SQLStatement(sql: sql, bindings: bindings))
  }

  static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

  func read() throws -> IntrospectedCatalog {
    var list: [[SQLValue]]
    do {
      list = try rows(
        "SELECT name, type, strict FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'view') "
          + "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
    } catch {
      list = try rows(
        "SELECT name, type, 0 FROM sqlite_master WHERE type IN ('table', 'view') "
          + "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND coalesce(sql, '') NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
    }
    var catalog = IntrospectedCatalog(tables: [])
    for row in list {
      guard row.count == 3, case .text(let name) = row[0], case .text(let type) = row[1] else { continue }
      guard type == "view" else {
        let strict = row[2].intValue == 1
        catalog.tables.append(try table(name, isView: false, strict: strict, warnings: &catalog.warnings))
        continue
      }
      // A view that no longer compiles (a table it reads was dropped, a column renamed) fails
      // as soon as its columns are asked for: it is left out with a note naming it and why.
      var warnings = catalog.warnings
      do {
        catalog.tables.append(try table(name, isView: true, warnings: &warnings))
        catalog.warnings = warnings
      } catch {
        let why = (error as? SiftError)?.diagnostic.message ?? "\(error)"
        catalog.warnings.append(
          SQLIntrospectionWarning(
            kind: .brokenView, table: name, columns: [],
            message: "view \(name) does not compile (\(why)); left out, the other tables and views open"))
      }
    }
    return catalog
  }

  private func table(_ name: String, isView: Bool, strict: Bool = false, warnings: inout [SQLIntrospectionWarning])
    throws
    -> IntrospectedTable
  {
    let info = try rows(
      "SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid", [.text(name)])
    let names = Set(info.compactMap { if case .text(let n)? = $0.first { return n } else { return nil } })
    // A Core Data store: its dates are seconds since 2001.
    let coreData = names.isSuperset(of: ["Z_PK", "Z_ENT", "Z_OPT"])
    var columns: [IntrospectedColumn] = []
    var keyed: [(Int64, String)] = []
    for r in info {
      guard r.count == 5, case .text(let column) = r[0] else { continue }
      if r[4].intValue == 1 { continue }  // hidden column of a virtual table
      let declared: String
      if case .text(let d) = r[1] { declared = d } else { declared = "" }
      if let pk = r[3].intValue, pk > 0 { keyed.append((pk, column)) }
      var c = IntrospectedColumn(
        name: column, nativeType: declared, isNullable: r[2].intValue != 1, type: nil, dateEncoding: nil,
        arrayStorage: nil)
      try classify(&c, table: name, coreData: coreData, strict: strict, warnings: &warnings)
      columns.append(c)
    }
    var foreignKeys: [IntrospectedForeignKey] = []
    var current: (id: Int64, fk: IntrospectedForeignKey)?
    for r in try rows(
      "SELECT id, seq, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", [.text(name)])
    {
      guard r.count == 5, let id = r[0].intValue, case .text(let target) = r[2], case .text(let from) = r[3] else {
        continue
      }
      if current?.id != id {
        if let done = current?.fk { foreignKeys.append(done) }
        current = (
          id, IntrospectedForeignKey(columns: [], table: target, targetDescription: target, referencedColumns: [])
        )
      }
      current?.fk.columns.append(from)
      if case .text(let to) = r[4] { current?.fk.referencedColumns.append(to) }
    }
    if let done = current?.fk { foreignKeys.append(done) }
    // `REFERENCES t` without columns means t's primary key; SQLite reports NULL for `to`.
    for i in foreignKeys.indices where foreignKeys[i].referencedColumns.count != foreignKeys[i].columns.count {
      foreignKeys[i].referencedColumns = []
    }
    var indexes: [SQLIndex] = []
    if !isView {
      for r in try rows("SELECT name, \"unique\", partial FROM pragma_index_list(?) ORDER BY name", [.text(name)]) {
        guard r.count == 3, case .text(let index) = r[0] else { continue }
        var cols: [String] = []
        var collations: [String] = []
        var expressions = false
        // The key columns (key = 1; the rest are the rowid or a WITHOUT ROWID table's key)
        // with their collating sequence, which decides what comparisons the index serves.
        let keys = "SELECT name, coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno"
        for k in try rows(keys, [.text(index)]) {
          guard k.count == 2, case .text(let n) = k[0] else {
            expressions = true
            continue
          }
          cols.append(n)
          if case .text(let c) = k[1] { collations.append(c) } else { collations.append("BINARY") }
        }
        indexes.append(
          SQLIndex(
            name: index, columns: cols, isUnique: r[1].intValue == 1, hasExpressions: expressions,
            isPartial: r[2].intValue == 1, collations: collations))
      }
    }
    // Tables without a declared key are rowid tables; the rowid is not a column, so they are keyless here.
    return IntrospectedTable(
      name: name, isView: isView, columns: columns, primaryKey: keyed.sorted { $0.0 < $1.0 }.map(\.1),
      foreignKeys: foreignKeys, indexes: indexes)
  }

  /// SQLite's affinity rules, after two of Sift's own: a declared type containing `BOOL` is a
  /// boolean, one containing `DATE` or `TIME` (but not exactly `TIME`) a date, one containing
  /// `JSON` an array if its values are JSON arrays. A STRICT table's `ANY` column keeps every
  /// value as given: `.any`, each row compared by the kind it stores. A column with no declared
  /// type (a view's expression, BLOB affinity) takes the one storage class its values share,
  /// else `.any` too. A non-STRICT `ANY` (NUMERIC affinity, which turns the text '42' of a
  /// comparison into 42) takes the one storage class its values share, else is left out.
  private func classify(
    _ c: inout IntrospectedColumn, table: String, coreData: Bool, strict: Bool,
    warnings: inout [SQLIntrospectionWarning]
  ) throws {
    let t = c.nativeType.uppercased()
    func has(_ s: String) -> Bool { t.contains(s) }
    if has("BOOL") {
      c.type = .boolean
    } else if (has("DATE") || has("TIME")) && t != "TIME" {
      c.type = .date
      let (encoding, warning) = IntrospectedColumn.dateEncoding(
        sample: try sample(table, c.name), table: table, column: c.name, declared: c.nativeType, coreData: coreData)
      c.dateEncoding = encoding
      if let warning { warnings.append(warning) }
    } else if has("JSON") {
      try jsonArray(&c, table: table, warnings: &warnings)
    } else if has("INT") {
      c.type = .integer
    } else if has("CHAR") || has("CLOB") || has("TEXT") {
      c.type = .string
    } else if has("BLOB") {
      c.type = .data
    } else if t == "ANY" && strict {
      c.type = .any
    } else if t.isEmpty || t == "ANY" {
      let kinds = Set(
        try sample(table, c.name).map { v -> String in
          switch v {
          case .integer: return "integer"
          case .double: return "double"
          case .text: return "string"
          case .blob: return "data"
          default: return "other"
          }
        })
      if kinds.count == 1, let k = kinds.first, let type = SQLAttributeType(rawValue: k) {
        c.type = type
      } else if t.isEmpty {
        c.type = .any  // BLOB affinity: each value kept and compared as given
      } else {
        warnings.append(
          SQLIntrospectionWarning(
            kind: .unsupportedColumn, table: table, columns: [c.name], member: c.name,
            message:
              "\(c.name) is declared ANY outside a STRICT table (NUMERIC affinity) and its values "
              + "\(kinds.isEmpty ? "are all NULL" : "mix " + kinds.sorted().joined(separator: ", ")); "
              + "left out (give it a type in a schema file)"))
      }
    } else {
      c.type = .double  // REAL, FLOAT, DOUBLE, and NUMERIC affinity (NUMERIC, DECIMAL(10,2), …)
    }
  }

  private func sample(_ table: String, _ column: String) throws -> [SQLValue] {
    let q = SQLiteCatalogReader.quote(column)
    return try rows(
      "SELECT \(q) FROM \(SQLiteCatalogReader.quote(table)) WHERE \(q) IS NOT NULL LIMIT ?",
      [.integer(Int64(sampleLimit))]
    ).compactMap(\.first)
  }

  /// A column declared JSON: an array attribute read with `json_each` when every sampled
  /// value is a JSON array of one element kind (`IntrospectedColumn.adoptJSONArray`).
  private func jsonArray(_ c: inout IntrospectedColumn, table: String, warnings: inout [SQLIntrospectionWarning]) throws
  {
    let q = SQLiteCatalogReader.quote(c.name)
    let sql = """
      SELECT CASE WHEN json_valid(v) AND json_type(v) = 'array' THEN 'array' ELSE 'other' END, \
      (SELECT group_concat(DISTINCT e.type) FROM json_each(CASE WHEN json_valid(v) AND json_type(v) = 'array' THEN v ELSE '[]' END) AS e) \
      FROM (SELECT \(q) AS v FROM \(SQLiteCatalogReader.quote(table)) WHERE \(q) IS NOT NULL LIMIT ?)
      """
    var shapes = Set<String>()
    var elements = Set<String>()
    for r in try rows(sql, [.integer(Int64(sampleLimit))]) {
      if case .text(let s)? = r.first { shapes.insert(s) }
      if case .text(let list)? = r.last { for e in list.split(separator: ",") { elements.insert(String(e)) } }
    }
    c.adoptJSONArray(shapes: shapes, elementKinds: elements, table: table, warnings: &warnings)
  }
}
