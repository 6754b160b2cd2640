import Foundation
import SiftSQL
import SiftSQLite
import Testing

/// `sift watch --db … --write` when another program renames a watched column: the failed
/// re-read is reported once (not every 250 ms), edits are refused until a full re-read
/// succeeds, and the watch resumes once the column is back.
@Suite(.enabled(if: TmuxHarness.siftBinary != nil, "the sift binary is built"))
struct WatchRereadTests {
  @Test func renamedColumnIsReportedOnceAndEditsWait() throws {
    let path = try WatchDatabaseTests.database()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: try #require(TmuxHarness.siftBinary))
    p.arguments = ["watch"] + WatchDatabaseTests.args + ["--db", path, "--write"]
    let input = Pipe(), output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    p.standardError = FileHandle.nullDevice
    try p.run()
    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }
    Thread.sleep(forTimeInterval: 0.5)
    let other = try SQLiteDatabase(path: path)
    try other.executeScript("ALTER TABLE Venue RENAME COLUMN rating TO score")
    Thread.sleep(forTimeInterval: 1.5)  // six looks at 250 ms
    send(#"{"update": {"id": 2, "set": {"name": "B"}}}"#)
    Thread.sleep(forTimeInterval: 0.3)
    try other.executeScript("ALTER TABLE Venue RENAME COLUMN score TO rating")
    Thread.sleep(forTimeInterval: 0.8)
    send(#"{"update": {"id": 2, "set": {"name": "Bee"}}}"#)
    try input.fileHandleForWriting.close()
    let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    let lines = out.split(separator: "\n").map(String.init)
    let failures = lines.filter { $0.contains("cannot be read again") && !$0.contains("edit not applied") }
    #expect(failures.count == 1, "\(out)")
    #expect(failures.first?.contains("restart sift watch") == true)
    #expect(lines.contains { $0.contains(#""message": "edit not applied: "#) && $0.contains(#""line": 1"#) }, "\(out)")
    #expect(lines.last?.contains(#""snapshot""#) == true, "the edit after recovery is answered: \(out)")
    #expect(try other.execute(SQLStatement(sql: "SELECT name FROM Venue WHERE id = 2")) == [[.text("Bee")]])
  }
}
