import SiftSQL
import SiftSyntax

/// `.plan` on a MySQL/MariaDB table: the server's `EXPLAIN` of the statement the REPL runs (its
/// bindings bound, as the statement runs), one line per table it reads, and the verdict.
extension REPLSession {
  /// `EXPLAIN`'s rows as lines: `t0: type range, key idx_rating (possible idx_rating), rows 12;
  /// Using where`. Columns are found by name (MySQL 8 adds `partitions` and `filtered`).
  func mysqlPlan(_ statement: SQLStatement, _ db: ExistingDatabase) throws -> [String] {
    let rows = try db.run(SQLStatement(sql: "EXPLAIN " + statement.sql, bindings: statement.bindings))
    return rows.map { row in
      let names = row.count >= 12 ? DatabasePlanVerdict.mysql8Columns : DatabasePlanVerdict.mariaDBColumns
      var cells: [String: String] = [:]
      for (name, value) in zip(names, row) {
        switch value {
        case .text(let s): cells[name] = s
        case .integer(let i): cells[name] = String(i)
        case .double(let d): cells[name] = String(d)
        default: break
        }
      }
      var line = "\(cells["table"] ?? "?"): type \(cells["type"] ?? "?")"
      if let key = cells["key"] { line += ", key \(key)" }
      if let possible = cells["possible_keys"] { line += " (possible \(possible))" }
      if let rows = cells["rows"] { line += ", rows \(rows)" }
      if let extra = cells["Extra"], !extra.isEmpty { line += "; \(extra)" }
      return line
    }
  }
}

extension DatabasePlanVerdict {
  /// The columns of MariaDB's `EXPLAIN`.
  static let mariaDBColumns = [
    "id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra",
  ]
  /// The columns of MySQL 8's `EXPLAIN`.
  static let mysql8Columns = [
    "id", "select_type", "table", "partitions", "type", "possible_keys", "key", "key_len", "ref", "rows", "filtered",
    "Extra",
  ]

  /// From the lines `REPLSession.mysqlPlan` made of `EXPLAIN`: the root table (alias `t0`) read
  /// through an index with a condition (`const`, `eq_ref`, `ref`, `range`, `index_merge`, …)
  /// is served by it; `ALL` and `index` (a whole index read in its order) read every row.
  static func mysql(_ lines: [String], table: String, entity: String, predicate: SiftPredicate) -> String {
    let shown = name(table, entity)
    guard let own = lines.first(where: { $0.hasPrefix("t0: ") }) else {
      return "no index serves the predicate on \(shown)"
    }
    let type = own.dropFirst("t0: type ".count).prefix { $0 != "," && $0 != ";" && $0 != " " }
    let searched = ["system", "const", "eq_ref", "ref", "fulltext", "ref_or_null", "index_merge", "range"]
    if searched.contains(String(type)), let key = mysqlKey(own) {
      return "index: \(key == "PRIMARY" ? "the primary key" : key) serves the predicate on \(shown)"
    }
    if isTrue(predicate) { return "no predicate: every row of \(shown) is read" }
    var line = "no index narrows the rows of \(shown): every row is read"
    if type == "index", let key = mysqlKey(own) { line += " (in the order of index \(key))" }
    return line
  }

  /// The `key` of a plan line, if any.
  static func mysqlKey(_ line: String) -> String? {
    guard let r = line.range(of: ", key ") else { return nil }
    return line[r.upperBound...].components(separatedBy: " ").first.map { $0.trimmingCharacters(in: [",", ";"]) }
  }
}
