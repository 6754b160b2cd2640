import SiftSQL
import SiftSyntax

/// Watchers whose compiled SQL has the same text and the same kinds of bound values share one
/// statement (as Hasura's live queries do): each parameter becomes an array holding every
/// watcher's value, `unnest` turns the arrays back into one row per watcher, and the watcher's
/// query runs once per such row through `CROSS JOIN LATERAL`, its rows tagged with the
/// watcher's position:
///
/// ```sql
/// SELECT w.sift_w, r.* FROM unnest($1::int8[], $2::float8[]) AS w(sift_w, p1)
///   CROSS JOIN LATERAL (SELECT … WHERE t0."rating" > w.p1 ORDER BY … LIMIT …) AS r
/// ```
///
/// Values stay bound: each array travels as one bound text parameter (PostgreSQL's array
/// syntax, every element quoted), cast to the parameter's type. A statement with a NULL or
/// bytes binding runs alone (its parameter type is left to the server).
struct PostgresLiveShape: Hashable {
  var sql: String
  var kinds: [String]

  /// The shape of `statement`, or nil when it cannot share (a NULL or bytes binding).
  init?(_ statement: SQLStatement) {
    var kinds: [String] = []
    for b in statement.bindings {
      guard let type = Self.type(of: b) else { return nil }
      kinds.append(type)
    }
    sql = statement.sql
    self.kinds = kinds
  }

  /// The PostgreSQL type a binding travels as (SiftPostgres's wire types).
  static func type(of value: SQLValue) -> String? {
    switch value {
    case .integer: return "int8"
    case .double: return "float8"
    case .text: return "text"
    case .bool: return "boolean"
    case .null, .blob: return nil
    }
  }

  /// One element of an array literal, quoted (`"…"` with `\` and `"` escaped).
  static func element(_ value: SQLValue) -> String {
    let text: String
    switch value {
    case .integer(let i): text = String(i)
    case .double(let d):
      if d.isNaN {
        text = "NaN"
      } else if d.isInfinite {
        text = d > 0 ? "Infinity" : "-Infinity"
      } else {
        text = "\(d)"
      }
    case .text(let s): text = s
    case .bool(let b): text = b ? "t" : "f"
    case .null, .blob: text = ""
    }
    var out = "\""
    for c in text.unicodeScalars {
      if c == "\\" || c == "\"" { out.unicodeScalars.append("\\") }
      out.unicodeScalars.append(c)
    }
    return out + "\""
  }

  /// The shared statement for these watchers' statements (all of this shape), in order: its
  /// rows start with the watcher's position (0-based) in `statements`.
  func statement(for statements: [SQLStatement]) -> SQLStatement {
    var arrays: [SQLValue] = [
      .text("{" + statements.indices.map { "\"\($0)\"" }.joined(separator: ",") + "}")
    ]
    var casts = ["$1::int8[]"]
    var names = ["sift_w"]
    for (k, type) in kinds.enumerated() {
      arrays.append(.text("{" + statements.map { Self.element($0.bindings[k]) }.joined(separator: ",") + "}"))
      casts.append("$\(k + 2)::\(type)[]")
      names.append("p\(k + 1)")
    }
    let inner = Self.replacingParameters(sql) { "w.p\($0)" }
    var s = SQLStatement(
      sql: "SELECT w.sift_w, r.* FROM unnest(\(casts.joined(separator: ", "))) AS w(\(names.joined(separator: ", ")))"
        + " CROSS JOIN LATERAL (\(inner)) AS r",
      bindings: arrays)
    s.schema = statements.first?.schema
    return s
  }

  /// `sql` with each placeholder `$n` outside quotes (identifiers `"…"`, strings `'…'`)
  /// replaced by `replacement(n)`.
  static func replacingParameters(_ sql: String, _ replacement: (Int) -> String) -> String {
    var out = ""
    var quote: Character?
    var i = sql.startIndex
    while i < sql.endIndex {
      let c = sql[i]
      if let q = quote {
        out.append(c)
        if c == q { quote = nil }
        i = sql.index(after: i)
        continue
      }
      if c == "\"" || c == "'" {
        quote = c
        out.append(c)
        i = sql.index(after: i)
        continue
      }
      if c == "$" {
        var j = sql.index(after: i)
        var digits = ""
        while j < sql.endIndex, let d = sql[j].wholeNumberValue, sql[j].isASCII {
          digits.append(String(d))
          j = sql.index(after: j)
        }
        if let n = Int(digits) {
          out += replacement(n)
          i = j
          continue
        }
      }
      out.append(c)
      i = sql.index(after: i)
    }
    return out
  }
}
