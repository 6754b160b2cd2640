import Foundation
import SiftPostgres
import SiftSQLite
import Testing

@testable import SiftCLI

/// `sift fetch`: a whole fetch request from the command line, on JSON records, SQLite and
/// PostgreSQL — the same lines from each — and the transcript in CommandLine.md.
@Suite("sift fetch")
struct FetchSubcommandTests {
  static let records: [(id: Int, name: String?, city: String, rating: Double?, visits: Int)] = [
    (1, "bravo", "Oslo", 4, 10), (2, "Alpha", "Bergen", 5, 3), (3, "charlie", "Oslo", nil, 7),
    (4, "alpha", "Oslo", 4, 2), (5, "Élan", "Bergen", 3, 5), (6, nil, "Tromsø", 4, 10),
  ]

  static var json: String {
    "["
      + records.map { r in
        var fields = [#""id": \#(r.id)"#, #""city": "\#(r.city)""#, #""visits": \#(r.visits)"#]
        fields.append(#""name": \#(r.name.map { "\"\($0)\"" } ?? "null")"#)
        fields.append(#""rating": \#(r.rating.map { "\($0)" } ?? "null")"#)
        return "{" + fields.joined(separator: ", ") + "}"
      }.joined(separator: ", ") + "]"
  }

  static var script: String {
    "CREATE TABLE place (id integer PRIMARY KEY, name text, city text, rating double precision, visits integer);"
      + "INSERT INTO place VALUES "
      + records.map { r in
        "(\(r.id), \(r.name.map { "'\($0)'" } ?? "NULL"), '\(r.city)', \(r.rating.map { "\($0)" } ?? "NULL"), \(r.visits))"
      }.joined(separator: ", ")
  }

  static func scratch(_ ext: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("sift-fetchcmd-\(UUID().uuidString).\(ext)").path
  }

  /// Requests as command-line options, each run on every source.
  static let requests: [[String]] = [
    ["--where", "rating >= 4", "--sort", "rating desc, name [c]", "--properties", "name,rating"],
    ["--sort", "name [c] nulls last, id", "--limit", "3", "--offset", "1", "--result", "ids"],
    ["--where", "city == %@", "--arg", #""Oslo""#, "--result", "count"],
    ["--properties", "city,rating", "--distinct", "--sort", "city desc"],
    ["--group-by", "city", "--aggregate", "n=count:(SELF)", "--aggregate", "sum:(visits)", "--having", "n > 1"],
    ["--group-by", "city", "--aggregate", "best=max:(rating)", "--having", "$best >= %@", "--arg", "4.5"],
    ["--sort", "visits desc, id", "--properties", "id,visits", "--batch-size", "2"],
    ["--where", "name BEGINSWITH[cd] 'a'", "--sort", "id", "--result", "dictionaries"],
  ]

  @Test func everySourceGivesTheSameLines() throws {
    let data = Self.scratch("json")
    try Data(Self.json.utf8).write(to: URL(fileURLWithPath: data))
    let db = Self.scratch("sqlite")
    try SQLiteDatabase(path: db).executeScript(Self.script)
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    var pgArgs: [String]?
    var pg: PostgresDatabase?
    if let info = ProcessInfo.processInfo.environment["SIFT_POSTGRES"], !info.isEmpty {
      let conn = try PostgresDatabase(conninfo: info, schema: .temporary(prefix: "sift_fetchcmd"))
      try conn.run(Self.script)
      pg = conn
      pgArgs = ["--postgres", info, "--pg-schema", conn.schemaName ?? "", "--entity", "place"]
    }
    defer { pg?.close() }
    for request in Self.requests {
      let memory = try SiftProcess.run(["fetch", "--data", data] + request, stdin: "")
      #expect(memory.status == 0, "\(request): \(memory.stderr)")
      let sqlite = try SiftProcess.run(["fetch", "--db", db, "--entity", "place"] + request, stdin: "")
      #expect(sqlite.status == 0, "\(request): \(sqlite.stderr)")
      // JSON numbers: the file's 4 is an integer where the column answers 4.0.
      let normal = { (s: String) in
        s.replacingOccurrences(of: ".0}", with: "}").replacingOccurrences(of: ".0,", with: ",")
      }
      if request.contains("ids") {
        // Memory's ids are positions in the file (from 0), the database's the primary key (from 1).
        let positions = memory.stdout.split(separator: "\n").compactMap { Int($0) }.map { String($0 + 1) }
        #expect(positions == sqlite.stdout.split(separator: "\n").map(String.init), "\(request)")
      } else {
        #expect(normal(memory.stdout) == normal(sqlite.stdout), "\(request)")
      }
      #expect(!memory.stdout.isEmpty, "\(request)")
      if let pgArgs {
        let postgres = try SiftProcess.run(["fetch"] + pgArgs + request, stdin: "")
        #expect(postgres.status == 0, "\(request): \(postgres.stderr)")
        #expect(normal(postgres.stdout) == normal(sqlite.stdout), "\(request)")
      }
    }
    let grouped = try SiftProcess.run(
      [
        "fetch", "--db", db, "--entity", "place", "--group-by", "city", "--aggregate", "n=count:(SELF)", "--having",
        "n > 1",
      ], stdin: "")
    #expect(grouped.stdout == "{\"city\": \"Bergen\", \"n\": 2}\n{\"city\": \"Oslo\", \"n\": 3}\n")
    // Read-only: the file is as it was.
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
  }

  @Test func refusalsAndUsage() throws {
    let data = Self.scratch("json")
    try Data(Self.json.utf8).write(to: URL(fileURLWithPath: data))
    for (args, status, message) in [
      (["--data", data, "--having", "n > 1"], Int32(2), "--having needs --group-by"),
      (["--data", data, "--distinct"], 2, "--distinct needs --properties"),
      (["--data", data, "--properties", "name", "--result", "count"], 2, "does not go with"),
      (
        ["--data", data, "--group-by", "city", "--aggregate", "n=count:(SELF)", "--having", "m > 1"], 1,
        "'m' is not a column"
      ),
      (["--data", data, "--properties", "name", "--distinct", "--sort", "id"], 1, "'id' is not one of them"),
      (["--db", Self.scratch("sqlite"), "--entity", "place"], 1, "cannot open"),
      (["--data", data, "--sample", "venues"], 2, "one source"),
      (["--db", "x.sqlite"], 2, "--entity"),
      // Found by review: each of these used to answer quietly with something else.
      (["--data", data, "--where", "visits > 4", "--where", "visits < 2"], 2, "--where is given more than once"),
      (
        ["--data", data, "--group-by", "city", "--aggregate", "n=count:(SELF)", "--sort", "n desc"], 2,
        "--sort does not go"
      ),
      (
        ["--data", data, "--group-by", "city", "--aggregate", "n=count:(SELF)", "--aggregate", "n=sum:(visits)"], 2,
        "named 'n'"
      ),
      (["--data", data, "--group-by", "city", "--aggregate", "city=count:(SELF)"], 2, "named 'city'"),
    ] as [([String], Int32, String)] {
      let r = try SiftProcess.run(["fetch"] + args, stdin: "")
      #expect(r.status == status, "\(args): \(r.stderr)")
      #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
      #expect(r.stdout.isEmpty)
    }
  }

  /// Every `$ sift …` line of CommandLine.md's `sift fetch` transcript prints what follows it.
  @Test func theTranscriptInTheDocsHolds() throws {
    let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/SiftCLI/SiftCLI.docc/CommandLine.md")
    let text = try String(contentsOf: doc, encoding: .utf8)
    let section = try #require(text.components(separatedBy: "### `sift fetch`").dropFirst().first)
    let block = try #require(
      section.components(separatedBy: "```console\n").dropFirst().first?
        .components(separatedBy: "```").first)
    var commands: [(String, String)] = []
    for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("$ sift ") {
        commands.append((String(line.dropFirst(2)), ""))
      } else if !commands.isEmpty, !line.isEmpty {
        commands[commands.count - 1].1 += line + "\n"
      }
    }
    #expect(commands.count >= 5)
    for (command, expected) in commands {
      let words = Self.shellWords(command)
      let r = try SiftProcess.run(Array(words.dropFirst()), stdin: "")
      #expect(r.status == 0, "\(command): \(r.stderr)")
      #expect(r.stdout == expected, "\(command)")
    }
  }

  /// Words of a shell line: single quotes keep everything, spaces split.
  static func shellWords(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var inWord = false
    for ch in line {
      if ch == "'" {
        quoted.toggle()
        inWord = true
      } else if ch == " " && !quoted {
        if inWord { words.append(current) }
        current = ""
        inWord = false
      } else {
        current.append(ch)
        inWord = true
      }
    }
    if inWord { words.append(current) }
    return words
  }
}

extension FetchSubcommandTests {
  /// `--no-subentities` on a Core Data store: Book's own objects, not its Novels and Comics.
  @Test func ownRowsOfACoreDataEntity() throws {
    let (dir, path) = try CoreDataCLITests.store()
    defer { try? FileManager.default.removeItem(at: dir) }
    let base = ["fetch", "--db", path, "--model", CoreDataCLITests.model, "--entity", "Book", "--sort", "title"]
    let all = try SiftProcess.run(base + ["--result", "count"], stdin: "")
    #expect(all.stdout == "{\"count\": 5}\n", "\(all.stderr)")
    let own = try SiftProcess.run(base + ["--no-subentities", "--properties", "title"], stdin: "")
    #expect(own.stdout == "{\"title\": \"Reference Manual\"}\n{\"title\": \"Untitled\"}\n", "\(own.stderr)")
  }
}
