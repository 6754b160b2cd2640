import Foundation
import SiftSyntax

extension REPLSession {
  /// `.compare [PREDICATE]`: runs the predicate in memory, in SQLite and (when connected) in
  /// PostgreSQL, without sort/limit, and reports agreement or the records that differ.
  func compare(_ arg: String) -> REPLResponse {
    let inputs: (SiftPredicate, REPLDataSet)
    switch sqlInputs(arg, usage: ".compare PREDICATE") {
    case .success(let v): inputs = v
    case .failure(let r): return r
    }
    let (predicate, set) = inputs
    var results: [(String, Result<Set<Int>, REPLDataError>)] = []
    do {
      let scan = try memoryMatches(predicate, in: set)
      if scan.interrupted {
        return .failure(
          style.yellow("interrupted") + " after \(scan.scanned) of \(set.count) records; nothing compared\n")
      }
      results.append(("memory", .success(Set(scan.indices))))
    } catch let e as SiftError {
      results.append(("memory", .failure(REPLDataError(e.diagnostic.id + ": " + e.diagnostic.message))))
    } catch {
      results.append(("memory", .failure(REPLDataError("\(error)"))))
    }
    var engines: [REPLEngineKind] = [.sqlite]
    if sql.postgres != nil { engines.append(.postgres) }
    for kind in engines {
      do {
        results.append((kind.rawValue, .success(Set(try sqlMatches(predicate, in: set, engine: kind).indices))))
      } catch let e as SiftError {
        results.append((kind.rawValue, .failure(REPLDataError(e.diagnostic.id + ": " + e.diagnostic.message))))
      } catch {
        results.append((kind.rawValue, .failure(REPLDataError("\(error)"))))
      }
    }
    var out = warnings(predicate)
    for (name, r) in results {
      switch r {
      case .success(let s): out += "  " + TextWidth.pad(name, to: 8) + " \(s.count) match\(s.count == 1 ? "" : "es")\n"
      case .failure(let m): out += "  " + TextWidth.pad(name, to: 8) + " " + style.red("error") + " \(m.message)\n"
      }
    }
    let sets = results.compactMap { name, r -> (String, Set<Int>)? in
      if case .success(let s) = r { return (name, s) }
      return nil
    }
    let failed = sets.count != results.count
    let all = sets.reduce(Set<Int>()) { $0.union($1.1) }
    let differing = all.filter { i in !sets.allSatisfy { $0.1.contains(i) } }.sorted()
    if differing.isEmpty && !failed {
      out += style.green("agree") + ": \(sets.first?.1.count ?? 0) records\n"
      return .ok(out)
    }
    if !differing.isEmpty {
      out += style.red("differ") + ": \(differing.count) record\(differing.count == 1 ? "" : "s")\n"
      let cols = columns(for: set)
      let rows: [[SiftValue]] = differing.prefix(max(1, displayRows)).map { i in
        [.string(sets.filter { $0.1.contains(i) }.map(\.0).joined(separator: "+"))]
          + cols.map { set.value(of: $0, at: i) }
      }
      out += TableRenderer(style: style).render(columns: ["matched by"] + cols, rows: rows)
      if differing.count > rows.count { out += style.dim("(first \(rows.count) of \(differing.count))") + "\n" }
    }
    return .failure(out)
  }
}
