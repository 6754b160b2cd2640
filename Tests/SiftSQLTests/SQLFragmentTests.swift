import SiftSyntax
import Testing

@testable import SiftSQL

/// SQL fragments: text and bindings concatenate in order, and placeholders are numbered only
/// when a statement is finished.
@Suite("SQL fragments")
struct SQLFragmentTests {
  /// Fragments combined in any grouping give the same statement: bindings keep text order,
  /// and each placeholder lands where its value was appended (also after non-ASCII text).
  @Test func concatenationKeepsBindingsInTextOrder() {
    let a: SQLFragment = "t0.\"café\" = \(bind: .text("x"))"
    let b: SQLFragment = " AND \(bind: .integer(2)) < \"ü\""
    var left: SQLFragment = "(\(a)"
    left.append(b)
    left.append(")")
    let right: SQLFragment = "(\(SQLFragment("\(a)\(b)")))"
    for f in [left, right] {
      #expect(f.statement(SQLiteDialect()).sql == "(t0.\"café\" = ? AND ? < \"ü\")")
      #expect(f.statement(PostgreSQLDialect()).sql == "(t0.\"café\" = $1 AND $2 < \"ü\")")
      #expect(f.values == [.text("x"), .integer(2)])
    }
  }

  /// A fragment repeated in a statement repeats its bindings, numbered apart.
  @Test func repeatedFragmentRepeatsItsBindings() {
    let x: SQLFragment = "f(\(bind: .integer(7)))"
    let st = SQLFragment("\(x) = \(x)").statement(PostgreSQLDialect())
    #expect(st.sql == "f($1) = f($2)")
    #expect(st.bindings == [.integer(7), .integer(7)])
  }

  /// Dropping `NOT ` from a `NOT EXISTS` keeps the placeholders where they were.
  @Test func droppingAPrefixMovesPlaceholders() {
    let f: SQLFragment = "NOT EXISTS (SELECT 1 WHERE x = \(bind: .integer(1)))"
    #expect(f.droppingPrefix(4).statement(PostgreSQLDialect()).sql == "EXISTS (SELECT 1 WHERE x = $1)")
  }

  /// A value is never text: question marks and dollars in values stay in the bindings.
  @Test func valuesNeverReachTheText() {
    let f: SQLFragment = "x = \(bind: .text("?' OR 1 = 1 --$1"))"
    #expect(f.statement(SQLiteDialect()).sql == "x = ?")
    #expect(f.mayRaise == false)
  }

  /// May-raise travels through every combination.
  @Test func mayRaiseTravels() {
    let raising = SQLFragment(sql: "sift_int(x)", mayRaise: true)
    #expect(SQLFragment("(\(raising))").mayRaise)
    #expect(!SQLFragment("(\(sql: "x"))").mayRaise)
  }
}
