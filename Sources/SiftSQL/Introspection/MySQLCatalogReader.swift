/// Reads one database (schema) of a MySQL or MariaDB server from `information_schema`: tables
/// and views (`TABLES`), columns with their declared types (`COLUMNS.COLUMN_TYPE`), primary and
/// foreign keys (`KEY_COLUMN_USAGE`), indexes (`STATISTICS`); the database's name is bound
/// (`?`) and matched byte for byte, so `Shop` and `shop` stay apart. Nothing is sampled.
///
/// Types (SiftMySQL's article "MySQL and MariaDB"): `TINYINT(1)` and `BIT(1)` are booleans; other integers
/// (signed or unsigned), `YEAR` and `BIT(n)` integers; `FLOAT`, `DOUBLE`, `DECIMAL(p,s)`
/// doubles; `CHAR`, `VARCHAR`, the `TEXT`s, `ENUM`, `SET` and `JSON` (text on MariaDB) strings;
/// `BINARY`, `VARBINARY` and the `BLOB`s data; `DATETIME`/`TIMESTAMP` dates stored as
/// `yyyy-MM-dd HH:mm:ss[.ffffff]` UTC text (`sqliteDateTime`: the driver reads them so, the
/// session's time zone is UTC) and `DATE` dates as `yyyy-MM-dd` (`isoDate`). `TIME`, spatial
/// types and anything else are left out with a warning.
struct MySQLCatalogReader {
  var db: any SQLDatabase
  var database: String

  private func rows(_ sql: String) throws -> [[SQLValue]] {
    try db.execute(SQLStatement(sql: sql, bindings: [.text(database), .text(database)]))
  }

  private static func text(_ v: SQLValue?) -> String? {
    if case .text(let s)? = v { return s }
    return nil
  }

  /// `information_schema` names are compared case-insensitively; `BINARY` keeps the match exact.
  static func inDatabase(_ column: String) -> String { "\(column) = ? AND BINARY \(column) = ?" }

  static let columnsSQL = """
    SELECT t.TABLE_NAME, t.TABLE_TYPE, c.COLUMN_NAME, c.COLUMN_TYPE, c.DATA_TYPE, c.IS_NULLABLE \
    FROM information_schema.TABLES t JOIN information_schema.COLUMNS c \
    ON c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME \
    WHERE \(inDatabase("t.TABLE_SCHEMA")) \
    ORDER BY t.TABLE_NAME, c.ORDINAL_POSITION
    """

  static let keysSQL = """
    SELECT k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION, k.COLUMN_NAME, k.REFERENCED_TABLE_SCHEMA, \
    k.REFERENCED_TABLE_NAME, k.REFERENCED_COLUMN_NAME \
    FROM information_schema.KEY_COLUMN_USAGE k \
    WHERE \(inDatabase("k.TABLE_SCHEMA")) \
    AND (k.CONSTRAINT_NAME = 'PRIMARY' OR k.REFERENCED_TABLE_NAME IS NOT NULL) \
    ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION
    """

  static let indexesSQL = """
    SELECT s.TABLE_NAME, s.INDEX_NAME, s.NON_UNIQUE, s.SEQ_IN_INDEX, s.COLUMN_NAME, s.SUB_PART \
    FROM information_schema.STATISTICS s \
    WHERE \(inDatabase("s.TABLE_SCHEMA")) \
    ORDER BY s.TABLE_NAME, s.INDEX_NAME, s.SEQ_IN_INDEX
    """

  func read() throws -> IntrospectedCatalog {
    var catalog = IntrospectedCatalog(tables: [])
    var order: [String] = []
    var tables: [String: IntrospectedTable] = [:]
    for r in try rows(MySQLCatalogReader.columnsSQL) {
      guard r.count == 6, let table = Self.text(r[0]), let kind = Self.text(r[1]), let column = Self.text(r[2]),
        let declared = Self.text(r[3])
      else { continue }
      if tables[table] == nil {
        order.append(table)
        tables[table] = IntrospectedTable(
          name: table, isView: kind == "VIEW", columns: [], primaryKey: [], foreignKeys: [], indexes: [])
      }
      var c = IntrospectedColumn(
        name: column, nativeType: declared, isNullable: Self.text(r[5]) != "NO", type: nil, dateEncoding: nil,
        arrayStorage: nil)
      (c.type, c.dateEncoding) = Self.classify(declared: declared.lowercased(), dataType: Self.text(r[4]) ?? "")
      if c.type == nil {
        catalog.warnings.append(
          SQLIntrospectionWarning(
            kind: .unsupportedColumn, table: table, columns: [column], member: column,
            message: "\(column) has type \(declared), which Sift cannot compare; left out"))
      }
      tables[table]?.columns.append(c)
    }
    // Keys: one row per key column; a foreign key's constraint name groups its columns.
    var foreignKeys: [String: [(name: String, fk: IntrospectedForeignKey)]] = [:]
    for r in try rows(MySQLCatalogReader.keysSQL) {
      guard r.count == 7, let table = Self.text(r[0]), let name = Self.text(r[1]), let column = Self.text(r[3]),
        tables[table] != nil
      else { continue }
      guard let targetTable = Self.text(r[5]) else {
        tables[table]?.primaryKey.append(column)
        continue
      }
      let targetDatabase = Self.text(r[4]) ?? database
      var list = foreignKeys[table] ?? []
      if list.last?.name != name {
        let here = targetDatabase == database
        list.append(
          (
            name,
            IntrospectedForeignKey(
              columns: [], table: here ? targetTable : nil,
              targetDescription: here ? targetTable : "\(targetDatabase).\(targetTable)", referencedColumns: [])
          ))
      }
      list[list.count - 1].fk.columns.append(column)
      if let to = Self.text(r[6]) { list[list.count - 1].fk.referencedColumns.append(to) }
      foreignKeys[table] = list
    }
    for (table, list) in foreignKeys { tables[table]?.foreignKeys = list.map(\.fk) }
    // Indexes: one row per key part; a NULL column is an expression (MySQL's functional
    // indexes), a prefix (`SUB_PART`) indexes part of the column, so counts as one too.
    var indexes: [String: [SQLIndex]] = [:]
    for r in try rows(MySQLCatalogReader.indexesSQL) {
      guard r.count == 6, let table = Self.text(r[0]), let name = Self.text(r[1]), tables[table] != nil else {
        continue
      }
      var list = indexes[table] ?? []
      if list.last?.name != name {
        list.append(SQLIndex(name: name, columns: [], isUnique: r[2].intValue == 0, isPartial: false))
      }
      if let column = Self.text(r[4]), r[5] == .null {
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

  /// The attribute type (and date encoding) of a column declared `declared` (`COLUMN_TYPE`,
  /// lower-cased: `tinyint(1)`, `bigint(20) unsigned`, `decimal(10,2)`, `datetime(6)`) whose
  /// `DATA_TYPE` is `dataType`.
  static func classify(declared: String, dataType: String) -> (SQLAttributeType?, SQLDateEncoding?) {
    switch dataType.lowercased() {
    case "tinyint" where declared.hasPrefix("tinyint(1)"), "bool", "boolean": return (.boolean, nil)
    case "bit" where declared == "bit(1)": return (.boolean, nil)
    case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "year", "bit": return (.integer, nil)
    case "float", "double", "real", "decimal", "numeric", "double precision": return (.double, nil)
    case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set", "json":
      return (.string, nil)
    case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob": return (.data, nil)
    case "date": return (.date, .isoDate)
    case "datetime", "timestamp": return (.date, .sqliteDateTime)
    default: return (nil, nil)
    }
  }
}
