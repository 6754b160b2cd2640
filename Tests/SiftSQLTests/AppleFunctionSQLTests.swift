import Foundation
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

/// Apple's function spellings of issue #31 compile exactly as the nodes they stand for.
@Suite struct AppleFunctionSQLTests {
  /// `(Apple's spelling, Sift's spelling)`: the same SQL and bindings on SQLite and PostgreSQL.
  static let pairs: [(String, String)] = [
    ("castObject:toType:(tipCount, 'NSNumber') > 1", "CAST(tipCount, 'NSNumber') > 1"),
    ("castObject:toType:(name, 'NSString') == 'x'", "CAST(name, 'NSString') == 'x'"),
    ("castObject:toType:(0, 'NSDate') < CAST(10, 'NSDate')", "CAST(0, 'NSDate') < CAST(10, 'NSDate')"),
    ("objectFrom:withIndex:(tags, 1) == 'x'", "tags[1] == 'x'"),
  ]
  @Test(arguments: 0..<pairs.count) func compilesAsTheSameNode(_ i: Int) throws {
    let (apple, sift) = Self.pairs[i]
    for compiler in [SQLFixtures.sqlite, SQLFixtures.postgres] {
      let a = try compiler.compileWhere(try SiftPredicate(format: apple), entity: "Venue")
      let b = try compiler.compileWhere(try SiftPredicate(format: sift), entity: "Venue")
      #expect("\(a)" == "\(b)", "\(apple)")
    }
  }
}

/// `UTI-CONFORMS-TO` compiles to `IN` the bound list of conforming identifiers.
@Suite struct TypeIdentifierSQLTests {
  @Test func everyIdentifierIsBound() throws {
    let p = try SiftPredicate(format: "name UTI-CONFORMS-TO 'public.image'")
    for compiler in [SQLFixtures.sqlite, SQLFixtures.postgres] {
      let st = try compiler.compileWhere(p, entity: "Venue")
      let text = "\(st)".components(separatedBy: " -- ")[0]
      #expect(!text.contains("public"), "\(st)")
      #expect(text.contains("IN"), "\(st)")
      #expect("\(st)".contains("public.png"), "\(st)")
    }
    let e = try SiftPredicate(format: "name UTI-EQUALS 'public.png'")
    let st = "\(try SQLFixtures.sqlite.compileWhere(e, entity: "Venue"))"
    #expect(st.contains("public.png") && !st.contains("public.image"), "\(st)")
  }

  @Test func identifierMustBeConstant() throws {
    let p = try SiftPredicate(format: "name UTI-CONFORMS-TO phone")
    for compiler in [SQLFixtures.sqlite, SQLFixtures.postgres] {
      expectSiftError(id: "unsupported-in-sql", stage: .sql) { _ = try compiler.compileWhere(p, entity: "Venue") }
    }
  }
}
