import Foundation
import Testing

@testable import SiftCLI

/// The REPL against a live PostgreSQL server, when env `SIFT_POSTGRES` holds a conninfo
/// (`.ci/postgres-setup` prints one); skipped with a note otherwise.
enum REPLPostgres {
  static let conninfo: String? = {
    let info = ProcessInfo.processInfo.environment["SIFT_POSTGRES"]?.trimmingCharacters(in: .whitespaces) ?? ""
    if info.isEmpty {
      FileHandle.standardError.write(Data("note: SIFT_POSTGRES is not set; \(skipMessage)\n".utf8))
      return nil
    }
    return info
  }()

  static let skipMessage =
    "REPL PostgreSQL tests skipped: run `.ci/postgres-setup` (as root) and set "
    + "SIFT_POSTGRES='host=127.0.0.1 user=sift password=sift dbname=sift'"

  static var available: Bool { conninfo != nil }
}

@Suite(
  "REPL with PostgreSQL (live)",
  .enabled(if: REPLPostgres.available, Comment(rawValue: REPLPostgres.skipMessage)))
struct REPLPostgresTests {
  /// Script mode through the real binary: `--postgres`, `.compare` three ways, `.engine
  /// postgres`, a loaded (inferred-schema) entity, and exit status 0.
  @Test(
    "sift --postgres: .compare agrees three ways and .engine postgres answers like memory",
    .enabled(if: TmuxHarness.siftBinary != nil, "skipped: the built sift binary is not available"))
  func scriptAgainstServer() throws {
    let conninfo = try #require(REPLPostgres.conninfo)
    let script = """
      .compare distance < 1 AND ANY tags == 'wifi'
      .engine postgres
      .columns id, name, distance
      distance < 1 AND ANY tags == 'wifi'
      .count name BEGINSWITH[cd] 'nandu'
      .use notes
      .compare title CONTAINS[cd] 'resume' OR ANY checklist.done == true
      .generate 3000 --as gen
      .let SINCE = {"$date": "2023-01-01T00:00:00Z"}
      .engine postgres
      .compare city ==[c] 'BERLIN' AND createdAt > $SINCE AND tags.@count >= 2
      .count city ==[c] 'BERLIN' AND createdAt > $SINCE AND tags.@count >= 2
      .engine memory
      .count city ==[c] 'BERLIN' AND createdAt > $SINCE AND tags.@count >= 2
      .status
      """
    let run = try SiftProcess.run(["--no-history", "--postgres", conninfo], stdin: script + "\n")
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let out = run.stdout
    #expect(
      out.contains(
        """
          memory   7 matches
          sqlite   7 matches
          postgres 7 matches
        agree: 7 records
        engine: postgres
        columns: id, name, distance
         id  | name           | distance
        -----+----------------+----------
          41 | Happy Taquería |     0.85
          63 | quiet Pizzeria |     0.12
         182 | new Diner      |     0.14
         296 | Ñandú bar      |     0.77
        """), "\(out)")
    #expect(out.contains("(7 rows)\n"))
    let threeWay = try #require(out.firstRange(of: "entity: notes (200 records)\n"))
    let afterNotes = out[threeWay.upperBound...]
    #expect(afterNotes.hasPrefix("  memory   "))
    #expect(afterNotes.contains("  postgres "))
    // Both .compare runs agree, and PostgreSQL counts like memory on generated records.
    #expect(out.components(separatedBy: "agree: ").count - 1 == 3, "\(out)")
    let counts = out.split(separator: "\n").filter { $0.allSatisfy(\.isNumber) }
    #expect(counts.count == 3 && counts[1] == counts[2] && counts[1] != "0", "\(counts)")
    // The binary's temporary schema is gone once it has exited.
    let status = try #require(out.firstRange(of: " postgres   connected (schema "))
    let schema = String(out[status.upperBound...].prefix { $0 != ")" })
    #expect(schema.hasPrefix("sift_repl_"))
    let probe = REPLSession()
    #expect(probe.execute(".connect " + conninfo).status == .ok)
    let rows = try probe.sql.postgres?.execute(
      .init(sql: "SELECT count(*) FROM pg_namespace WHERE nspname = $1", bindings: [.text(schema)]))
    #expect(rows?.first?.first == .integer(0), "\(schema) is still there")
  }

  /// In process: a replaced entity is copied again; bad conninfo is an error, not a crash.
  @Test("reconnecting, replacing an entity, and a bad conninfo")
  func reconnect() throws {
    let conninfo = try #require(REPLPostgres.conninfo)
    let session = REPLSession()
    #expect(
      session.execute(".connect host=127.0.0.1 port=1 connect_timeout=2").text
        .hasPrefix("error: cannot connect to PostgreSQL: "))
    #expect(session.execute(".engine postgres").text == "error: not connected to PostgreSQL; use .connect CONNINFO\n")
    #expect(session.execute(".connect " + conninfo).text.hasPrefix("connected to PostgreSQL (schema sift_repl_"))
    for n in [400, 250] {
      #expect(session.execute(".generate \(n) --as g").status == .ok)
      #expect(session.execute(".engine postgres").text == "engine: postgres\n")
      #expect(session.execute(".count TRUEPREDICATE").text == "\(n)\n")
      #expect(session.execute(".compare id >= 100").text.hasSuffix("agree: \(n - 100) records\n"))
    }
    let first = try #require(session.sql.postgres?.schemaName)
    #expect(session.execute(".connect " + conninfo).status == .ok)
    #expect(session.execute(".count TRUEPREDICATE").text == "250\n")
    // The first connection's temporary schema was dropped when it was replaced.
    let current = try #require(session.sql.postgres?.schemaName)
    for (schema, expected) in [(first, Int64(0)), (current, Int64(1))] {
      let rows = try session.sql.postgres?.execute(
        .init(sql: "SELECT count(*) FROM pg_namespace WHERE nspname = $1", bindings: [.text(schema)]))
      #expect(rows?.first?.first == .integer(expected), "\(schema): \(String(describing: rows))")
    }
  }
}

/// Runs the built `sift` binary with arguments and standard input.
enum SiftProcess {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static func run(_ arguments: [String], stdin: String) throws -> Result {
    let binary = try #require(TmuxHarness.siftBinary)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binary)
    p.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    p.environment = environment
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    p.standardInput = input
    p.standardOutput = output
    p.standardError = errors
    try p.run()
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return Result(
      status: p.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }
}
