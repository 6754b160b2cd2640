import Foundation

/// One column value in pgoutput's TupleData.
package enum PgOutputColumn: Equatable, Sendable {
  /// `n`: SQL NULL.
  case null
  /// `u`: an unchanged TOASTed value the message leaves out (the row must be re-read for it).
  case unchangedToast
  /// `t`: the value in PostgreSQL's text output format.
  case text(String)
  /// `b`: the value in binary format (only with the `binary` option, which Sift does not ask for).
  case binary([UInt8])
}

/// A column of a published relation, as a Relation message describes it.
package struct PgOutputRelationColumn: Equatable, Sendable {
  /// Whether the column is part of the replica identity (the key an Update/Delete's old tuple has).
  package var isKey: Bool
  package var name: String
  package var typeOID: UInt32
  package var typeModifier: Int32
}

/// A Relation message: which table an Insert/Update/Delete's relation id means, and its columns.
package struct PgOutputRelation: Equatable, Sendable {
  package var id: UInt32
  package var schema: String
  package var name: String
  /// `d` default (primary key), `n` nothing, `f` full, `i` index.
  package var replicaIdentity: UInt8
  package var columns: [PgOutputRelationColumn]
}

/// One logical replication message from `pgoutput` (protocol version 1), decoded with every read
/// bounds-checked: the PostgreSQL docs' "Logical Replication Message Formats".
package enum PgOutputMessage: Equatable, Sendable {
  case begin(finalLSN: PostgresLSN, commitTime: Int64, xid: UInt32)
  case commit(flags: UInt8, commitLSN: PostgresLSN, endLSN: PostgresLSN, commitTime: Int64)
  case origin(commitLSN: PostgresLSN, name: String)
  case relation(PgOutputRelation)
  case type(oid: UInt32, schema: String, name: String)
  case insert(relation: UInt32, new: [PgOutputColumn])
  /// `old` is the key (`K`) or the whole old row (`O`, REPLICA IDENTITY FULL) when the server sent
  /// one: with DEFAULT it comes only when the key changed.
  case update(relation: UInt32, old: [PgOutputColumn]?, oldIsKeyOnly: Bool, new: [PgOutputColumn])
  case delete(relation: UInt32, old: [PgOutputColumn], oldIsKeyOnly: Bool)
  case truncate(options: UInt8, relations: [UInt32])
  /// `M`: a logical decoding message (`pg_logical_emit_message`), only sent with `messages 'true'`.
  case message(flags: UInt8, lsn: PostgresLSN, prefix: String, content: [UInt8])

  /// Decodes the payload of one XLogData message.
  package static func decode(_ bytes: [UInt8]) throws(PostgresError) -> PgOutputMessage {
    var r = ReplicationByteReader(bytes, what: "pgoutput")
    let tag = try r.byte()
    let message: PgOutputMessage
    switch tag {
    case UInt8(ascii: "B"):
      message = .begin(finalLSN: PostgresLSN(try r.uint64()), commitTime: try r.int64(), xid: try r.uint32())
    case UInt8(ascii: "C"):
      message = .commit(
        flags: try r.byte(), commitLSN: PostgresLSN(try r.uint64()), endLSN: PostgresLSN(try r.uint64()),
        commitTime: try r.int64())
    case UInt8(ascii: "O"):
      message = .origin(commitLSN: PostgresLSN(try r.uint64()), name: try r.cString())
    case UInt8(ascii: "R"):
      message = .relation(try relation(&r))
    case UInt8(ascii: "Y"):
      message = .type(oid: try r.uint32(), schema: try r.cString(), name: try r.cString())
    case UInt8(ascii: "I"):
      let id = try r.uint32()
      guard try r.byte() == UInt8(ascii: "N") else { throw r.malformed("Insert without its new tuple (N)") }
      message = .insert(relation: id, new: try tuple(&r))
    case UInt8(ascii: "U"):
      message = try update(&r)
    case UInt8(ascii: "D"):
      let id = try r.uint32()
      let kind = try r.byte()
      guard kind == UInt8(ascii: "K") || kind == UInt8(ascii: "O") else {
        throw r.malformed("Delete without its old key (K) or row (O)")
      }
      message = .delete(relation: id, old: try tuple(&r), oldIsKeyOnly: kind == UInt8(ascii: "K"))
    case UInt8(ascii: "T"):
      let n = try r.count(width: 4, minimumItemSize: 4, of: "relation")
      let options = try r.byte()
      var ids: [UInt32] = []
      for _ in 0..<n { ids.append(try r.uint32()) }
      message = .truncate(options: options, relations: ids)
    case UInt8(ascii: "M"):
      let flags = try r.byte()
      let lsn = PostgresLSN(try r.uint64())
      let prefix = try r.cString()
      let length = Int(try r.int32())
      message = .message(flags: flags, lsn: lsn, prefix: prefix, content: try r.bytes(length))
    default:
      throw r.malformed("unknown message type \(tag)")
    }
    try r.expectEnd()
    return message
  }

  private static func relation(_ r: inout ReplicationByteReader) throws(PostgresError) -> PgOutputRelation {
    let id = try r.uint32()
    let schema = try r.cString()
    let name = try r.cString()
    let identity = try r.byte()
    // Each column: flags (1), name (≥ 1 with its NUL), type (4), modifier (4).
    let n = try r.count(width: 2, minimumItemSize: 10, of: "column")
    var columns: [PgOutputRelationColumn] = []
    columns.reserveCapacity(n)
    for _ in 0..<n {
      let flags = try r.byte()
      columns.append(
        PgOutputRelationColumn(
          isKey: flags & 1 == 1, name: try r.cString(), typeOID: try r.uint32(), typeModifier: try r.int32()))
    }
    return PgOutputRelation(id: id, schema: schema, name: name, replicaIdentity: identity, columns: columns)
  }

  private static func update(_ r: inout ReplicationByteReader) throws(PostgresError) -> PgOutputMessage {
    let id = try r.uint32()
    var kind = try r.byte()
    var old: [PgOutputColumn]?
    var keyOnly = false
    if kind == UInt8(ascii: "K") || kind == UInt8(ascii: "O") {
      keyOnly = kind == UInt8(ascii: "K")
      old = try tuple(&r)
      kind = try r.byte()
    }
    guard kind == UInt8(ascii: "N") else { throw r.malformed("Update without its new tuple (N)") }
    return .update(relation: id, old: old, oldIsKeyOnly: keyOnly, new: try tuple(&r))
  }

  /// TupleData: a column count, then per column `n`, `u`, or `t`/`b` with a length and the bytes.
  private static func tuple(_ r: inout ReplicationByteReader) throws(PostgresError) -> [PgOutputColumn] {
    let n = try r.count(width: 2, minimumItemSize: 1, of: "column")
    var columns: [PgOutputColumn] = []
    columns.reserveCapacity(n)
    for _ in 0..<n {
      let kind = try r.byte()
      switch kind {
      case UInt8(ascii: "n"): columns.append(.null)
      case UInt8(ascii: "u"): columns.append(.unchangedToast)
      case UInt8(ascii: "t"), UInt8(ascii: "b"):
        let length = Int(try r.int32())
        guard length >= 0 else { throw r.malformed("negative column length \(length)") }
        let bytes = try r.bytes(length)
        columns.append(kind == UInt8(ascii: "t") ? .text(String(decoding: bytes, as: UTF8.self)) : .binary(bytes))
      default:
        throw r.malformed("unknown column kind \(kind)")
      }
    }
    return columns
  }
}
