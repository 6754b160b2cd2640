import Foundation
import SiftMySQL
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

@Suite(.enabled(if: MySQLTestServer.isAvailable, "\(MySQLTestServer.skipMessage)"))
struct MySQLIntrospectionTests {
  @Test func tablesViewsKeysIndexesAndNativeTypes() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript(
      """
      CREATE TABLE person (id BIGINT UNSIGNED PRIMARY KEY, name VARCHAR(40) NOT NULL, active TINYINT(1),
        flag BIT(1), score DECIMAL(10,2), born DATE, seen DATETIME(6), stamp TIMESTAMP NULL, meta JSON,
        mood ENUM('x','y'), tags SET('a','b'), photo BLOB, at TIME, spot POINT, y YEAR, KEY by_name (name),
        UNIQUE KEY by_prefix (name(4)));
      CREATE TABLE note (id INT PRIMARY KEY, author_id BIGINT UNSIGNED, body TEXT,
        CONSTRAINT fk_author FOREIGN KEY (author_id) REFERENCES person (id));
      CREATE TABLE pair (a INT, b INT, PRIMARY KEY (a, b));
      CREATE VIEW adults AS SELECT id, name FROM person;
      """)
    let read = try s.reader().introspectSchema()
    let schema = read.schema
    #expect(schema.entityNames.sorted() == ["adults", "note", "pair", "person"])
    let person = try #require(schema.entity("person"))
    func type(_ name: String) -> SQLAttributeType? { person.attributes.first { $0.name == name }?.type }
    #expect(type("id") == .integer)
    #expect(type("active") == .boolean)
    #expect(type("flag") == .boolean)
    #expect(type("score") == .double)
    #expect(type("born") == .date)
    #expect(type("seen") == .date)
    #expect(type("stamp") == .date)
    #expect(type("meta") == .string)
    #expect(type("mood") == .string)
    #expect(type("tags") == .string)
    #expect(type("photo") == .data)
    #expect(type("y") == .integer)
    #expect(type("at") == nil)
    #expect(type("spot") == nil)
    #expect(person.attributes.first { $0.name == "seen" }?.nativeType == "datetime(6)")
    #expect(person.attributes.first { $0.name == "score" }?.nativeType == "decimal(10,2)")
    #expect(person.attributes.first { $0.name == "seen" }?.dateEncoding == .sqliteDateTime)
    #expect(person.attributes.first { $0.name == "born" }?.dateEncoding == .isoDate)
    let unsupported = read.warnings.filter { $0.kind == .unsupportedColumn }.map { $0.columns }
    #expect(unsupported == [["at"], ["spot"]])
    #expect(Set(person.indexes.map { $0.name }) == ["PRIMARY", "by_name", "by_prefix"])
    #expect(person.indexes.first { $0.name == "by_prefix" }?.hasExpressions == true)
    #expect(person.indexes.first { $0.name == "by_name" }?.columns == ["name"])
    let note = try #require(schema.entity("note"))
    #expect(note.relationships.map { $0.name }.contains("author"))
    #expect(person.relationships.map { $0.name }.contains("note"))
    #expect(read.warnings.contains { $0.kind == .noSingleColumnKey && $0.table == "pair" })
  }

  @Test func hostileIdentifiersAreReadAsTheyAre() throws {
    let s = try MySQLTestServer.Scratch()
    let q = MySQLDatabase.quoteIdentifier
    // MySQL names are at most 64 characters, never end in a space and hold no NUL.
    let names = [
      "a`b", "it's \"quoted\"", "tab\there", "new\nline", "bell\u{7}", "é漢字", String(repeating: "n", count: 64),
    ]
    func column(_ i: Int) -> String { "c\(i)" + names[i].prefix(20) }
    for (i, name) in names.enumerated() {
      try s.db.executeScript(
        "CREATE TABLE \(q(name)) (id INT PRIMARY KEY, \(q(column(i))) VARCHAR(100), \(q("v\(i)`x")) INT)")
      _ = try s.db.execute(
        SQLStatement(
          sql: "INSERT INTO \(q(name)) (id, \(q(column(i)))) VALUES (?, ?)", bindings: [.integer(1), .text(name)]))
    }
    let read = try s.reader().introspectSchema()
    for (i, name) in names.enumerated() {
      let rows = try s.db.execute(
        SQLStatement(sql: "SELECT \(q(column(i))) FROM \(q(name)) WHERE id = ?", bindings: [.integer(1)]))
      #expect(rows == [[.text(name)]])
      // Sift's rule for every engine: a name with a control character is left out, with a warning.
      if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
        #expect(read.warnings.contains { $0.kind == .unusableName && $0.table == name }, "\(name.debugDescription)")
        continue
      }
      let entity = try #require(read.schema.entities.values.first { $0.table == name }, "\(name.debugDescription)")
      #expect(entity.attributes.map { $0.column }.sorted() == ["id", column(i), "v\(i)`x"].sorted())
    }
    // A 1,000-character name is the server's error, not a crash.
    let long = String(repeating: "x", count: 1000)
    let e = expectSiftError(id: "mysql-query", stage: .sql) {
      try s.db.executeScript("CREATE TABLE \(q(long)) (a INT)")
    }
    #expect([1059, 1103].contains((e?.underlying as? MySQLError)?.code ?? 0), "\(String(describing: e))")
  }

  @Test func databasesDifferingInCaseStayApart() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE only_here (id INT PRIMARY KEY)")
    let upper = s.name.uppercased()
    try s.admin.executeScript("CREATE DATABASE \(MySQLDatabase.quoteIdentifier(upper))")
    defer { try? s.admin.executeScript("DROP DATABASE IF EXISTS \(MySQLDatabase.quoteIdentifier(upper))") }
    #expect(try s.reader().introspectSchema(named: upper).schema.entityNames.isEmpty)
    #expect(try s.reader().introspectSchema().schema.entityNames == ["only_here"])
  }

  @Test func aSelectOnlyUserCanIntrospect() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE t (id INT PRIMARY KEY, k INT, KEY (k))")
    let user = MySQLTestServer.unique("sift_ro")
    let password = MySQLTestServer.unique("pw")
    try s.admin.executeScript(
      "CREATE USER '\(user)'@'%' IDENTIFIED BY '\(password)'; "
        + "GRANT SELECT ON \(MySQLDatabase.quoteIdentifier(s.name)).* TO '\(user)'@'%'")
    defer { try? s.admin.executeScript("DROP USER IF EXISTS '\(user)'@'%'") }
    let db = try MySQLDatabase(url: try MySQLTestServer.url(database: s.name, user: user, password: password))
    defer { db.close() }
    let schema = try db.introspectSchema().schema
    #expect(schema.entity("t")?.indexes.count == 2)
  }
}
