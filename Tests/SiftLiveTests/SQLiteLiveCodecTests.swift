import Foundation
import SiftLive
import SiftSQL
import SiftSQLite
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftLiveSQLite

/// Live-table writes store each value the way its column already stores it
/// (`SQLColumnCodec`), not one rule for every column.
@Suite struct SQLiteLiveCodecTests {
  @Test func datesAndBooleansAreWrittenInTheColumnsOwnEncoding() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE Log (id INTEGER PRIMARY KEY, iso DATETIME, local DATETIME, day DATE, epoch TIMESTAMP,
                        millis INTEGER_TIMESTAMP, flag BOOLEAN, note TEXT);
      INSERT INTO Log VALUES (1, '2024-01-05T10:30:00Z', '2024-01-05 10:30:00', '2024-01-05', 1704450600.5,
                              1704450600250, 0, 'x');
      """)
    let table = try SQLiteLiveTable(database: db, table: "Log", predicate: nil, sortDescriptors: [])
    let d = SiftValue.date(Date(timeIntervalSince1970: 1_738_555_506.5))
    _ = try table.write([
      .update(1, set: ["iso": d, "local": d, "day": d, "epoch": d, "millis": d, "flag": .bool(true), "note": d])
    ])
    let row = try db.execute(SQLStatement(sql: "SELECT iso, local, day, epoch, millis, flag, note FROM Log"))
    let expected: [SQLValue] = [
      .text("2025-02-03T04:05:06.500Z"), .text("2025-02-03 04:05:06.500"), .text("2025-02-03"),
      .double(1_738_555_506.5),
      .integer(1_738_555_506_500), .integer(1), .text("2025-02-03T04:05:06.500Z"),
    ]
    #expect(row == [expected])
  }

  @Test func aDateNoColumnCanHoldIsAClearError() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(
      "CREATE TABLE Log (id INTEGER PRIMARY KEY, iso DATETIME); INSERT INTO Log VALUES (1, '2024-01-05T10:30:00Z');")
    let table = try SQLiteLiveTable(database: db, table: "Log", predicate: nil, sortDescriptors: [])
    for seconds in [1e300, -1e300, Double.nan] {
      expectSiftError(id: "live-refused", stage: .live) {
        try table.write([.update(1, set: ["iso": .date(Date(timeIntervalSince1970: seconds))])])
      }
    }
    #expect(try db.execute(SQLStatement(sql: "SELECT iso FROM Log")) == [[.text("2024-01-05T10:30:00Z")]])
  }

  /// Reads go through the codecs too: a date column compares with dates, a boolean column with
  /// booleans, as in `sift batch --db` (before, ISO text met a date and the watch failed).
  @Test func rowsAreReadInTheColumnsOwnEncoding() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE Log (id INTEGER PRIMARY KEY, iso DATETIME, flag BOOLEAN);
      INSERT INTO Log VALUES (1, '2024-01-05T10:30:00Z', 0), (2, '2024-03-05T10:30:00.250Z', 1), (3, NULL, 1);
      """)
    let since = Date(timeIntervalSince1970: 1_709_251_200)  // 2024-03-01T00:00:00Z
    let table = try SQLiteLiveTable(
      database: db, table: "Log", predicate: try SiftPredicate(format: "iso > %@ AND flag == YES", since),
      sortDescriptors: [SiftSortDescriptor("iso")])
    #expect(table.results.sections.flatMap(\.ids) == [2])
    #expect(table.results.record(for: 2)?["iso"] == .date(Date(timeIntervalSince1970: 1_709_634_600.25)))
    let changes = try table.write([.update(1, set: ["iso": .date(since.addingTimeInterval(60)), "flag": true])])
    #expect(changes.inserted.count == 1)
    #expect(
      try db.execute(SQLStatement(sql: "SELECT iso, flag FROM Log WHERE id = 1")) == [
        [.text("2024-03-01T00:01:00Z"), .integer(1)]
      ])
  }

  /// A written date keeps the spelling the column's values share — fraction digits, `T` or a
  /// space, seconds, zone suffix — so a query by hand with the column's own text still finds
  /// the row (issue #35, item 8: `'… 00:00:30'` went into a column of `'… 00:00:30.000'`).
  @Test func writtenDatesKeepTheColumnsSpelling() throws {
    let db = try SQLiteDatabase()
    try db.executeScript(
      """
      CREATE TABLE Log (id INTEGER PRIMARY KEY, millis DATETIME, tee DATETIME, plus DATETIME, minute DATETIME,
                        micros DATETIME, mixed DATETIME);
      INSERT INTO Log VALUES
        (1, '2024-01-01 00:00:30.000', '2024-01-01T00:00:30', '2024-01-01T05:30:30.000+05:30', '2024-01-01 00:00',
         '2024-01-01T00:00:30.000000Z', '2024-01-01T00:00:30Z'),
        (2, '2024-01-02 00:00:30.250', '2024-01-02T00:00:30', '2024-01-02T05:30:30.000+05:30', '2024-01-02 00:00',
         '2024-01-02T00:00:30.250000Z', '2024-01-02T00:00:30.250Z');
      """)
    let table = try SQLiteLiveTable(database: db, table: "Log", predicate: nil, sortDescriptors: [])
    let at = SiftValue.date(Date(timeIntervalSince1970: 1_704_240_030))  // 2024-01-03 00:00:30 UTC
    _ = try table.write([
      .insert(["id": 3, "millis": at, "tee": at, "plus": at, "minute": at, "micros": at, "mixed": at])
    ])
    let row = try db.execute(
      SQLStatement(sql: "SELECT millis, tee, plus, minute, micros, mixed FROM Log WHERE id = 3"))
    #expect(
      row == [
        [
          .text("2024-01-03 00:00:30.000"), .text("2024-01-03T00:00:30"), .text("2024-01-03T05:30:30.000+05:30"),
          .text("2024-01-03 00:00:30"), .text("2024-01-03T00:00:30.000000Z"), .text("2024-01-03T00:00:30Z"),
        ]
      ])
    // The query a user writes by hand, in the column's own text.
    #expect(
      try db.execute(SQLStatement(sql: "SELECT id FROM Log WHERE millis = '2024-01-03 00:00:30.000'")) == [
        [.integer(3)]
      ])
    // A date with milliseconds keeps them; an update is written the same way; reading back agrees.
    let later = Date(timeIntervalSince1970: 1_704_240_030.5)
    _ = try table.write([.update(3, set: ["millis": .date(later), "tee": .date(later), "minute": .date(later)])])
    #expect(
      try db.execute(SQLStatement(sql: "SELECT millis, tee, minute FROM Log WHERE id = 3")) == [
        [.text("2024-01-03 00:00:30.500"), .text("2024-01-03T00:00:30.500"), .text("2024-01-03 00:00:30.500")]
      ])
    #expect(table.results.record(for: 3)?["millis"] == .date(later))
    #expect(table.results.record(for: 3)?["plus"] == at)
  }
}
