import Foundation
import SiftSQLite
import SiftSyntax
import Testing

@testable import SiftSQL

/// Deeply nested predicates either compile to SQL that SQLite prepares, or are refused at
/// compile time with `too-deep-for-sql` — never "parser stack overflow" at prepare time
/// (fuzzing found `(- (- (- … n)))` failing to prepare). Reasonable nesting still compiles.
@Suite("SQL parser depth")
struct ParserDepthTests {
  /// A nest of `depth` levels around a core, and the depth that must still compile (what
  /// the estimate accepts today: a lower figure means the estimate grew more conservative).
  struct Shape: Sendable, CustomStringConvertible {
    var name: String
    var minimumAccepted: Int
    var make: @Sendable (Int) -> String
    var description: String { name }
  }

  static let shapes: [Shape] = [
    Shape(name: "negation", minimumAccepted: 19) { d in String(repeating: "-", count: d) + "tipCount > 1" },
    Shape(name: "parenthesized negation", minimumAccepted: 19) { d in
      String(repeating: "-(", count: d) + "tipCount" + String(repeating: ")", count: d) + " > 1"
    },
    Shape(name: "right-nested sum", minimumAccepted: 15) { d in
      String(repeating: "tipCount + (", count: d) + "1" + String(repeating: ")", count: d) + " > 1"
    },
    Shape(name: "functions", minimumAccepted: 19) { d in
      String(repeating: "abs(", count: d) + "tipCount" + String(repeating: ")", count: d) + " > 1"
    },
    Shape(name: "NOT/AND", minimumAccepted: 18) { d in
      String(repeating: "NOT (tipCount > 1 AND ", count: d) + "name == 'x'" + String(repeating: ")", count: d)
    },
    Shape(name: "OR/AND alternation", minimumAccepted: 9) { d in
      String(repeating: "(tipCount > 1 OR (name == 'x' AND ", count: d) + "favorite == YES"
        + String(repeating: "))", count: d)
    },
    Shape(name: "ternary", minimumAccepted: 9) { d in
      String(repeating: "TERNARY(tipCount > 1, ", count: d) + "1" + String(repeating: ", 2)", count: d) + " == 1"
    },
    Shape(name: "nested SUBQUERY", minimumAccepted: 4) { d in
      var p = "$m0.price > 2"
      for i in stride(from: d - 1, through: 0, by: -1) {
        p = "SUBQUERY(menu, $m\(i), \(p)).@count > 0"
      }
      return p
    },
    Shape(name: "ANY over to-one and to-many", minimumAccepted: 7) { d in
      String(repeating: "(ANY menu.price > 1 AND (location.city == 'x' OR ", count: d) + "name == nil"
        + String(repeating: "))", count: d)
    },
    // 6, not 8, since a side that may fail (sift_int) is evaluated first too (EvaluationOrderTests)
    Shape(name: "bitwise", minimumAccepted: 6) { d in
      String(repeating: "(tipCount & ", count: d) + "7" + String(repeating: ")", count: d) + " == 1"
    },
    Shape(name: "AND chain that may fail (ordered CASE)", minimumAccepted: 40) { d in
      String(repeating: "tipCount | 1 == 1 AND ", count: d) + "name == 'x'"
    },
    Shape(name: "NOT over an OR chain that may fail", minimumAccepted: 40) { d in
      "NOT (" + String(repeating: "tipCount | 1 == 1 OR ", count: d) + "name == 'x')"
    },
    Shape(name: "string functions", minimumAccepted: 9) { d in
      String(repeating: "uppercase:(lowercase:(", count: d) + "name" + String(repeating: "))", count: d) + " == 'X'"
    },
  ]

  @Test("compiled or refused, never unpreparable", arguments: shapes)
  func preparesOrRefuses(_ shape: Shape) throws {
    var accepted = 0
    for depth in 1...60 {
      let text = shape.make(depth)
      guard let p = try? SiftPredicate.parse(text) else { break }  // past the parser's own limit
      for type in [SiftFetchRequest.ResultType.records, .count, .indices] {
        let st: SQLStatement
        do {
          st = try SQLFixtures.sqlite.compile(SiftFetchRequest(entity: "Venue", predicate: p, resultType: type))
        } catch {
          #expect(error.diagnostic.id == "too-deep-for-sql", "\(text): \(error.diagnostic.message)")
          continue
        }
        if type == .records { accepted = depth }
        try SQLFixtures.database.with { db in
          do { _ = try db.execute(st) } catch {
            Issue.record("depth \(depth) compiled but did not run: \(error)\n\(st.sql)")
          }
        }
      }
    }
    #expect(accepted >= shape.minimumAccepted, "\(shape.name): only \(accepted) levels compile")
  }

  /// Constructs whose SQL repeats an operand (NaN-aware powers, XOR, sides that may fail)
  /// grow geometrically when nested; past 1 MiB they are refused, quickly, never built.
  @Test("geometric SQL growth is refused", arguments: ["(@ ** sqrt(distance))", "(@ ^ tipCount)", "(@ / tipCount)"])
  func geometricGrowth(_ step: String) throws {
    var text = step.contains("^") ? "tipCount" : "distance"
    for _ in 0..<40 { text = step.replacingOccurrences(of: "@", with: text) }
    let p = try SiftPredicate.parse(text + " == nil")
    do {
      let st = try SQLFixtures.sqlite.compileMatchingIndices(p, entity: "Venue")
      #expect(st.sql.utf8.count <= 1 << 22)
    } catch {
      #expect(["too-large-for-sql", "too-deep-for-sql"].contains(error.diagnostic.id), "\(error.diagnostic.message)")
    }
  }

  @Test("the refusal names the limit and points at the predicate")
  func refusal() throws {
    let text = String(repeating: "-", count: 50) + "tipCount > 1"
    let p = try SiftPredicate.parse(text)
    do {
      _ = try SQLFixtures.sqlite.compileMatchingIndices(p, entity: "Venue")
      Issue.record("50 nested negations compiled")
    } catch {
      #expect(error.diagnostic.id == "too-deep-for-sql")
      #expect(error.diagnostic.message.contains("limit 80"))
      #expect(error.diagnostic.range == SiftSourceRange(start: 0, end: text.utf8.count))
    }
    // PostgreSQL's parser stack grows: the same predicate compiles.
    #expect(throws: Never.self) { try SQLFixtures.postgres.compileMatchingIndices(p, entity: "Venue") }
  }

  @Test(
    "estimates",
    arguments: [
      ("x = ?", 5), ("t0.\"x\" = ?", 5), ("(- (- ?))", 11), ("a AND b AND c AND d", 4), ("f(a, b, c, d, e)", 8),
      ("\"a(b\" = ?", 5), ("CASE WHEN a THEN b ELSE c END", 9),
      ("CASE WHEN a THEN 0 WHEN b THEN 0 WHEN c THEN 0 ELSE d END", 11), ("EXISTS (SELECT 1 FROM t)", 13),
    ])
  func estimate(_ sql: String, _ expected: Int) {
    #expect(SQLParserDepth.estimate(sql) == expected, "\(sql)")
  }
}
