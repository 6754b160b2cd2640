import Foundation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// One key strategy names the stored attributes of a converted `#Predicate` and
/// `SortDescriptor` and fills a `Decodable` type's properties from the same columns: a table
/// with snake_case columns, introspected, read into camelCase properties.
@Suite("Typed predicates: key strategies on SQLite and PostgreSQL")
struct TypedKeyStrategyTests {
  struct Note: Codable, Equatable, Sendable {
    var noteId: Int
    var title: String
    var updatedAt: Date
    var isPinned: Bool
  }

  static let script = """
    CREATE TABLE typed_key_note (note_id integer PRIMARY KEY, title text NOT NULL, updated_at %@ NOT NULL,
                                 is_pinned boolean NOT NULL);
    INSERT INTO typed_key_note VALUES (1, 'Milk', %@, true), (2, 'Swift', %@, false), (3, 'Linux', %@, true);
    """

  static let day = Date(timeIntervalSince1970: 1_700_000_000)

  func check(_ fetch: (SiftFetchRequest) throws -> [Note]) throws {
    let day = Self.day
    let request = try SiftFetchRequest(
      entity: "typed_key_note", predicate: #Predicate<Note> { $0.updatedAt > day && $0.isPinned },
      sortBy: [SortDescriptor(\.updatedAt, order: .reverse)], keys: .snakeCase)
    #expect(request.predicate?.predicateFormat.hasPrefix("updated_at > CAST(") == true)
    let notes = try fetch(request)
    #expect(notes.map(\.noteId) == [3, 1])
    #expect(notes.first?.updatedAt == Date(timeIntervalSince1970: 1_700_000_000 + 2 * 86_400))
    #expect(notes.allSatisfy { $0.isPinned })
  }

  @Test func sqlite() throws {
    let db = try SQLiteDatabase()
    let t = Self.day.timeIntervalSince1970
    let script = String(format: Self.script, "datetime", "\(t + 60)", "\(t - 60)", "\(t + 2 * 86_400)")
    try db.executeScript(
      script.replacingOccurrences(of: "true", with: "1").replacingOccurrences(of: "false", with: "0"))
    try check { try db.fetch($0, as: Note.self, keys: .snakeCase) }
    // Exact keys look for `noteId` and name the missing key.
    do {
      _ = try db.fetch(SiftFetchRequest(entity: "typed_key_note"), as: Note.self)
      Issue.record("decoded without the key strategy")
    } catch {
      #expect(error.id == "decode-missing-key")
    }
  }

  @Test(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.skipMessage)))
  func postgres() throws {
    let db = try PostgresTestServer.open()
    defer { db.close() }
    let t = Self.day.timeIntervalSince1970
    let at = { (s: Double) in "to_timestamp(\(s))" }
    try db.executeScript(String(format: Self.script, "timestamptz", at(t + 60), at(t - 60), at(t + 2 * 86_400)))
    try check { try db.fetch($0, as: Note.self, keys: .snakeCase) }
  }
}
