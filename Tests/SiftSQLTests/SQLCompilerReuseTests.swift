import Foundation
import SiftSQL
import SiftSyntax
import Testing

/// A compiler is shared freely: its statements must not depend on what it compiled before,
/// nor on other threads compiling with the same compiler.
@Suite("SQL compiler reuse")
struct SQLCompilerReuseTests {
  static let formats = SQLGoldenCases.venuePredicates

  static func fresh(_ dialect: any SQLDialect) throws -> [SQLStatement] {
    try formats.map { (format, args) in
      // A new compiler per statement.
      try SQLCompiler(dialect: dialect, schema: SQLFixtures.schema)
        .compileWhere(SiftPredicate(format: format, arguments: args), entity: "Venue")
    }
  }

  /// A statement, or the refusal's id and message (MySQL refuses some golden cases).
  static func outcome(_ compiler: SQLCompiler, _ format: String, _ args: [SiftValue]) -> String {
    do {
      let st = try compiler.compileWhere(SiftPredicate(format: format, arguments: args), entity: "Venue")
      return st.sql + " " + st.bindings.map(\.description).joined(separator: ", ")
    } catch {
      return "refused: \(error.diagnostic.id): \(error.diagnostic.message)"
    }
  }

  /// The golden cases compiled in turn, three times over, with one compiler equal the same
  /// cases compiled each with a new compiler.
  @Test(arguments: SQLGoldenTests.dialects.map(\.name))
  func sequentialReuseMatchesFresh(dialectName: String) throws {
    let dialect = try #require(SQLGoldenTests.dialects.first { $0.name == dialectName })
    let expected = Self.formats.map {
      Self.outcome(SQLCompiler(dialect: dialect, schema: SQLFixtures.schema), $0.0, $0.1)
    }
    let compiler = SQLCompiler(dialect: dialect, schema: SQLFixtures.schema)
    for _ in 0..<3 {
      for ((format, args), want) in zip(Self.formats, expected) {
        #expect(Self.outcome(compiler, format, args) == want, "\(format)")
      }
    }
  }

  /// Four threads compiling the golden cases with one compiler get the same statements as
  /// fresh compilers.
  @Test func concurrentReuseMatchesFresh() async throws {
    let dialect = SQLiteDialect()
    let expected = try Self.fresh(dialect)
    let compiler = SQLCompiler(dialect: dialect, schema: SQLFixtures.schema)
    let predicates = try Self.formats.map { try SiftPredicate(format: $0.0, arguments: $0.1) }
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var bad = 0
          for _ in 0..<50 {
            for (p, want) in zip(predicates, expected) where (try? compiler.compileWhere(p, entity: "Venue")) != want {
              bad += 1
            }
          }
          return bad
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  /// PostgreSQL's `$10000` and later: the statement is whole, numbered in order, with one
  /// binding per placeholder. (A long `IN` list binds as one parameter since issue 23, so the
  /// 12,000 placeholders come from an OR whose terms do not merge.)
  @Test func longPlaceholdersFit() throws {
    let format = (1...6_000).map { "id == \($0) OR distance > \($0)" }.joined(separator: " OR ")
    let p = try SiftPredicate(format: format)
    let st = try SQLFixtures.postgres.compileWhere(p, entity: "Venue")
    #expect(st.bindings.count == 12_000)
    #expect(st.bindings.last == .double(6_000) || st.bindings.last == .integer(6_000))
    let numbers = st.sql.split(separator: "$").dropFirst().map { Int($0.prefix { $0.isNumber }) }
    #expect(numbers == (1...12_000).map { Optional($0) })
  }

  /// A long IN list is one parameter (an array literal for PostgreSQL).
  @Test func longListsAreOneParameter() throws {
    let ids = (1...12_000).map { SiftValue.int(Int64($0)) }
    let p = try SiftPredicate(format: "id IN %@", arguments: [.array(ids)])
    let st = try SQLFixtures.postgres.compileWhere(p, entity: "Venue")
    #expect(st.bindings.count == 1)
    #expect(st.sql == "t0.\"id\" IN (SELECT unnest(CAST($1 AS BIGINT[])))")
  }
}
