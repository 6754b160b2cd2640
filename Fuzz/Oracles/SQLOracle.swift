import SiftSQL
import SiftSQLite
import SiftSyntax

/// The SQL oracle: a parsed predicate either compiles, for SQLite and for PostgreSQL, or
/// throws a well-formed `.sql` error; compiled statements use exactly one placeholder per
/// binding (`?` for SQLite; `$1…$n`, each used, for PostgreSQL); and every SQLite statement
/// prepares (checked with `EXPLAIN QUERY PLAN`, which prepares without running).
///
/// ```swift
/// SQLOracle.check("name BEGINSWITH 'Blue' AND ANY tags == 'wifi'")   // nil
/// ```
public enum SQLOracle {
  /// Nil when the oracle holds for `text`.
  public static func check(_ text: String) -> FuzzFailure? {
    guard let p = PreparedInput.predicate(text), let schema = FuzzData.schema else { return nil }
    func fail(_ message: String) -> FuzzFailure {
      FuzzFailure(oracle: "sql", message: message + " (predicate \(p.predicateFormat))", input: text)
    }
    let dialects: [any SQLDialect] = [SQLiteDialect(), PostgreSQLDialect()]
    for dialect in dialects {
      let compiler = SQLCompiler(dialect: dialect, schema: schema)
      let statement: SQLStatement
      do {
        statement = try compiler.compileMatchingIndices(p, entity: FuzzData.entity)
      } catch {
        if let problem = DiagnosticChecks.problem(with: error, expectedStages: [.sql]) {
          return fail("\(dialect.name) compile: " + problem)
        }
        continue
      }
      if let problem = placeholderProblem(statement, dialect: dialect) {
        return fail("\(dialect.name): " + problem + "\n  SQL: \(statement.sql)")
      }
      if dialect is SQLiteDialect {
        switch FuzzData.sqlite {
        case .failure(let e): return fail(e.message)
        case .success(let db):
          do {
            _ = try db.withDatabase { try $0.explainQueryPlan(statement) }
          } catch {
            return fail("SQLite cannot prepare: \(error)\n  SQL: \(statement.sql)")
          }
        }
      }
    }
    return nil
  }

  /// Nil when `statement`'s placeholders fit its bindings.
  public static func placeholderProblem(_ statement: SQLStatement, dialect: any SQLDialect) -> String? {
    let found = placeholders(in: statement.sql)
    let n = statement.bindings.count
    if dialect is SQLiteDialect {
      if found.anonymous != n || !found.numbered.isEmpty {
        return "\(found.anonymous) '?' and \(found.numbered.count) '$n' placeholders for \(n) bindings"
      }
    } else {
      if found.anonymous != 0 || Set(found.numbered) != Set(n == 0 ? [] : Array(1...n)) {
        return "placeholders \(Set(found.numbered).sorted()) (and \(found.anonymous) '?') for \(n) bindings"
      }
    }
    return nil
  }

  /// `?` count and `$n` numbers outside quoted strings and identifiers.
  ///
  /// ```swift
  /// SQLOracle.placeholders(in: #"a = ? AND "?" = '$1' AND b = $2"#)   // (1, [2])
  /// ```
  public static func placeholders(in sql: String) -> (anonymous: Int, numbered: [Int]) {
    var anonymous = 0
    var numbered: [Int] = []
    var quote: UInt8? = nil
    let bytes = Array(sql.utf8)
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if let q = quote {
        if b == q { quote = nil }  // a doubled quote re-opens on the next byte
        i += 1
        continue
      }
      switch b {
      case UInt8(ascii: "'"), UInt8(ascii: "\""): quote = b
      case UInt8(ascii: "?"): anonymous += 1
      case UInt8(ascii: "$"):
        var j = i + 1
        var value = 0
        while j < bytes.count, (48...57).contains(bytes[j]), value < 1_000_000 {
          value = value * 10 + Int(bytes[j] - 48)
          j += 1
        }
        if j > i + 1 {
          numbered.append(value)
          i = j
          continue
        }
      default: break
      }
      i += 1
    }
    return (anonymous, numbered)
  }
}
