import Foundation
import SiftEvaluation
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftSyntax

/// `Thing` records loaded in memory, SQLite, PostgreSQL (when `SIFT_POSTGRES` reaches a
/// server) and MariaDB (when `SIFT_MYSQL` does), and fetch requests run against all of them;
/// a MariaDB refusal documented in Grammar/notes/mysql.md is counted in `mariaRefusals`. `check` gives nil when every engine
/// returns the same rows in the same order, else a report: the request, each engine's rows
/// (or error), the SQL and the first differing row.
final class FetchThreeWay {
  let memory: [SiftObject]
  let engines: ThreeWay
  let maria: MariaDBLeg?
  /// Requests MariaDB refused as Grammar/notes/mysql.md documents (memory answered).
  private(set) var mariaRefusals = 0

  init(records: [SiftValue]) throws {
    engines = try ThreeWay(schema: try DifferentialSchemas.thing(), entity: "Thing", records: records)
    memory = engines.memory
    maria = try MariaDBLeg(schema: try DifferentialSchemas.thing(), entity: "Thing", records: records)
    if maria == nil { print("note: \(MariaDBLeg.skipMessage)") }
  }

  deinit {
    if maria != nil { print("fetch differential: mariadb included, \(mariaRefusals) documented refusals") }
  }

  /// One engine's rows, normalized so equal answers compare equal: booleans as 0/1, dates as
  /// seconds since 1970, integers and doubles by value.
  enum Outcome: CustomStringConvertible {
    case rows([[SiftValue]])
    case failed(String)

    var description: String {
      switch self {
      case .rows(let r):
        return "\(r.count) rows: "
          + r.prefix(12).map { "[" + $0.map(SiftJSON.serialize).joined(separator: ", ") + "]" }.joined(separator: " ")
      case .failed(let m): return "error: \(m)"
      }
    }
  }

  func memoryOutcome(_ r: SiftFetchRequest) -> Outcome {
    do {
      switch try r.execute(on: memory) {
      case .indices(let i): return .rows(i.map { [.int(Int64($0))] })
      case .count(let n): return .rows([[.int(Int64(n))]])
      case .values(let v): return .rows(v.map { [Self.normalize($0)] })
      case .rows(_, let rows): return .rows(rows.map { $0.map(Self.normalize) })
      }
    } catch {
      return .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
    }
  }

  func sqlOutcome(_ r: SiftFetchRequest, _ compiler: SQLCompiler, _ db: any SQLDatabase) -> Outcome {
    do {
      let rows = try db.execute(try compiler.compile(r))
      return .rows(rows.map { $0.map(Self.normalize) })
    } catch {
      return .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
    }
  }

  static func normalize(_ v: SiftValue) -> SiftValue {
    switch v {
    case .bool(let b): return .int(b ? 1 : 0)
    case .date(let d): return .double(d.timeIntervalSince1970)
    default: return v
    }
  }

  static func normalize(_ v: SQLValue) -> SiftValue {
    switch v {
    case .null: return .null
    case .integer(let i): return .int(i)
    case .double(let d): return .double(d)
    case .text(let s): return .string(s)
    case .blob(let d): return .data(d)
    case .bool(let b): return .int(b ? 1 : 0)
    }
  }

  /// Equal values; numbers by value (an integer equals its double); doubles computed by
  /// different summation orders (sums, averages) within 1e-12 relative.
  static func same(_ a: SiftValue, _ b: SiftValue) -> Bool {
    func number(_ v: SiftValue) -> Double? {
      switch v {
      case .int(let i): return Double(i)
      case .double(let d): return d
      default: return nil
      }
    }
    if case .int(let x) = a, case .int(let y) = b { return x == y }
    if let x = number(a), let y = number(b) {
      if x == y || (x.isNaN && y.isNaN) { return true }
      return abs(x - y) <= 1e-12 * max(abs(x), abs(y))
    }
    return a == b
  }

  static func agree(_ a: Outcome, _ b: Outcome) -> Bool {
    switch (a, b) {
    case (.failed(let x), .failed(let y)): return RefusalIDs.agree(x, y)
    case (.rows(let x), .rows(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { p, q in p.count == q.count && zip(p, q).allSatisfy(same) }
    default: return false
    }
  }

  /// nil when memory, SQLite and PostgreSQL agree; else a report.
  func check(_ r: SiftFetchRequest) -> String? {
    let mem = memoryOutcome(r)
    var others: [(String, Outcome, SQLCompiler)] = [
      ("sqlite", sqlOutcome(r, engines.sqliteCompiler, engines.sqlite), engines.sqliteCompiler)
    ]
    if let pg = engines.postgres {
      others.append(("postgresql", sqlOutcome(r, engines.postgresCompiler, pg), engines.postgresCompiler))
    }
    if let m = maria {
      let outcome = sqlOutcome(r, m.compiler, m.db)
      if case .failed(let why) = outcome, case .rows = mem,
        MariaDBLeg.isDocumentedRefusal(EngineOutcome.failed(why))
      {
        mariaRefusals += 1
      } else {
        others.append(("mariadb", outcome, m.compiler))
      }
    }
    let bad = others.filter { !Self.agree(mem, $0.1) }
    guard !bad.isEmpty else { return nil }
    return report(r, mem, bad)
  }

  static func value(_ record: SiftValue, _ keyPath: String) -> SiftValue {
    var v = record
    for k in keyPath.split(separator: ".") {
      guard case .dictionary(let d) = v else { return .null }
      v = d[String(k)] ?? .null
    }
    return v
  }

  func report(_ r: SiftFetchRequest, _ mem: Outcome, _ bad: [(String, Outcome, SQLCompiler)]) -> String {
    var lines = ["DISAGREEMENT \(Self.describe(r))", "  memory:     \(mem)"]
    for (name, outcome, compiler) in bad {
      lines.append("  \(name): \(outcome)")
      if let st = try? compiler.compile(r) { lines.append("  \(name) SQL: \(st.sql)  bindings: \(st.bindings)") }
      if case .rows(let x) = mem, case .rows(let y) = outcome,
        let i = (0..<min(x.count, y.count)).first(where: { k in
          !(x[k].count == y[k].count && zip(x[k], y[k]).allSatisfy(Self.same))
        })
      {
        lines.append(
          "  first difference at row \(i): memory \(x[i].map(SiftJSON.serialize)) vs \(y[i].map(SiftJSON.serialize))")
        for row in [x[i], y[i]] {
          if case .int(let k)? = row.first, k >= 0, k < engines.records.count, case .indices = r.resultType {
            lines.append("    record \(k): \(SiftJSON.serialize(engines.records[Int(k)]))")
          }
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  static func describe(_ r: SiftFetchRequest) -> String {
    var s = "\(r.resultType)"
    if let p = r.predicate { s += " WHERE \(p.predicateFormat)" }
    if !r.sortDescriptors.isEmpty { s += " SORT " + r.sortDescriptors.map(\.description).joined(separator: ", ") }
    if let l = r.limit { s += " LIMIT \(l)" }
    if let o = r.offset { s += " OFFSET \(o)" }
    return s
  }
}
