import Foundation
import SiftEvaluation
import SiftSQL
import SiftSyntax

/// Runs a `sift fetch` plan and prints its rows, one JSON value per line:
/// - `records`: each record as an object (from a database: the entity's columns by attribute
///   name, nil as `null`; from JSON: the record as loaded);
/// - `dictionaries`: the properties or groups, nil values left out (`NSDictionaryResultType`);
///   without properties, the record with its nil values left out;
/// - `ids`: each record's primary-key value (from JSON: its position in the file, from 0);
/// - `count`: one line `{"count": N}`.
/// Database values are printed as the database stores them (a Core Data date is seconds since
/// 2001).
enum FetchOutput {
  /// The plan over JSON records, in memory.
  static func run(_ plan: FetchPlan, on data: CommandInputs.DataSet) throws {
    var r = plan.request
    if r.resultType == .records { r.resultType = .indices }
    var out = LineWriter()
    // With --batch-size, each batch's rows are shaped and printed before the next.
    if let records = data.records {
      try r.execute(on: records, variables: plan.variables) { emit($0, plan, data, &out) }
    } else {
      try r.execute(on: data.values, variables: plan.variables) { emit($0, plan, data, &out) }
    }
    out.flush()
  }

  static func emit(_ result: SiftFetchResult, _ plan: FetchPlan, _ data: CommandInputs.DataSet, _ out: inout LineWriter)
  {
    switch result {
    case .indices(let positions):
      for p in positions {
        switch plan.output {
        case .ids: out.write(.int(Int64(p)))
        case .dictionaries: out.write(withoutNils(data.value(at: p)))
        case .records, .count: out.write(data.value(at: p))
        }
      }
    case .count(let n): out.write(["count": .int(Int64(n))])
    case .values(let values): for v in values { out.write(v) }
    case .rows: for d in result.dictionaries { out.write(.dictionary(d)) }
    }
    out.flush()
  }

  /// The plan on a database, its rows read `fetchBatchSize` at a time when one is given.
  static func run(_ plan: FetchPlan, on db: ExistingDatabase) throws {
    let e = try db.entity(plan.request.entity)
    var r = plan.request
    r.entity = e.name
    let compiler = db.compiler
    let columns: [String]
    switch r.resultType {
    case .count: columns = ["count"]
    case .properties(let keyPaths): columns = keyPaths
    case .aggregates(let aggregates, let groupBy): columns = groupBy + aggregates.map(\.name)
    default:
      if plan.output == .ids {
        guard e.hasSingleColumnKey else {
          throw CommandInputs.Failure(description: "\(e.name) has no one-column primary key: it has no ids")
        }
        r.resultType = .properties([e.primaryKey])
        columns = [e.primaryKey]
      } else {
        columns = try compiler.recordColumns(entity: e.name)
      }
    }
    var out = LineWriter()
    try db.database.fetch(r, compiler: compiler) { rows in
      for row in rows {
        switch plan.output {
        case .ids: out.write(row.first?.siftValue ?? .null)
        case .count: out.write(["count": row.first?.siftValue ?? .int(0)])
        case .records:
          var d: [String: SiftValue] = [:]
          for (c, v) in zip(columns, row) { d[c] = v.siftValue }
          out.write(.dictionary(d))
        case .dictionaries:
          var d: [String: SiftValue] = [:]
          for (c, v) in zip(columns, row) where v != .null { d[c] = v.siftValue }
          out.write(.dictionary(d))
        }
      }
      out.flush()  // each batch is printed before the next is read
    }
    out.flush()
  }

  static func withoutNils(_ v: SiftValue) -> SiftValue {
    guard case .dictionary(let d) = v else { return v }
    return .dictionary(d.filter { !$0.value.isNull })
  }

  /// JSON lines, written to standard output in blocks.
  struct LineWriter {
    var buffer = ""

    mutating func write(_ v: SiftValue) {
      buffer += SiftJSON.serialize(v)
      buffer += "\n"
      if buffer.utf8.count > 1 << 16 { flush() }
    }

    mutating func flush() {
      guard !buffer.isEmpty else { return }
      FileHandle.standardOutput.write(Data(buffer.utf8))
      buffer = ""
    }
  }
}
