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
