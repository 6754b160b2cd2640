import Foundation
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftCLI

/// The REPL holds loaded and generated records as columns only (`REPLDataSet`, `LazyRows`):
/// `.generate` makes the same records as before and every question gets the answer the row
/// evaluator gives over them as rows; rows are built only when a command needs the row
/// evaluator.
@Suite("REPL data held as columns")
struct REPLColumnarDataTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/conformance")

  /// The conformance sample's questions (formats and arguments), and some about the generated
  /// attributes (folded text, dates, arrays, arithmetic, LIKE/MATCHES for the row evaluator).
  static let questions: [(String, [SiftValue])] = {
    let text = (try? String(contentsOf: fixtures.appendingPathComponent("venues-cases.jsonl"), encoding: .utf8)) ?? ""
    var out: [(String, [SiftValue])] = text.split(separator: "\n").compactMap { line in
      guard let c = try? SiftJSON.parse(String(line)), case .string(let format)? = c.value(forKey: "format") else {
        return nil
      }
      if case .array(let args)? = c.value(forKey: "args") { return (format, args) }
      return (format, [])
    }
    out += [
      ("name BEGINSWITH[c] 'q'", []), ("city ==[cd] 'zurich'", []), ("name CONTAINS[cd] 'cafe'", []),
      ("ANY tags == 'wifi'", []), ("tags.@count > 2", []), ("NONE tags IN {'vegan', 'cheap'}", []),
      ("createdAt > CAST(700000000, 'NSDate')", []), ("rating * 2 > distance", []), ("name LIKE '*Café'", []),
      ("city MATCHES '[A-Z].*o'", []), ("favorite == YES AND tipCount BETWEEN {100, 200}", []),
      ("distance < 1 OR rating >= 4.9", []), ("SUBQUERY(tags, $t, $t BEGINSWITH 'l').@count == 1", []),
    ]
    return out
  }()

  static func answer(_ body: () throws -> [Int]) -> String {
    do { return "\(try body())" } catch { return "error \((error as? SiftError)?.id ?? "\(error)")" }
  }

  /// Same records as the rows `.generate` used to build, and for every question the same
  /// matches (or the same error) from the columns (kernels or the rows built from them) as
  /// from those rows.
  @Test func generatedColumnsAnswerAsRows() throws {
    let n = 3_000
    let values = GeneratedData.records(count: n)
    let set = GeneratedData.dataSet(name: "generated", count: n)
    #expect(set.columns != nil && set.count == n)
    #expect((0..<n).allSatisfy { set.record(at: $0) == values[$0] })
    let rows = try #require(REPLDataSet(name: "rows", records: values).objects)
    #expect(Self.questions.count > 130)
    var kernels = 0
    for (format, args) in Self.questions {
      guard let m = try? SiftPredicate(format: format, arguments: args).compile() else { continue }
      let columns = try #require(set.columns)
      if m.columnarFallback(for: columns) == nil { kernels += 1 }
      for workers in [1, 2] {
        let got = Self.answer { try MemoryEngine.matches(m, in: set, range: 0..<n, variables: [:], workers: workers) }
        let expected = Self.answer { try m.matchingIndices(rows, in: 0..<n, workers: workers) }
        #expect(got == expected, "\(format) on \(workers) workers")
      }
    }
    #expect(kernels > 30, "\(kernels) questions ran as kernels")
  }

  /// After `.load`, the session holds the columns and no rows: counting, listing, sorting,
  /// aggregating, describing and kernel scans build none; the first predicate the kernels do not
  /// cover builds them once.
  @Test func loadBuildsNoRowsUntilNeeded() throws {
    let session = REPLSession()
    let path = Self.fixtures.appendingPathComponent("venues.json").path
    #expect(session.execute(".load \(path) --as venues").status == .ok)
    let set = try #require(session.current)
    #expect(set.columns != nil)
    for input in [
      ".count", ".count rating > 4", "rating > 4", ".sort rating desc, name", "name BEGINSWITH[c] 'b'",
      ".describe", ".agg rating", "ANY tags == 'wifi'",
    ] {
      #expect(session.execute(input).status == .ok, "\(input)")
      #expect(session.current?.rowsBuilt == false, "\(input) built rows")
    }
    let m = try SiftPredicate(format: "name MATCHES 'B.*'").compile()
    #expect(m.columnarFallback(for: try #require(set.columns)) != nil)
    #expect(session.execute(".count name MATCHES 'B.*'").status == .ok)
    #expect(session.current?.rowsBuilt == true)
  }

  /// `.generate` holds columns too, and every engine and command works on them.
  @Test func generatedDataWorksEverywhere() throws {
    let session = REPLSession()
    #expect(session.execute(".generate 500").status == .ok)
    #expect(session.current?.columns != nil && session.current?.rowsBuilt == false)
    let memory = session.execute(".count rating > 3 AND ANY tags == 'wifi'").text
    let n = memory.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(Int(n) ?? 0 > 0)
    #expect(session.execute(".compare rating > 3 AND ANY tags == 'wifi'").text.hasSuffix("agree: \(n) records\n"))
    #expect(session.execute(".engine sqlite").status == .ok)
    #expect(session.execute(".count rating > 3 AND ANY tags == 'wifi'").text == memory)
    #expect(session.execute(".engine memory").status == .ok)
    #expect(session.current?.rowsBuilt == false, "copying into SQLite reads the columns")
  }

  /// A copy into SQL reads each value from its column (`ColumnarLoadRecord`), not from a
  /// dictionary and a `SiftObject` built for each record (issue 35: 4.7 of the 6.3 s of a copy
  /// of 200,000 venues, `sift-bench --suite scale`): the same values as those objects give.
  @Test func copiesReadTheValuesTheObjectsHold() throws {
    let set = GeneratedData.dataSet(name: "generated", count: 400)
    let columns = try #require(set.columns)
    let keys = Set(
      (0..<set.count).flatMap { i -> [String] in
        if case .dictionary(let d) = set.record(at: i) { return Array(d.keys) }
        return []
      })
    #expect(keys.count > 8)
    for (i, record) in ColumnarLoadRecord.all(columns).enumerated() {
      let object = ObjectLoadRecord(object: columns.object(at: i))
      #expect(record.sqlLoadKind == nil)
      for key in keys.union(["missing"]) {
        #expect(record.sqlLoadValue(forKey: key) == object.sqlLoadValue(forKey: key), "record \(i), \(key)")
      }
    }
  }
}
