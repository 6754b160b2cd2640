import Foundation
import SiftSyntax
import Testing

@testable import SiftPostgres

private func be(_ v: UInt64, _ width: Int) -> [UInt8] {
  (0..<width).map { UInt8(truncatingIfNeeded: v >> UInt64(8 * (width - 1 - $0))) }
}
private func c(_ s: String) -> [UInt8] { Array(s.utf8) + [0] }
private func a(_ s: String) -> UInt8 { UInt8(ascii: s.unicodeScalars.first ?? "?") }
private func text(_ s: String) -> [UInt8] { [a("t")] + be(UInt64(s.utf8.count), 4) + Array(s.utf8) }

/// The logical replication decoder on hand-made byte strings: CopyBoth messages (XLogData,
/// keepalive), pgoutput's messages, tuple data with NULL and unchanged TOAST, and every way a
/// message can be cut short or forged — each an error (`postgres-result`), never a trap.
@Suite("Replication decoder")
struct ReplicationDecoderTests {
  /// Relation 16384 public.items (id int8 key, title text, body text).
  static let relation: [UInt8] =
    [a("R")] + be(16384, 4) + c("public") + c("items") + [a("d")] + be(3, 2)
    + [1] + c("id") + be(20, 4) + be(0xFFFF_FFFF, 4)
    + [0] + c("title") + be(25, 4) + be(0xFFFF_FFFF, 4)
    + [0] + c("body") + be(25, 4) + be(0xFFFF_FFFF, 4)

  @Test func lsnTextRoundTrips() {
    #expect(PostgresLSN(text: "16/B374D848")?.value == 0x16_B374_D848)
    #expect(PostgresLSN(0x16_B374_D848).description == "16/B374D848")
    #expect(PostgresLSN(0).description == "0/0")
    for bad in ["", "1", "1/", "/1", "g/1", "1/2/3", "123456789/1"] { #expect(PostgresLSN(text: bad) == nil) }
  }

  @Test func copyMessagesDecode() throws {
    let w = [a("w")] + be(0x100, 8) + be(0x200, 8) + be(7, 8) + [1, 2, 3]
    #expect(
      try ReplicationCopyMessage.decode(w)
        == .xLogData(start: PostgresLSN(0x100), walEnd: PostgresLSN(0x200), sendTime: 7, data: [1, 2, 3]))
    let k = [a("k")] + be(0x300, 8) + be(9, 8) + [1]
    #expect(
      try ReplicationCopyMessage.decode(k) == .keepalive(walEnd: PostgresLSN(0x300), sendTime: 9, replyRequested: true))
  }

  @Test func standbyStatusIsTheDocumentedLayout() {
    let bytes = ReplicationCopyMessage.standbyStatus(
      flushed: PostgresLSN(0x0102_0304_0506_0708), now: Date(timeIntervalSince1970: 946_684_801))
    #expect(bytes.count == 34)
    #expect(bytes[0] == a("r"))
    #expect(Array(bytes[9..<17]) == [1, 2, 3, 4, 5, 6, 7, 8])  // flushed
    #expect(Array(bytes[25..<33]) == be(1_000_000, 8))  // one second past 2000-01-01
    #expect(bytes[33] == 0)
  }

  @Test func pgoutputMessagesDecode() throws {
    let begin = [a("B")] + be(0x500, 8) + be(42, 8) + be(777, 4)
    #expect(try PgOutputMessage.decode(begin) == .begin(finalLSN: PostgresLSN(0x500), commitTime: 42, xid: 777))
    let commit = [a("C"), 0] + be(0x500, 8) + be(0x528, 8) + be(42, 8)
    #expect(
      try PgOutputMessage.decode(commit)
        == .commit(flags: 0, commitLSN: PostgresLSN(0x500), endLSN: PostgresLSN(0x528), commitTime: 42))
    #expect(
      try PgOutputMessage.decode([a("O")] + be(1, 8) + c("east")) == .origin(commitLSN: PostgresLSN(1), name: "east"))
    #expect(
      try PgOutputMessage.decode([a("Y")] + be(9, 4) + c("s") + c("mood")) == .type(oid: 9, schema: "s", name: "mood"))
    guard case .relation(let r) = try PgOutputMessage.decode(Self.relation) else {
      Issue.record("not a relation"); return
    }
    #expect(r.id == 16384 && r.schema == "public" && r.name == "items" && r.replicaIdentity == a("d"))
    #expect(r.columns.map(\.name) == ["id", "title", "body"] && r.columns.map(\.isKey) == [true, false, false])
    #expect(r.columns[0].typeOID == 20 && r.columns[0].typeModifier == -1)
    let insert = [a("I")] + be(16384, 4) + [a("N")] + be(3, 2) + text("7") + [a("n"), a("u")]
    #expect(try PgOutputMessage.decode(insert) == .insert(relation: 16384, new: [.text("7"), .null, .unchangedToast]))
    let tuple = be(3, 2) + text("8") + text("héllo") + [a("u")]
    let key = be(3, 2) + text("7") + [a("n"), a("n")]
    #expect(
      try PgOutputMessage.decode([a("U")] + be(16384, 4) + [a("N")] + tuple)
        == .update(relation: 16384, old: nil, oldIsKeyOnly: false, new: [.text("8"), .text("héllo"), .unchangedToast]))
    #expect(
      try PgOutputMessage.decode([a("U")] + be(16384, 4) + [a("K")] + key + [a("N")] + tuple)
        == .update(
          relation: 16384, old: [.text("7"), .null, .null], oldIsKeyOnly: true,
          new: [.text("8"), .text("héllo"), .unchangedToast]))
    #expect(
      try PgOutputMessage.decode([a("D")] + be(16384, 4) + [a("O")] + key)
        == .delete(relation: 16384, old: [.text("7"), .null, .null], oldIsKeyOnly: false))
    #expect(
      try PgOutputMessage.decode([a("T")] + be(2, 4) + [1] + be(5, 4) + be(6, 4))
        == .truncate(options: 1, relations: [5, 6]))
    #expect(
      try PgOutputMessage.decode([a("M"), 1] + be(3, 8) + c("p") + be(2, 4) + [9, 9])
        == .message(flags: 1, lsn: PostgresLSN(3), prefix: "p", content: [9, 9]))
  }

  /// Every prefix of every valid message, and forged counts and lengths: `postgres-result`.
  @Test func malformedMessagesAreErrorsNotTraps() {
    let insert = [a("I")] + be(16384, 4) + [a("N")] + be(2, 2) + text("7") + [a("n")]
    let valid = [Self.relation, insert, [a("B")] + be(1, 8) + be(2, 8) + be(3, 4)]
    for message in valid {
      for cut in 0..<message.count {
        #expect(throws: PostgresError.self) { _ = try PgOutputMessage.decode(Array(message[..<cut])) }
      }
      #expect(throws: PostgresError.self) { _ = try PgOutputMessage.decode(message + [0]) }
    }
    let forged: [[UInt8]] = [
      [a("I")] + be(1, 4) + [a("N")] + be(0xFFFF, 2),  // -1 columns
      [a("I")] + be(1, 4) + [a("N")] + be(0x7FFF, 2) + [a("n")],  // 32767 columns, 1 byte
      [a("I")] + be(1, 4) + [a("N")] + be(1, 2) + [a("t")] + be(0xFFFF_FFFF, 4),  // length -1
      [a("I")] + be(1, 4) + [a("N")] + be(1, 2) + [a("t")] + be(0x7FFF_FFFF, 4) + [1],
      [a("I")] + be(1, 4) + [a("N")] + be(1, 2) + [a("x")],  // unknown column kind
      [a("I")] + be(1, 4) + [a("X")],
      [a("D")] + be(1, 4) + [a("N")] + be(0, 2),
      [a("T")] + be(0x8000_0000, 4) + [0],
      [a("T")] + be(1000, 4) + [0] + be(1, 4),
      [a("R")] + be(1, 4) + c("s") + [a("t"), a("d")] + be(1, 2),  // name without NUL
      [a("M"), 0] + be(1, 8) + c("p") + be(0xFFFF_FFFF, 4),
      [a("Z")], [],
    ]
    for message in forged {
      do {
        _ = try PgOutputMessage.decode(message)
        Issue.record("decoded \(message)")
      } catch {
        #expect(error.siftError.id == "postgres-result")
        #expect(error.message.hasPrefix("malformed replication message"))
      }
    }
    for bad in [
      [], [a("w")], [a("k")] + be(1, 8) + be(1, 8), [a("k")] + be(1, 8) + be(1, 8) + [2],
      [a("k")] + be(1, 8) + be(1, 8) + [0, 0], [a("q")],
    ] as [[UInt8]] {
      #expect(throws: PostgresError.self) { _ = try ReplicationCopyMessage.decode(bad) }
    }
  }

  @Test func theAssemblerGroupsACommitPerTableByKey() throws {
    var assembler = PostgresChangeAssembler()
    let k = be(3, 2) + text("7") + [a("n"), a("n")]
    let messages: [[UInt8]] = [
      [a("B")] + be(0x500, 8) + be(42, 8) + be(777, 4), Self.relation,
      [a("I")] + be(16384, 4) + [a("N")] + be(3, 2) + text("7") + text("a") + [a("n")],
      [a("U")] + be(16384, 4) + [a("N")] + be(3, 2) + text("7") + text("b") + [a("u")],
      [a("U")] + be(16384, 4) + [a("K")] + k + [a("N")] + be(3, 2) + text("9") + text("b") + [a("n")],
      [a("D")] + be(16384, 4) + [a("K")] + k,
    ]
    for m in messages { #expect(try assembler.consume(PgOutputMessage.decode(m)) == nil) }
    let tx = try #require(
      try assembler.consume(
        PgOutputMessage.decode([a("C"), 0] + be(0x500, 8) + be(0x528, 8) + be(42, 8))))
    #expect(tx.endLSN == PostgresLSN(0x528) && tx.tables.count == 1)
    let t = tx.tables[0]
    #expect(t.schema == "public" && t.table == "items" && t.keyColumns == ["id"] && !t.truncated)
    #expect(t.rows.map(\.kind) == [.insert, .update, .update, .delete])
    #expect(t.rows.map(\.key) == [["7"], ["7"], ["9"], ["7"]])
    #expect(t.rows.map(\.oldKey) == [nil, nil, ["7"], nil])
  }

  @Test func theAssemblerRefusesAStreamOutOfOrder() {
    let begin = [a("B")] + be(1, 8) + be(2, 8) + be(3, 4)
    let insert = [a("I")] + be(16384, 4) + [a("N")] + be(3, 2) + [a("n"), a("n"), a("n")]
    let commit = [a("C"), 0] + be(1, 8) + be(2, 8) + be(3, 8)
    let shortInsert = [a("I")] + be(16384, 4) + [a("N")] + be(1, 2) + [a("n")]
    for stream in [
      [commit], [begin, begin], [begin, insert], [begin, Self.relation, shortInsert], [Self.relation, insert],
    ] {
      var assembler = PostgresChangeAssembler()
      do {
        for m in stream { _ = try assembler.consume(PgOutputMessage.decode(m)) }
        Issue.record("accepted \(stream)")
      } catch {
        #expect(error.siftError.id == "postgres-result")
      }
    }
  }
}
