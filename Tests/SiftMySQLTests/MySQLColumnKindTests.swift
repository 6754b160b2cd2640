import Testing

@testable import SiftMySQL

/// Column kinds a MariaDB server does not send, checked on the field descriptions MySQL sends.
@Suite struct MySQLColumnKindTests {
  @Test func mysqlJSONIsTextThoughItsCharacterSetIsBinary() {
    // MYSQL_TYPE_JSON (245) with the binary character set (63), as MySQL 8 describes a JSON column.
    guard case .bytes(let binary) = MySQLResultColumns.kind(type: 245, flags: 0, charset: 63, decimals: 0) else {
      Issue.record("JSON is not read as bytes")
      return
    }
    #expect(!binary)
    // A BLOB (252) in the binary character set stays bytes.
    guard case .bytes(let blob) = MySQLResultColumns.kind(type: 252, flags: 0, charset: 63, decimals: 0) else {
      Issue.record("BLOB is not read as bytes")
      return
    }
    #expect(blob)
  }

  @Test func fractionDigitsBeyondSixAreSix() {
    // DATETIME (12) with decimals 39 (NOT_FIXED_DEC, as computed columns report it).
    guard case .temporal(_, let decimals) = MySQLResultColumns.kind(type: 12, flags: 0, charset: 63, decimals: 39)
    else {
      Issue.record("DATETIME is not temporal")
      return
    }
    #expect(decimals == 6)
  }
}
