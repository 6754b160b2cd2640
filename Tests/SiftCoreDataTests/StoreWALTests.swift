import Foundation
import SiftCoreData
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// A store in WAL mode, as Core Data leaves one (`Store.sqlite`, `-wal`, `-shm`): rows still
/// in the `-wal` file are seen, and opening and querying it writes nothing (every file's bytes
/// and the folder's listing are unchanged).
@Suite("Core Data store with -wal and -shm files")
struct StoreWALTests {
  struct Snapshot: Equatable {
    var files: [String: Data]
    var listing: [String]
  }

  static func snapshot(_ dir: URL) throws -> Snapshot {
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    var files: [String: Data] = [:]
    for n in names { files[n] = FileManager.default.contents(atPath: dir.appendingPathComponent(n).path) }
    return Snapshot(files: files, listing: names)
  }

  /// Asks the store, through `CoreDataStore`, which tags there are.
  static func tagNames(_ path: String) throws -> [String] {
    let store = try CoreDataStore(database: try SQLiteDatabase(untouched: path))
    let st = try SQLCompiler(dialect: SQLiteDialect(), schema: store.schema)
      .compile(
        SiftFetchRequest(
          entity: "Tag", predicate: try SiftPredicate(format: "items.@count >= 0"), resultType: .properties(["name"])))
    return try store.database.execute(st).map { row in if case .text(let s)? = row.first { s } else { "?" } }
  }

  @Test func walContentIsReadAndNothingIsWritten() throws {
    let dir = try CoreDataFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("Library.sqlite").path
    let writer = try SQLiteDatabase(path: path)
    try writer.executeScript(try String(contentsOf: CoreDataFixtures.url("Library.sql"), encoding: .utf8))
    _ = try writer.execute(SQLStatement(sql: "PRAGMA journal_mode = WAL"))
    _ = try writer.execute(SQLStatement(sql: "PRAGMA wal_autocheckpoint = 0"))
    // Saved by "the app" after the switch: only in Library.sqlite-wal until a checkpoint.
    try writer.executeScript(
      "INSERT INTO ZTAG VALUES (4, 8, 1, 0, 'in the wal'); UPDATE Z_PRIMARYKEY SET Z_MAX = 4 WHERE Z_ENT = 8;")
    let before = try Self.snapshot(dir)
    #expect(before.listing == ["Library.sqlite", "Library.sqlite-shm", "Library.sqlite-wal"])
    #expect((before.files["Library.sqlite-wal"]?.count ?? 0) > 0)
    #expect(String(decoding: before.files["Library.sqlite"] ?? Data(), as: UTF8.self).contains("in the wal") == false)

    #expect(try Self.tagNames(path) == ["fantasy", "classic", "unused", "in the wal"])
    let after = try Self.snapshot(dir)
    #expect(after.listing == before.listing)
    // The -shm is the writer's shared memory. A reader in another process maps it read-only
    // (`readonly_shm=1`) and never writes it; a reader in the writer's own process (this test)
    // shares the writer's mapping, so the one thing it may change there is a read mark
    // (the WAL index's aReadMark slots, bytes 100 to 119).
    for n in before.listing where !n.hasSuffix("-shm") { #expect(after.files[n] == before.files[n], "\(n) changed") }
    func withoutReadMarks(_ shm: Data?) -> Data? { shm.map { Data($0.prefix(100)) + Data($0.dropFirst(120)) } }
    #expect(withoutReadMarks(after.files["Library.sqlite-shm"]) == withoutReadMarks(before.files["Library.sqlite-shm"]))

    // The same three files copied away from the app (no writer open any more).
    let copy = try CoreDataFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: copy) }
    for n in before.listing {
      try FileManager.default.copyItem(at: dir.appendingPathComponent(n), to: copy.appendingPathComponent(n))
    }
    let copied = try Self.snapshot(copy)
    #expect(try Self.tagNames(copy.appendingPathComponent("Library.sqlite").path).last == "in the wal")
    let afterCopy = try Self.snapshot(copy)
    #expect(afterCopy.listing == copied.listing)
    for n in copied.listing { #expect(afterCopy.files[n] == copied.files[n], "copy: \(n) changed") }
    _ = writer

    // A WAL-mode store with no -wal or -shm beside it (the app closed it cleanly): a plain
    // read-only connection would create both; this one creates nothing.
    let clean = try CoreDataFixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: clean) }
    try FileManager.default.copyItem(
      at: copy.appendingPathComponent("Library.sqlite"), to: clean.appendingPathComponent("Library.sqlite"))
    let cleanBefore = try Self.snapshot(clean)
    #expect(try Self.tagNames(clean.appendingPathComponent("Library.sqlite").path).count == 3)
    #expect(try Self.snapshot(clean) == cleanBefore)
    #expect(cleanBefore.listing == ["Library.sqlite"])
  }
}
