import Foundation
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// Fetch options on the command line: `sift batch` cases with `"sort"`, `"limit"`, `"offset"`
/// (indices in the fetch's order on every engine), and `sift expr` (one value per record, or
/// `--aggregate` over the fetch; `--schema` prints the SQL).
@Suite("sift batch sort/limit/offset and sift expr")
struct FetchCommandTests {
  static let records = #"""
    [{"id": 1, "name": "bravo", "rating": 4, "specials": 2},
     {"id": 2, "name": "Alpha", "rating": 5, "specials": 1},
     {"id": 3, "name": "charlie", "rating": null, "specials": 7},
     {"id": 4, "name": "alpha", "rating": 4},
     {"id": 5, "name": "Élan", "rating": 3, "specials": 4}]
    """#
  static let schema =
    #"{"entities": {"V": {"table": "v", "attributes": {"id": "integer", "name": "string", "rating": "double", "specials": "integer"}}}}"#

  static func file(_ text: String, _ ext: String = "json") throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-fetch-\(UUID().uuidString).\(ext)")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// (case, expected indices in fetch order); every engine must give them.
  static let sortedCases: [(String, [Int])] = [
    (#"{"id": 1, "format": "TRUEPREDICATE", "sort": "rating desc, name asc [c]", "limit": 3}"#, [1, 3, 0]),
    (#"{"id": 2, "format": "rating >= 4", "sort": "name [c]", "offset": 1}"#, [3, 0]),
    (#"{"id": 3, "format": "TRUEPREDICATE", "sort": "rating nulls last, name desc"}"#, [4, 0, 3, 1, 2]),
    (#"{"id": 4, "format": "TRUEPREDICATE", "sort": "name [l]", "limit": 2, "offset": 3}"#, [2, 4]),
    (#"{"id": 5, "format": "TRUEPREDICATE", "limit": 2, "offset": 1}"#, [1, 2]),
    (#"{"id": 6, "format": "name != 'x'", "sort": "-specials", "limit": 0}"#, []),
    (#"{"id": 7, "format": "TRUEPREDICATE"}"#, [0, 1, 2, 3, 4]),
  ]

  @Test func batchCasesListIndicesInFetchOrderOnEveryEngine() throws {
    let data = try Self.file(Self.records), schema = try Self.file(Self.schema)
    defer { for p in [data, schema] { try? FileManager.default.removeItem(atPath: p) } }
    let conninfo = ProcessInfo.processInfo.environment["SIFT_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    var context = BatchContext(lenient: false)
    context.data = try CommandInputs.data(data)
    try context.configureSQL(schema: schema, entity: "V", postgres: conninfo)
    for (line, expected) in Self.sortedCases {
      guard case .dictionary(let out) = context.process(line: line, lineNumber: 1) else {
        Issue.record("no result"); continue
      }
      let want = SiftValue.array(expected.map { .int(Int64($0)) })
      #expect(out["matches"] == want, "\(line): \(out)")
      #expect(out["sqlMatches"] == want, "\(line): \(out)")
      if conninfo != nil { #expect(out["pgMatches"] == want, "\(line): \(out)") }
    }
  }

  @Test func badFetchOptionsAreInputErrorsPointingIntoTheSort() throws {
    var context = BatchContext(lenient: false)
    context.data = CommandInputs.DataSet(values: [["a": 1]])
    let bad = context.process(line: #"{"id": 1, "format": "TRUEPREDICATE", "sort": "a sideways"}"#, lineNumber: 1)
    guard case .dictionary(let out) = bad, case .dictionary(let error)? = out["error"] else {
      Issue.record("\(bad)"); return
    }
    #expect(out["stage"] == "input")
    #expect(error["id"] == "bad-sort-key")
    #expect(error["column"] == 3)
    for line in [
      #"{"id": 2, "format": "TRUEPREDICATE", "limit": -1}"#, #"{"id": 3, "format": "TRUEPREDICATE", "offset": 1.5}"#,
      #"{"id": 4, "format": "TRUEPREDICATE", "sort": 3}"#,
    ] {
      guard case .dictionary(let o) = context.process(line: line, lineNumber: 1), case .dictionary(let e)? = o["error"]
      else { Issue.record("\(line)"); continue }
      #expect(o["stage"] == "input" && e["id"] == "invalid-case", "\(line): \(o)")
    }
  }

  @Test func exprPrintsOneValuePerRecordAndAggregates() throws {
    let data = try Self.file(Self.records)
    defer { try? FileManager.default.removeItem(atPath: data) }
    let perRecord = try SiftProcess.run(["expr", "specials * 2", "--data", data], stdin: "")
    #expect(perRecord.status == 0, "\(perRecord.stderr)")
    #expect(perRecord.stdout == "4\n2\n14\nnull\n8\n")
    let sorted = try SiftProcess.run(
      [
        "expr", "name", "--data", data, "--where", "rating >= %@", "--arg", "4", "--sort", "rating desc, name",
        "--limit", "2",
      ], stdin: "")
    #expect(sorted.stdout == "\"Alpha\"\n\"alpha\"\n", "\(sorted.stderr)")
    let total = try SiftProcess.run(["expr", "sum:(specials)", "--data", data, "--aggregate"], stdin: "")
    #expect(total.stdout == "14\n", "\(total.stderr)")
    let paged = try SiftProcess.run(
      ["expr", "count:(SELF)", "--data", data, "--aggregate", "--offset", "3"], stdin: "")
    #expect(paged.stdout == "2\n", "\(paged.stderr)")
    let spread = try SiftProcess.run(["expr", "max:(rating) - min:(rating)", "--data", data, "--aggregate"], stdin: "")
    #expect(spread.stdout == "2\n", "\(spread.stderr)")
    let plain = try Self.file("[1, 2.5, 4]")
    defer { try? FileManager.default.removeItem(atPath: plain) }
    #expect(try SiftProcess.run(["expr", "SELF * 2", "--data", plain], stdin: "").stdout == "2\n5.0\n8\n")
    #expect(
      try SiftProcess.run(["expr", "average:(SELF)", "--data", plain, "--aggregate"], stdin: "").stdout == "2.5\n")
  }

  @Test func exprPrintsTheSameRequestAsSQL() throws {
    let schema = try Self.file(Self.schema)
    defer { try? FileManager.default.removeItem(atPath: schema) }
    let sum = try SiftProcess.run(
      ["expr", "sum:(specials)", "--schema", schema, "--entity", "V", "--aggregate"], stdin: "")
    #expect(
      sum.stdout == "SELECT COALESCE(sift_sum(t0.\"specials\"), 0) AS \"sum(specials)\" FROM \"v\" t0\n"
        + "-- calls Sift's SQL functions sift_sum (register them on the connection: sift setup-sql --dialect sqlite)\n",
      "\(sum.stderr)")
    let names = try SiftProcess.run(
      [
        "expr", "name", "--schema", schema, "--entity", "V", "--sort", "rating desc", "--limit", "2", "--dialect",
        "postgres",
      ], stdin: "")
    #expect(
      names.stdout.hasPrefix(
        "SELECT t0.\"name\" AS \"name\" FROM \"v\" t0 ORDER BY t0.\"rating\" DESC NULLS LAST, t0.\"id\" ASC LIMIT $1\n"),
      "\(names.stdout)")
    #expect(names.stdout.hasSuffix("-- $1 = 2\n"))
    let paged = try SiftProcess.run(
      [
        "expr", "sum:(specials)", "--schema", schema, "--entity", "V", "--aggregate", "--sort", "rating desc",
        "--limit", "2",
      ], stdin: "")
    #expect(
      paged.stdout.hasPrefix(
        #"SELECT COALESCE(sift_sum(t0."specials"), 0) AS "sum(specials)" FROM "v" t0 WHERE t0."id" IN (SELECT t0."id" AS "id" FROM "v" t0 ORDER BY"#
      ), "\(paged.stdout)")
  }

  /// What cannot work says what and where, with the exit status of its kind.
  @Test func exprErrors() throws {
    let data = try Self.file(Self.records), schema = try Self.file(Self.schema)
    defer { for p in [data, schema] { try? FileManager.default.removeItem(atPath: p) } }
    let cases: [([String], Int32, String)] = [
      (["expr", "sum:(name)", "--data", data, "--aggregate"], 1, "a sum needs a number"),
      (["expr", "specials +", "--data", data], 1, "1:11"),
      (["expr", "name", "--data", data, "--sort", "name up"], 1, "sort direction"),
      (["expr", "name", "--data", data, "--limit", "-2"], 2, "--limit needs a whole number"),
      (["expr", "name"], 2, "expr needs --data"),
      (
        ["expr", "rating + 1", "--schema", schema, "--entity", "V", "--aggregate"], 1, "an aggregate over the fetch is"
      ),
    ]
    for (args, status, text) in cases {
      let r = try SiftProcess.run(args, stdin: "")
      #expect(r.status == status, "\(args): \(r.stderr)")
      #expect(r.stderr.contains(text), "\(args): \(r.stderr)")
    }
  }
}
