import Foundation
import Testing

@testable import SiftCLI

/// A killed `sift load` leaves `.NAME.sift-load-PID-RANDOM` (and its journal) beside the target;
/// the next load of that target removes them when their process is gone, and nothing else
/// (issue #35, item 7).
@Suite(
  "sift load cleans up after killed loads",
  .enabled(if: ExistingFixture.binaryAvailable, "the sift binary is built"))
struct LoadLeftoverTests {
  /// A PID no process has: one of a child that has exited and been waited for.
  static func deadPID() throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/true")
    try p.run()
    p.waitUntilExit()
    return p.processIdentifier
  }

  @Test func aLaterLoadRemovesWhatAKilledOneLeft() throws {
    let dir = try ExistingFixture.tempDir()
    defer { try? FileManager.default.removeItem(at: dir) }
    let fm = FileManager.default
    let dead = try Self.deadPID()
    let running = getpid()  // this test process: alive
    let left = [
      ".out.sqlite.sift-load-\(dead)-123", ".out.sqlite.sift-load-\(dead)-123-journal",
      ".out.sqlite.sift-load-\(dead)-77-wal",
    ]
    let kept = [
      ".out.sqlite.sift-load-\(running)-5", ".out.sqlite.sift-load-\(running)-5-journal",  // a live load's
      ".other.sqlite.sift-load-\(dead)-9",  // another target's
      ".out.sqlite.sift-load-\(dead)-9.bak", ".out.sqlite.sift-load-x-9", "out.sqlite.sift-load-\(dead)-9",
      ".out.sqlite.sift-load-\(dead)", "notes.txt",
    ]
    for name in left + kept {
      try "x".write(toFile: dir.appendingPathComponent(name).path, atomically: false, encoding: .utf8)
    }
    let data = dir.appendingPathComponent("v.json").path
    try #"[{"id": 1, "name": "ok"}]"#.write(toFile: data, atomically: true, encoding: .utf8)
    let target = dir.appendingPathComponent("out.sqlite").path
    let r = try SiftProcess.run(
      [
        "load", "--data", data, "--schema", ExistingDatabaseCommandsTests.venueSchema, "--entity", "Venue", "--into",
        target,
      ],
      stdin: "")
    #expect(r.status == 0, "\(r.stderr)")
    let after = try fm.contentsOfDirectory(atPath: dir.path)
    #expect(Set(after) == Set(kept + ["v.json", "out.sqlite"]), "\(after.sorted())")
  }

  @Test func theNameNamesThisProcess() {
    let path = LoadTemporaryFiles.path(for: "/tmp/a b.sqlite")
    let name = (path as NSString).lastPathComponent
    #expect(path.hasPrefix("/tmp/.a b.sqlite.sift-load-\(getpid())-"))
    #expect(LoadTemporaryFiles.owner(of: name, target: "/tmp/a b.sqlite") == getpid())
    #expect(LoadTemporaryFiles.owner(of: name + "-journal", target: "/tmp/a b.sqlite") == getpid())
    #expect(LoadTemporaryFiles.owner(of: name, target: "/tmp/a.sqlite") == nil)
    #expect(LoadTemporaryFiles.path(for: "bare.sqlite").hasPrefix("./.bare.sqlite.sift-load-"))
  }
}
