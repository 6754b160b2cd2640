/// Reads one schema of a PostgreSQL database from `pg_catalog` (tables, partitioned tables,
/// views and materialized views; columns with their types resolved through domains;
/// primary-key and foreign-key constraints; indexes), the schema name bound as `$1`; then
/// bounded samples of `json`/`jsonb` columns (identifiers quoted).
struct PostgresCatalogReader {
  var db: any SQLDatabase
  var schema: String
  var sampleLimit: Int

  private func rows(_ sql: String, _ bindings: [SQLValue]) throws -> [[SQLValue]] {
    try db.execute(SQLStatement(sql: sql, bindings: bindings))
  }

  private static func text(_ v: SQLValue?) -> String? {
    if case .text(let s)? = v { return s }
    return nil
  }

  static let columnsSQL = """
    SELECT c.relname::text, c.relkind::text, a.attname::text, format_type(a.atttypid, a.atttypmod), \
    bt.typname::text, bt.typtype::text, et.typname::text, a.attnotnull \
    FROM pg_catalog.pg_class c \
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
    JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped \
    JOIN pg_catalog.pg_type t ON t.oid = a.atttypid \
    JOIN pg_catalog.pg_type bt ON bt.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END \
    LEFT JOIN pg_catalog.pg_type et ON et.oid = bt.typelem AND bt.typcategory = 'A' \
    WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm') AND NOT c.relispartition \
    ORDER BY c.relname, a.attnum
    """

  static let constraintsSQL = """
    SELECT c.relname::text, con.contype::text, con.conname::text, k.ord::int8, a.attname::text, \
    fc.relname::text, fn.nspname::text, fa.attname::text \
    FROM pg_catalog.pg_constraint con \
    JOIN pg_catalog.pg_class c ON c.oid = con.conrelid \
    JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
    CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord) \
    JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum \
    LEFT JOIN pg_catalog.pg_class fc ON fc.oid = con.confrelid \
    LEFT JOIN pg_catalog.pg_namespace fn ON fn.oid = fc.relnamespace \
    LEFT JOIN pg_catalog.pg_attribute fa ON fa.attrelid = con.confrelid AND fa.attnum = con.confkey[k.ord] \
    WHERE n.nspname = $1 AND con.contype IN ('p', 'f') \
    ORDER BY 1, 3, 4
    """

  static let indexesSQL = """
    SELECT t.relname::text, i.relname::text, ix.indisunique, ix.indpred IS NOT NULL, k.ord::int8, a.attname::text \
    FROM pg_catalog.pg_index ix \
    JOIN pg_catalog.pg_class t ON t.oid = ix.indrelid \
    JOIN pg_catalog.pg_class i ON i.oid = ix.indexrelid \
    JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace \
    CROSS JOIN LATERAL unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord) \
    LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0 \
    WHERE n.nspname = $1 AND k.ord <= ix.indnkeyatts \
    ORDER BY 1, 2, 5
    """

  func read() throws -> IntrospectedCatalog {
    var catalog = IntrospectedCatalog(tables: [])
    var order: [String] = []
    var tables: [String: IntrospectedTable] = [:]
    for r in try rows(PostgresCatalogReader.columnsSQL, [.text(schema)]) {
      guard r.count == 8, let table = Self.text(r[0]), let kind = Self.text(r[1]), let column = Self.text(r[2]),
        let format = Self.text(r[3]), let base = Self.text(r[4])
      else { continue }
      if tables[table] == nil {
        order.append(table)
        tables[table] = IntrospectedTable(
          name: table, isView: kind == "v" || kind == "m", columns: [], primaryKey: [], foreignKeys: [], indexes: [])
      }
      var c = IntrospectedColumn(
        name: column, nativeType: format, isNullable: r[7] != .bool(true) && r[7].intValue != 1, type: nil,
        dateEncoding: nil, arrayStorage: nil)
      try classify(
        &c, base: base, typtype: Self.text(r[5]) ?? "b", element: Self.text(r[6]), table: table,
        warnings: &catalog.warnings)
      tables[table]?.columns.append(c)
    }
    // Constraints: one row per key column.
    var foreignKeys: [String: [(name: String, fk: IntrospectedForeignKey)]] = [:]
    for r in try rows(PostgresCatalogReader.constraintsSQL, [.text(schema)]) {
      guard r.count == 8, let table = Self.text(r[0]), let type = Self.text(r[1]), let name = Self.text(r[2]),
        let column = Self.text(r[4]), tables[table] != nil
      else { continue }
      if type == "p" {
        tables[table]?.primaryKey.append(column)
        continue
      }
      let targetTable = Self.text(r[5]) ?? "?"
      let targetSchema = Self.text(r[6]) ?? schema
      var list = foreignKeys[table] ?? []
      if list.last?.name != name {
        list.append(
          (
            name,
            IntrospectedForeignKey(
              columns: [], table: targetSchema == schema ? targetTable : nil,
              targetDescription: targetSchema == schema ? targetTable : "\(targetSchema).\(targetTable)",
              referencedColumns: [])
          ))
      }
      list[list.count - 1].fk.columns.append(column)
      if let to = Self.text(r[7]) { list[list.count - 1].fk.referencedColumns.append(to) }
      foreignKeys[table] = list
    }
    for (table, list) in foreignKeys { tables[table]?.foreignKeys = list.map(\.fk) }
    // Indexes: one row per key column (NULL name: an expression).
    var indexes: [String: [SQLIndex]] = [:]
    for r in try rows(PostgresCatalogReader.indexesSQL, [.text(schema)]) {
      guard r.count == 6, let table = Self.text(r[0]), let name = Self.text(r[1]), tables[table] != nil else {
        continue
      }
      var list = indexes[table] ?? []
      if list.last?.name != name {
        list.append(SQLIndex(name: name, columns: [], isUnique: r[2] == .bool(true), isPartial: r[3] == .bool(true)))
      }
      if let column = Self.text(r[5]) {
        list[list.count - 1].columns.append(column)
      } else {
        list[list.count - 1].hasExpressions = true
      }
      indexes[table] = list
    }
    for (table, list) in indexes { tables[table]?.indexes = list }
    catalog.tables = order.sorted().compactMap { tables[$0] }
    return catalog
  }

  /// PostgreSQL types by their (domain-resolved) `typname`. Dates are native; arrays of text,
  /// integers and floating/numeric types are native arrays; `json`/`jsonb` arrays are read from
  /// their values; enums are strings; anything else is left out with a warning.
  private func classify(
    _ c: inout IntrospectedColumn, base: String, typtype: String, element: String?, table: String,
    warnings: inout [SQLIntrospectionWarning]
  ) throws {
    func scalar(_ name: String) -> SQLAttributeType? {
      switch name {
      case "bool": return .boolean
      case "int2", "int4", "int8", "oid": return .integer
      case "float4", "float8", "numeric", "money": return name == "money" ? nil : .double
      case "text", "varchar", "bpchar", "name", "citext", "uuid": return .string
      case "bytea": return .data
      case "timestamptz", "timestamp", "date": return .date
      default: return nil
      }
    }
    if let element {
      switch scalar(element) {
      case .string?: c.type = .stringArray
      case .integer?: c.type = .integerArray
      case .double?: c.type = .doubleArray
      default: break
      }
      if c.type != nil { c.arrayStorage = .nativeArray }
    } else if base == "json" || base == "jsonb" {
      try jsonArray(&c, table: table, warnings: &warnings)
      return
    } else if typtype == "e" {
      c.type = .string
    } else if let t = scalar(base) {
      c.type = t
      if t == .date { c.dateEncoding = .native }
    }
    if c.type == nil {
      warnings.append(
        SQLIntrospectionWarning(
          kind: .unsupportedColumn, table: table, columns: [c.name], member: c.name,
          message: "\(c.name) has type \(c.nativeType), which Sift cannot compare; left out"))
    }
  }

  /// A `json`/`jsonb` column: sampled here, typed by `IntrospectedColumn.adoptJSONArray`.
  private func jsonArray(_ c: inout IntrospectedColumn, table: String, warnings: inout [SQLIntrospectionWarning]) throws
  {
    let q = "\"" + c.name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    let t =
      "\"" + schema.replacingOccurrences(of: "\"", with: "\"\"") + "\".\""
      + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    let sql = """
      SELECT (SELECT string_agg(DISTINCT jsonb_typeof(s.v), ',') FROM s), \
      (SELECT string_agg(DISTINCT CASE jsonb_typeof(e) WHEN 'number' THEN \
      CASE WHEN e::text ~ '^-?[0-9]+$' THEN 'integer' ELSE 'real' END ELSE jsonb_typeof(e) END, ',') \
      FROM s CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(s.v) = 'array' THEN s.v ELSE '[]'::jsonb END) AS e)
      """
    let with = "WITH s AS (SELECT \(q)::jsonb AS v FROM \(t) WHERE \(q) IS NOT NULL LIMIT $1) "
    let r = try rows(with + sql, [.integer(Int64(sampleLimit))]).first ?? []
    let shapes = Set((Self.text(r.first) ?? "").split(separator: ",").map(String.init))
    let elements = Set((Self.text(r.last) ?? "").split(separator: ",").map(String.init))
    c.adoptJSONArray(shapes: shapes, elementKinds: elements, table: table, warnings: &warnings)
  }
}
