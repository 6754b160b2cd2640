import Foundation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Every conformance case through SQLite: the SQL must return exactly the expected indices,
/// and cases expected to fail must fail at parse, argument or SQL-compile time.
@Suite("SQLite conformance")
struct SQLiteConformanceTests {
  struct Case: CustomStringConvertible, Sendable {
    var id: String
    var format: String
    var args: [SiftValue]
    var ok: Bool
    var matches: [Int]
    var description: String { id }
  }

  static let cases: [Case] = {
    let expected = Dictionary(
      SQLFixtures.jsonLines("conformance/venues-expected.jsonl").compactMap { d -> (String, [String: SiftValue])? in
        guard case .string(let id)? = d["id"] else { return nil }
        return (id, d)
      }, uniquingKeysWith: { a, _ in a })
    return SQLFixtures.jsonLines("conformance/venues-cases.jsonl").compactMap { d in
      guard case .string(let id)? = d["id"], case .string(let format)? = d["format"], let e = expected[id] else {
        return nil
      }
      var args: [SiftValue] = []
      if case .array(let a)? = d["args"] { args = a }
      var matches: [Int] = []
      if case .array(let m)? = e["matches"] {
        matches = m.compactMap { if case .int(let i) = $0 { return Int(i) } else { return nil } }
      }
      return Case(id: id, format: format, args: args, ok: e["ok"] == .bool(true), matches: matches)
    }
  }()

  @Test func loadsEveryCase() {
    #expect(Self.cases.count >= 125)
    #expect(SQLFixtures.records.count == 1000)
  }

  @Test(arguments: cases)
  func sqliteMatchesExpected(_ c: Case) throws {
    let predicate: SiftPredicate
    let statement: SQLStatement
    do {
      predicate = try SiftPredicate(format: c.format, arguments: c.args)
      statement = try SQLFixtures.sqlite.compileMatchingIndices(predicate, entity: "Venue")
    } catch {
      #expect(!c.ok, "\(c.id) failed to compile: \(error)")
      #expect(error.stage != .evaluate)
      return
    }
    #expect(c.ok, "\(c.id) compiled but is expected to fail: \(statement.sql)")
    guard c.ok else { return }
    #expect(placeholdersMatch(statement, SQLiteDialect()))
    let got = try SQLFixtures.database.with { db in
      try db.matchingIndices(of: predicate, entity: "Venue", compiler: SQLFixtures.sqlite)
    }
    #expect(got == c.matches, "\(c.id): \(statement)")
  }

  @Test(arguments: cases)
  func postgresCompilesTheSameCases(_ c: Case) throws {
    guard c.ok, let p = try? SiftPredicate(format: c.format, arguments: c.args) else { return }
    let st = try SQLFixtures.postgres.compileMatchingIndices(p, entity: "Venue")
    #expect(placeholdersMatch(st, PostgreSQLDialect()), "\(st)")
  }
}
