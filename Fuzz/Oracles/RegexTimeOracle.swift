import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax

/// The time-limit oracle for MATCHES (issue 35): a pattern — counted repetition welcome —
/// against long subjects, in memory and in SQLite, each under a time limit of
/// `milliseconds`. Each engine answers (both answers agree), or refuses the pattern
/// (`invalid-regex`), or stops with `regex-limit` (ICU's step budget) or `time-limit` — and
/// every call returns within `milliseconds + slackMilliseconds`: never late, never another
/// error, never a trap.
///
/// The input is up to three lines: the pattern; the unit the subjects repeat (default `xa`);
/// the options (`c`, `d` or `cd`). Records: the unit repeated to `subjectBytes`, the same plus
/// `b`, the unit once, and the empty string.
///
/// ```swift
/// RegexTimeOracle.check("(.*a){1000}b")   // nil: time-limit within the bound
/// ```
public enum RegexTimeOracle {
  /// The time limit every call runs under.
  public static let milliseconds = 50
  /// How late a call may return: the clock is read every 16 characters in the automaton,
  /// every ~10,000 ICU steps, every 65,536 bytes of the DFA — microseconds in a release
  /// build; the slack covers the sanitizers and a loaded machine.
  public static let slackMilliseconds = 1_000
  /// Bytes of the longest subject.
  public static let subjectBytes = 4_096

  static let schemaJSON = #"""
    {"entities": {"doc": {"table": "doc", "primaryKey": "id", "attributes": {"id": "integer", "body": "string"}}}}
    """#

  static let sqlite: Result<(LockedDatabase, SQLSchema), FuzzSetupError> = {
    do {
      let db = try SQLiteDatabase()
      try db.executeScript("CREATE TABLE doc (id INTEGER PRIMARY KEY, body TEXT)")
      return .success((LockedDatabase(db), try SQLSchema(json: schemaJSON)))
    } catch {
      return .failure(FuzzSetupError(message: "regex fixture: \(error)"))
    }
  }()

  /// The pattern, the subjects and the options (`""`, `"[c]"`, `"[d]"`, `"[cd]"`) an input
  /// stands for.
  public static func parts(_ text: String) -> (pattern: String, subjects: [String], options: String) {
    let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    let pattern = lines[0]
    var unit = lines.count > 1 ? lines[1] : "xa"
    if unit.isEmpty { unit = "xa" }
    let options = lines.count > 2 ? String(lines[2].filter { $0 == "c" || $0 == "d" }.prefix(2)) : ""
    let copies = max(1, subjectBytes / max(1, unit.utf8.count))
    let long = String(repeating: unit, count: copies)
    return (pattern, [long, long + "b", unit, ""], options.isEmpty ? "" : "[\(options)]")
  }

  /// Nil when the oracle holds for `text`.
  public static func check(_ text: String) -> FuzzFailure? {
    let (pattern, subjects, options) = parts(text)
    guard !pattern.isEmpty, pattern.utf8.count <= 512,
      let p = try? SiftPredicate(format: "body MATCHES\(options) %@", arguments: [.string(pattern)])
    else { return nil }
    func fail(_ message: String) -> FuzzFailure {
      FuzzFailure(oracle: "regex", message: "\(message) (predicate \(p.predicateFormat))", input: text)
    }
    let allowed: Set<String> = ["time-limit", "regex-limit", "invalid-regex"]
    let bound = Double(milliseconds + slackMilliseconds) / 1000

    // Memory.
    var limited = EvaluationOptions()
    limited.timeLimit = milliseconds
    let memory: DifferentialOracle.Outcome
    let records: [SiftObject]
    do {
      records = try JSONRecords.records(from: .array(subjects.map { ["body": .string($0)] }))
    } catch {
      return fail("records: \(error)")
    }
    let m: SiftMatcher
    do { m = try p.compile(limited) } catch {
      // An invalid pattern: SQL refuses it the same way (the differential oracle checks that).
      return allowed.contains(error.diagnostic.id) ? nil : fail("memory compile: \(error.diagnostic.id)")
    }
    let start = Date()
    do {
      memory = .matches(try m.matchingIndices(records))
    } catch {
      guard allowed.contains(error.diagnostic.id) else { return fail("memory: \(error.diagnostic.id)") }
      memory = .failed(error.diagnostic.id)
    }
    let t = Date().timeIntervalSince(start)
    if t > bound {
      return fail("memory returned after \(Int(t * 1000)) ms (\(memory)); the limit is \(milliseconds) ms")
    }

    // SQLite.
    guard case .success(let (db, schema)) = sqlite else { return fail("no database") }
    let sql: DifferentialOracle.Outcome
    let statement: SQLStatement
    do {
      let w = try SQLCompiler(dialect: SQLiteDialect(), schema: schema).compileWhere(p, entity: "doc")
      statement = SQLStatement(sql: "SELECT t0.id FROM doc t0 WHERE " + w.sql + " ORDER BY t0.id", bindings: w.bindings)
    } catch {
      return allowed.contains(error.diagnostic.id) ? nil : fail("SQL compile: \(error.diagnostic.id)")
    }
    var elapsed = 0.0
    do {
      let rows = try db.withDatabase { d throws -> [[SQLValue]] in
        _ = try d.execute(SQLStatement(sql: "DELETE FROM doc", bindings: []))
        for (i, s) in subjects.enumerated() {
          _ = try d.execute(
            SQLStatement(sql: "INSERT INTO doc VALUES (?, ?)", bindings: [.integer(Int64(i)), .text(s)]))
        }
        let start = Date()
        defer { elapsed = Date().timeIntervalSince(start) }
        return try d.execute(statement, timeLimit: milliseconds)
      }
      sql = .matches(rows.compactMap { $0.first?.intValue.map { Int(truncatingIfNeeded: $0) } })
    } catch {
      let e = error as? SiftError
      let id = e?.diagnostic.id ?? "\(error)"
      // `sqlite-error` carrying a function's step-budget message is regex-limit in SQL's words.
      let message = e?.diagnostic.message ?? ""
      guard allowed.contains(id) || message.contains("matching steps") else { return fail("SQLite: \(id) \(message)") }
      sql = .failed(id)
    }
    if elapsed > bound {
      return fail("SQLite returned after \(Int(elapsed * 1000)) ms (\(sql)); the limit is \(milliseconds) ms")
    }

    if case .matches(let a) = memory, case .matches(let b) = sql, a != b {
      return fail("memory \(memory) but SQLite \(sql)")
    }
    return nil
  }
}
