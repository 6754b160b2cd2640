import Foundation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftCLI

@Suite("REPL core")
struct REPLCoreTests {
  @Test(
    "command parsing",
    arguments: [
      (".sql distance < 5", "sql", "distance < 5"), ("\\d notes", "d", "notes"), (":help", "help", ""),
      ("  .LIMIT   10  ", "limit", "10"), ("\\?", "?", ""),
    ])
  func commandParsing(_ line: String, _ name: String, _ argument: String) {
    #expect(REPLCommand.parse(line) == REPLCommand(name: name, argument: argument))
  }

  @Test("predicates are not commands", arguments: ["distance < 5", ".5 > x", "name == '.x'", ""])
  func notCommands(_ line: String) {
    #expect(REPLCommand.parse(line) == nil)
  }

  @Test(
    "aliases resolve",
    arguments: [("q", "quit"), ("d", "entities"), ("?", "help"), ("i", "load"), ("c", "connect"), ("explain", "plan")])
  func aliases(_ alias: String, _ name: String) {
    #expect(REPLCommandSpec.lookup(alias)?.name == name)
  }

  @Test("every command name and alias is unique")
  func uniqueNames() {
    let all = REPLCommandSpec.all.flatMap { [$0.name] + $0.aliases }
    #expect(Set(all).count == all.count)
  }

  @Test(
    "continuation",
    arguments: [
      ("name == 'x'", false), ("(a == 1", true), ("a IN {1,", true), ("name == 'it\\'s", true),
      ("name == \"x(\"", false), ("a == 1)", false), ("name == 'open", true), ("f(a[1]", true),
    ])
  func continuation(_ text: String, _ more: Bool) {
    #expect(InputScanner.needsContinuation(text) == more)
  }

  @Test("option parsing")
  func options() throws {
    let o = try REPLOptions.parse(["--keep-going", "--load", "a.json", "--load=b.json", "-c", ".count", "--no-color"])
    #expect(o.keepGoing && o.noColor)
    #expect(o.loads == ["a.json", "b.json"])
    #expect(o.commands == [".count"])
    let writing = try REPLOptions.parse(["--db", "notes.sqlite", "--write"])
    #expect(writing.write && writing.db == "notes.sqlite")
    #expect(try !REPLOptions.parse(["--db", "notes.sqlite"]).write)
  }

  @Test(
    "bad options are usage errors",
    arguments: [
      (["--keepgoing"], "unknown option '--keepgoing'; did you mean '--keep-going'?"),
      (["--load"], "--load needs a value"),
      (["--engine", "oracle"], "--engine must be memory, sqlite or postgres, not 'oracle'"),
      (["stray"], "unexpected argument 'stray'; pass predicates with -c or on stdin"),
      (["--echo=yes"], "--echo does not take a value"),
      (["--write"], "--write goes with --db FILE.sqlite (edits under .watch are written to it)"),
    ])
  func badOptions(_ args: [String], _ message: String) {
    #expect(throws: REPLOptions.UsageError(message: message)) { try REPLOptions.parse(args) }
  }

  @Test("runREPL with a bad flag exits 2")
  func badFlagStatus() {
    #expect(runREPL(arguments: ["--bogus"]) == .usage)
  }

  @Test("table alignment: numbers right, text left, wide characters counted twice")
  func table() {
    let text = TableRenderer(style: REPLStyle(colors: false)).render(
      columns: ["id", "name"], rows: [[1, "東京"], [123, "Red bar"], [.null, .null]])
    let expected = [
      " id   | name",
      "------+---------",
      "    1 | 東京",
      "  123 | Red bar",
      " NULL | NULL",
    ]
    #expect(text == expected.joined(separator: "\n") + "\n")
  }

  @Test(
    "cells",
    arguments: [
      (SiftValue.string("a\nb"), "a b"), (["x", 1, nil], "[\"x\", 1, null]"), (["k": ["n": 1]], "{k: {n: 1}}"),
      (.bool(true), "true"), (.double(2.5), "2.5"), (.date(Date(timeIntervalSince1970: 0)), "1970-01-01 00:00:00Z"),
      ([[[["deep"]]]], "[[[[…]]]]"),
    ] as [(SiftValue, String)])
  func cells(_ value: SiftValue, _ text: String) {
    #expect(CellFormatter.text(value) == text)
  }

  @Test(
    "truncation keeps the width",
    arguments: [("Bubble tea house", 8, "Bubble …"), ("東京タワー", 5, "東京…"), ("abc", 3, "abc")])
  func truncation(_ s: String, _ width: Int, _ expected: String) {
    #expect(TextWidth.truncate(s, to: width) == expected)
    #expect(TextWidth.of(TextWidth.truncate(s, to: width)) <= width)
  }

  @Test("sort keys")
  func sortKeys() throws {
    #expect(
      try SiftSortDescriptor.parseList("distance, -rating, name desc") == [
        SiftSortDescriptor("distance"), SiftSortDescriptor("rating", ascending: false),
        SiftSortDescriptor("name", ascending: false),
      ])
    expectSiftError(id: "bad-sort-key", stage: .parse, at: 2) { try SiftSortDescriptor.parseList("a b c") }
  }

  @Test("the REPL sorts with the library: nil first, numbers across kinds, then strings")
  func ordering() throws {
    let session = REPLSession()
    _ = session.add(REPLDataSet(name: "t", records: [["v": 3], ["v": nil], ["v": 1.5], ["v": "a"], ["v": 2]]))
    session.entity = "t"
    _ = session.execute(".sort v")
    #expect(try session.fetch(SiftPredicate(format: "TRUEPREDICATE"), in: session.current!).indices == [1, 2, 4, 0, 3])
    _ = session.execute(".sort v desc")
    #expect(try session.fetch(SiftPredicate(format: "TRUEPREDICATE"), in: session.current!).indices == [3, 0, 4, 2, 1])
  }

  @Test("history file keeps entries across sessions and skips repeats")
  func historyFile() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-history-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let h = REPLHistory(path: path)
    h.add("a == 1")
    h.add("a == 1")
    h.add("(b == 2\n OR c == 3)")
    h.add("   ")
    #expect(REPLHistory(path: path).entries == ["a == 1", "(b == 2  OR c == 3)"])
  }

  @Test("script mode stops at the first error unless keep-going")
  func scriptStops() throws {
    for (stop, status, count) in [(true, Int32(1), 1), (false, Int32(1), 3)] {
      let session = REPLSession()
      var errors = 0
      let loop = REPLLoop(
        session: session, source: ScriptedLineSource([".bogus", ".sort x", ".nope", ".limit 1"]),
        options: .init(stopOnError: stop)
      ) { _, isError in if isError { errors += 1 } }
      #expect(loop.run().rawValue == status)
      #expect(errors == (stop ? 1 : 2))
      _ = count
    }
  }

  @Test("JSON Lines and arrays load")
  func loading() throws {
    let lines = try REPLScaleTests.records("{\"a\": 1}\n\n{\"a\": 2}\n", "x.json")
    #expect(lines == [["a": 1], ["a": 2]])
    let array = try REPLScaleTests.records("[{\"a\": 1}]", "x.json")
    #expect(array == [["a": 1]])
    let failure = #expect(throws: REPLDataError.self) { try REPLScaleTests.records("[{", "x.json") }
    #expect(failure?.message.hasPrefix("x.json:1:") == true, "\(String(describing: failure))")
  }

  @Test("sample data is shipped")
  func sample() throws {
    let sets = try SampleData.load()
    #expect(sets.map(\.name) == ["venues", "notes"])
    #expect(sets.map(\.count) == [1000, 200])
    #expect(SampleData.schemaURL != nil)
  }
}
