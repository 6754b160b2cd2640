import Foundation
import SiftMySQL
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

@Suite(.enabled(if: MySQLTestServer.isAvailable, "\(MySQLTestServer.skipMessage)"))
struct MySQLTypedResultsTests {
  struct Note: Decodable, Equatable {
    var id: Int
    var title: String
    var rating: Int
    var done: Bool
    var created: Date
  }

  @Test func recordsDecodeFromTheDatabasesOwnSchema() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript(
      """
      CREATE TABLE note (id BIGINT PRIMARY KEY, title VARCHAR(40) NOT NULL, rating INT NOT NULL,
        done TINYINT(1) NOT NULL, created DATETIME(3) NOT NULL);
      INSERT INTO note VALUES (1, 'Milk', 2, 0, '2024-01-05 10:30:00.250'), (2, 'Swift', 5, 1, '2024-02-01 00:00:00'),
        (3, 'Linux', 4, 0, '1999-12-31 23:59:59')
      """)
    let reader = try s.reader()
    let request = try SiftFetchRequest(
      entity: "note", predicate: SiftPredicate(format: "rating > %@", 3),
      sortDescriptors: [SiftSortDescriptor("title")])
    let notes = try reader.fetch(request, as: Note.self)
    #expect(notes.map(\.title) == ["Linux", "Swift"])
    #expect(notes.first?.created == Date(timeIntervalSince1970: 946_684_799))
    #expect(notes.last?.done == true)
    let early = try SiftFetchRequest(
      entity: "note", predicate: SiftPredicate(format: "created < %@", Date(timeIntervalSince1970: 1_704_450_600.5)))
    #expect(try reader.fetch(early, as: Note.self).map(\.id) == [1, 3])
    #expect(try reader.fetchCount(SiftFetchRequest(entity: "note")) == 3)
  }

  @Test func aSchemaFileThatMisdescribesAColumnIsRefused() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript(
      "CREATE TABLE ev (id BIGINT PRIMARY KEY, at VARCHAR(30)); INSERT INTO ev VALUES (1, '2024-01-01 00:00:00')")
    let schema = try SQLSchema(json: #"{"entities": {"ev": {"attributes": {"at": "date"}}}}"#)
    expectSiftError(id: "schema-mismatch") { try s.reader().fetchCount(SiftFetchRequest(entity: "ev"), schema: schema) }
  }
}

extension MySQLTypedResultsTests {
  @Test func missingSiftFunctionsAreNamedAndCreatedOnRequest() throws {
    let s = try MySQLTestServer.Scratch()
    let q = MySQLDatabase.quoteIdentifier
    let e = expectSiftError(id: "missing-sift-functions", stage: .sql) {
      try s.db.execute(SQLStatement(sql: "SELECT \(q(s.name)).sift_idiv(?, ?)", bindings: [.integer(7), .integer(2)]))
    }
    #expect(e?.message.contains("sift setup-sql --dialect mysql") == true, "\(e?.message ?? "")")
    try s.db.prepareSiftFunctions(database: s.name)
    try s.db.prepareSiftFunctions(database: s.name)  // again: nothing to do, no error
    #expect(
      try s.db.execute(SQLStatement(sql: "SELECT \(q(s.name)).sift_idiv(?, ?)", bindings: [.integer(7), .integer(2)]))
        == [[.integer(3)]])
  }

  @Test func aUserWhoMayNotCreateFunctionsIsToldWhatToDo() throws {
    let s = try MySQLTestServer.Scratch()
    let user = MySQLTestServer.unique("sift_ro")
    let password = MySQLTestServer.unique("pw")
    try s.admin.executeScript(
      "CREATE USER '\(user)'@'%' IDENTIFIED BY '\(password)'; "
        + "GRANT SELECT ON \(MySQLDatabase.quoteIdentifier(s.name)).* TO '\(user)'@'%'")
    defer { try? s.admin.executeScript("DROP USER IF EXISTS '\(user)'@'%'") }
    let db = try MySQLDatabase(
      url: try MySQLTestServer.url(database: s.name, user: user, password: password), readOnly: false)
    defer { db.close() }
    let e = expectSiftError(id: "sift-functions-privilege", stage: .sql) {
      try db.prepareSiftFunctions(database: s.name)
    }
    #expect(e?.message.contains("CREATE ROUTINE") == true, "\(e?.message ?? "")")
  }
}
