import Foundation
import SiftSQL
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftMySQL

@Suite(.enabled(if: MySQLTestServer.isAvailable, "\(MySQLTestServer.skipMessage)"))
struct MySQLLoadingTests {
  @Test func rowsGoInMultiRowInsertsParentsFirst() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript(
      """
      CREATE TABLE `pa``rent` (id BIGINT PRIMARY KEY, name LONGTEXT) ENGINE=InnoDB;
      CREATE TABLE child (id BIGINT PRIMARY KEY, parent_id BIGINT, data LONGBLOB,
        FOREIGN KEY (parent_id) REFERENCES `pa``rent` (id)) ENGINE=InnoDB
      """)
    let writer = MySQLRowWriter(
      database: s.db, tables: [("pa`rent", ["id", "name"]), ("child", ["id", "parent_id", "data"])], maxRows: 7)
    try s.db.executeScript("BEGIN")
    for i in 0..<50 {
      // A child row right after its parent: a flush must send the parent's table first.
      try writer.write(0, [.integer(Int64(i)), .text("p\(i) 'q' \\ `")])
      try writer.write(1, [.integer(Int64(i)), .integer(Int64(i)), i % 2 == 0 ? .blob(Data([0, UInt8(i)])) : .null])
    }
    try writer.finish()
    try s.db.executeScript("COMMIT")
    #expect(
      try s.db.execute(SQLStatement(sql: "SELECT COUNT(*), MAX(name) FROM `pa``rent`")) == [
        [.integer(50), .text("p9 'q' \\ `")]
      ])
    #expect(
      try s.db.execute(SQLStatement(sql: "SELECT data FROM child WHERE id = ?", bindings: [.integer(4)])) == [
        [.blob(Data([0, 4]))]
      ])
  }

  @Test func aRowTheDatabaseRefusesUndoesTheLoad() throws {
    let s = try MySQLTestServer.Scratch()
    try s.db.executeScript("CREATE TABLE t (id BIGINT PRIMARY KEY) ENGINE=InnoDB")
    let writer = MySQLRowWriter(database: s.db, tables: [("t", ["id"])], maxRows: 3)
    try s.db.executeScript("BEGIN")
    expectSiftError(id: "mysql-query", stage: .sql) {
      for i in [1, 2, 3, 4, 5, 1] { try writer.write(0, [.integer(Int64(i))]) }
      try writer.finish()
    }
    writer.cancel()
    try s.db.executeScript("ROLLBACK")
    #expect(try s.db.execute(SQLStatement(sql: "SELECT COUNT(*) FROM t")) == [[.integer(0)]])
    expectSiftError(id: "mysql-unsupported-value", stage: .sql) { try writer.write(0, [.integer(1), .integer(2)]) }
  }
}
