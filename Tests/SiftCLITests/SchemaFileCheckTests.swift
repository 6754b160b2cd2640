import Foundation
import SiftSQL
import Testing

@testable import SiftCLI

/// `--db FILE --schema FILE.json`: the schema file's date and boolean descriptions are checked
/// against the stored values when the database opens; a mismatch names the file, the column
/// and the fix, and nothing is queried.
@Suite("Schema files checked against the database")
struct SchemaFileCheckTests {
  @Test func dateDescribedAsSecondsOverTextIsRefused() throws {
    let (dir, path) = try ExistingFixture.notesFile()
    defer { try? FileManager.default.removeItem(at: dir) }
    let bad = dir.appendingPathComponent("bad.schema.json").path
    try #"{"entities": {"author": {"attributes": {"joined_at": {"dateEncoding": "secondsSince1970"}}}}}"#
      .write(toFile: bad, atomically: true, encoding: .utf8)
    do {
      let db = try ExistingDatabase.open(sqlite: path, schemaFile: bad)
      db.close()
      Issue.record("a schema file describing text dates as seconds was accepted")
    } catch {
      let message = error.description
      #expect(message.hasPrefix("\(bad): "), "\(message)")
      #expect(
        message.contains("author.joined_at") && message.contains("\"dateEncoding\": \"sqliteDateTime\""), "\(message)")
    }
    let good = dir.appendingPathComponent("good.schema.json").path
    try #"{"entities": {"author": {"attributes": {"joined_at": {"dateEncoding": "sqliteDateTime"}}}}}"#
      .write(toFile: good, atomically: true, encoding: .utf8)
    let db = try ExistingDatabase.open(sqlite: path, schemaFile: good)
    db.close()
  }
}
