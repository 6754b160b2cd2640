import Foundation
import SiftMySQL
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

/// Refusals, limits and lost connections: each a clear error, and the connection goes on.
@Suite(.enabled(if: MySQLTestServer.isAvailable, "\(MySQLTestServer.skipMessage)"))
struct MySQLFailureTests {
  @Test func aReadOnlyConnectionRefusesWritesAndDDL() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE r (id INT PRIMARY KEY); INSERT INTO r VALUES (1)")
    let reader = try s.reader()
    #expect(reader.isReadOnly)
    let e = expectSiftError(id: "mysql-query", stage: .sql) {
      try reader.execute(SQLStatement(sql: "DELETE FROM r WHERE id = ?", bindings: [.integer(1)]))
    }
    #expect((e?.underlying as? MySQLError)?.code == 1792, "\(String(describing: e))")
    expectSiftError(id: "mysql-query", stage: .sql) { try reader.executeScript("CREATE TABLE r2 (a INT)") }
    expectSiftError(id: "mysql-query", stage: .sql) {
      try reader.executeTransaction([SQLStatement(sql: "DELETE FROM r")])
    }
    #expect(try reader.execute(SQLStatement(sql: "SELECT COUNT(*) FROM r")) == [[.integer(1)]])
  }

  @Test func aUserWithOnlySelectCanRead() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE p (id INT PRIMARY KEY, name VARCHAR(10)); INSERT INTO p VALUES (1, 'a')")
    let user = MySQLTestServer.unique("sift_ro")
    let password = "pw-" + MySQLTestServer.unique("x")
    let q = MySQLDatabase.quoteIdentifier
    // CREATE USER takes no placeholders: the names are generated here, the password is hex.
    try s.admin.executeScript(
      "CREATE USER '\(user)'@'%' IDENTIFIED BY '\(password)'; GRANT SELECT ON \(q(s.name)).* TO '\(user)'@'%'")
    defer { try? s.admin.executeScript("DROP USER IF EXISTS '\(user)'@'%'") }
    let reader = try MySQLDatabase(url: try MySQLTestServer.url(database: s.name, user: user, password: password))
    defer { reader.close() }
    #expect(
      try reader.execute(SQLStatement(sql: "SELECT name FROM p WHERE id = ?", bindings: [.integer(1)])) == [
        [.text("a")]
      ])
    let e = expectSiftError(id: "mysql-query", stage: .sql) {
      try MySQLDatabase(url: try MySQLTestServer.url(database: s.name, user: user, password: password), readOnly: false)
        .execute(SQLStatement(sql: "INSERT INTO p VALUES (?, ?)", bindings: [.integer(2), .text("b")]))
    }
    #expect((e?.underlying as? MySQLError)?.code == 1142, "\(String(describing: e))")
  }

  @Test func aWrongPasswordIsAConnectionErrorNamingTheServer() throws {
    let url = try MySQLTestServer.url(database: "sift", password: "not-the-password")
    let e = expectSiftError(id: "mysql-connection", stage: .sql) { try MySQLDatabase(url: url) }
    let server = try MySQLURL(url).server
    #expect(e?.message.contains(server) == true, "\(e?.message ?? "")")
    #expect(e?.message.contains("not-the-password") == false)
  }

  @Test func aLockWaitTimesOutWithAClearErrorAndTheConnectionGoesOn() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE l (id INT PRIMARY KEY, v INT) ENGINE=InnoDB; INSERT INTO l VALUES (1, 0)")
    try s.db.executeScript("BEGIN; UPDATE l SET v = 1 WHERE id = 1")
    defer { try? s.db.executeScript("ROLLBACK") }
    let other = try MySQLDatabase(
      url: try MySQLTestServer.url(database: s.name), readOnly: false,
      timeouts: MySQLTimeouts(connect: 5, lock: 1, statement: 30))
    defer { other.close() }
    let e = expectSiftError(id: "mysql-query", stage: .sql) {
      try other.execute(SQLStatement(sql: "UPDATE l SET v = ? WHERE id = ?", bindings: [.integer(2), .integer(1)]))
    }
    #expect((e?.underlying as? MySQLError)?.code == 1205)
    #expect(e?.message.contains("innodb_lock_wait_timeout") == true, "\(e?.message ?? "")")
    #expect(try other.execute(SQLStatement(sql: "SELECT 1")) == [[.integer(1)]])
  }

  @Test func aStatementPastItsTimeLimitIsStoppedAndTheConnectionGoesOn() throws {
    let s = try MySQLTestServer.Scratch()
    let db = try MySQLDatabase(
      url: try MySQLTestServer.url(database: s.name), timeouts: MySQLTimeouts(connect: 5, lock: 5, statement: 0.2))
    defer { db.close() }
    let e = expectSiftError(id: "mysql-query", stage: .sql) {
      // A SELECT (MySQL's max_execution_time bounds only those) that would sleep for 5 s.
      try db.execute(
        SQLStatement(sql: "SELECT SLEEP(?) FROM (SELECT 1) x WHERE 1 = (SELECT 1)", bindings: [.integer(5)]))
    }
    #expect([1969, 3024].contains((e?.underlying as? MySQLError)?.code ?? 0), "\(String(describing: e))")
    #expect(e?.message.contains("max_statement_time") == true)
    #expect(try db.execute(SQLStatement(sql: "SELECT 2")) == [[.integer(2)]])
  }

  @Test func aKilledConnectionIsAClearErrorAndTheNextStatementConnectsAgain() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE k (id INT PRIMARY KEY)")
    let db = try s.reader()
    defer { db.close() }
    let id = db.connectionID
    #expect(id > 0)
    _ = try s.admin.execute(SQLStatement(sql: "KILL CONNECTION ?", bindings: [.integer(Int64(id))]))
    let e = expectSiftError(id: "mysql-connection", stage: .sql) { try db.execute(SQLStatement(sql: "SELECT 1")) }
    #expect(e?.message.contains("connection was lost") == true, "\(e?.message ?? "")")
    #expect(try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM k")) == [[.integer(0)]])
    #expect(db.connectionID != id)
  }

  @Test func aConnectionKilledMidFetchIsAClearError() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE m (id INT PRIMARY KEY)")
    for i in 0..<50 {
      _ = try s.db.execute(SQLStatement(sql: "INSERT INTO m VALUES (?)", bindings: [.integer(Int64(i))]))
    }
    let db = try s.reader()
    defer { db.close() }
    let id = Int64(db.connectionID)
    var batches = 0
    expectSiftError(id: "mysql-connection", stage: .sql) {
      try db.forEachBatch(SQLStatement(sql: "SELECT id FROM m ORDER BY id"), size: 5) { _ throws(SiftError) in
        batches += 1
        if batches == 1 { _ = try s.admin.execute(SQLStatement(sql: "KILL CONNECTION ?", bindings: [.integer(id)])) }
      }
    }
    #expect(batches == 1)
    #expect(try db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM m")) == [[.integer(50)]])
  }

  @Test func aConnectionLostInATransactionRefusesUntilRollback() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE x (id INT PRIMARY KEY) ENGINE=InnoDB")
    let writer = try MySQLDatabase(url: try MySQLTestServer.url(database: s.name), readOnly: false)
    defer { writer.close() }
    try writer.executeScript("BEGIN")
    _ = try writer.execute(SQLStatement(sql: "INSERT INTO x VALUES (?)", bindings: [.integer(1)]))
    _ = try s.admin.execute(SQLStatement(sql: "KILL CONNECTION ?", bindings: [.integer(Int64(writer.connectionID))]))
    expectSiftError(id: "mysql-connection", stage: .sql) {
      try writer.execute(SQLStatement(sql: "INSERT INTO x VALUES (?)", bindings: [.integer(2)]))
    }
    let refused = expectSiftError(id: "mysql-connection", stage: .sql) {
      try writer.execute(SQLStatement(sql: "INSERT INTO x VALUES (?)", bindings: [.integer(3)]))
    }
    #expect(refused?.message.contains("ROLLBACK") == true, "\(refused?.message ?? "")")
    try writer.executeScript("ROLLBACK")
    #expect(try writer.execute(SQLStatement(sql: "SELECT COUNT(*) FROM x")) == [[.integer(0)]])
  }

  @Test func aClosedConnectionRefuses() throws {
    let s = try MySQLTestServer.Scratch()
    let db = try s.reader()
    db.close()
    db.close()
    expectSiftError(id: "mysql-connection", stage: .sql) { try db.execute(SQLStatement(sql: "SELECT 1")) }
  }
}

extension MySQLFailureTests {
  @Test func aTimeLimitStopsOneStatementAndIsPutBack() throws {
    let s = try MySQLTestServer.Scratch()
    let db = try s.reader()
    defer { db.close() }
    let e = expectSiftError(id: "time-limit", stage: .policy) {
      try db.execute(SQLStatement(sql: "SELECT SLEEP(?)", bindings: [.integer(5)]), timeLimit: 100)
    }
    #expect([1969, 3024].contains((e?.underlying as? MySQLError)?.code ?? 0), "\(String(describing: e))")
    let variable = db.isMariaDB ? "@@session.max_statement_time" : "@@session.max_execution_time"
    let row = try db.execute(SQLStatement(sql: "SELECT \(variable)")).first?.first
    #expect(row == (db.isMariaDB ? .double(300) : .integer(300_000)), "\(String(describing: row))")
    #expect(try db.execute(SQLStatement(sql: "SELECT ?", bindings: [.integer(1)]), timeLimit: 5000) == [[.integer(1)]])
  }
}

extension MySQLFailureTests {
  @Test func aLockedTableIsWaitedForABoundedTime() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE lt (id INT PRIMARY KEY) ENGINE=InnoDB; INSERT INTO lt VALUES (1)")
    // An open transaction holds the table's metadata lock; ALTER TABLE has to wait for it.
    try s.db.executeScript("BEGIN; SELECT * FROM lt")
    defer { try? s.db.executeScript("ROLLBACK") }
    let other = try MySQLDatabase(
      url: try MySQLTestServer.url(database: s.name), readOnly: false,
      timeouts: MySQLTimeouts(connect: 5, lock: 1, statement: 30))
    defer { other.close() }
    let e = expectSiftError(id: "mysql-query", stage: .sql) {
      try other.executeScript("ALTER TABLE lt ADD COLUMN v INT")
    }
    #expect((e?.underlying as? MySQLError)?.code == 1205, "\(String(describing: e))")
    #expect(try other.execute(SQLStatement(sql: "SELECT COUNT(*) FROM lt")) == [[.integer(1)]])
  }
}
