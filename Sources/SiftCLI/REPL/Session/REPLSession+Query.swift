import Foundation
import SiftSyntax

/// What a typed predicate produces.
enum REPLFetchMode {
  /// A table of the first rows and the count.
  case table
  /// Only the count.
  case count
}

/// The records a fetch selected: indices into the data set, after sort, offset and limit.
struct REPLFetchResult {
  /// Selected record indices, in result order.
  var indices: [Int]
  /// Matches before offset and limit.
  var total: Int
  /// True when Ctrl-C stopped the scan early.
  var interrupted: Bool
  /// Records examined.
  var scanned: Int
}

extension REPLSession {
  func evaluate(_ arg: String, mode: REPLFetchMode) -> REPLResponse {
    let text: String
    if let t = predicateText(arg) {
      text = t
    } else if mode == .count {
      text = "TRUEPREDICATE"
    } else {
      return .failure(errorLine("no predicate yet; type one, e.g. distance < 5"))
    }
    guard let set = current else { return .failure(errorLine("no entity loaded; use .load FILE")) }
    let predicate: SiftPredicate
    switch prepare(text) {
    case .success(let p): predicate = p
    case .failure(let e): return .failure(render(e))
    }
    lastPredicate = text
    let fetched: REPLFetchResult
    do {
      fetched = try fetch(predicate, in: set)
    } catch let e as SiftError {
      return .failure(warnings(predicate) + render(e))
    } catch {
      return .failure(warnings(predicate) + errorLine("\(error)"))
    }
    var out = warnings(predicate)
    if fetched.interrupted {
      out += style.yellow("interrupted") + " after \(fetched.scanned) of \(set.records.count) records\n"
    }
    switch mode {
    case .count:
      out += "\(fetched.indices.count)\n"
    case .table:
      out += table(fetched, of: set)
    }
    return fetched.interrupted ? .failure(out) : .ok(out)
  }

  /// Runs the predicate on the current engine and applies sort, offset and limit.
  func fetch(_ predicate: SiftPredicate, in set: REPLDataSet) throws -> REPLFetchResult {
    var result: REPLFetchResult
    switch engine {
    case .memory: result = try memoryMatches(predicate, in: set)
    case .sqlite, .postgres: result = try sqlMatches(predicate, in: set, engine: engine)
    }
    if engine == .memory { result.indices = ValueOrdering.sort(result.indices, of: set.records, by: sort) }
    result.total = result.indices.count
    let start = min(offset, result.indices.count)
    let end = limit.map { min(result.indices.count, start + $0) } ?? result.indices.count
    result.indices = Array(result.indices[start..<end])
    return result
  }

  /// Scans records with the memory engine, checking for Ctrl-C every 1,024 records and
  /// reporting progress for long scans.
  func memoryMatches(_ predicate: SiftPredicate, in set: REPLDataSet) throws -> REPLFetchResult {
    let matcher = try MemoryEngine.matcher(for: predicate)
    var indices: [Int] = []
    let started = Date()
    var lastReport = started
    let count = set.records.count
    var start = 0
    while start < count {
      if interrupt.isSet {
        return REPLFetchResult(indices: indices, total: indices.count, interrupted: true, scanned: start)
      }
      if let progress, start > 0 {
        let now = Date()
        if now.timeIntervalSince(started) > 1, now.timeIntervalSince(lastReport) > 0.25 {
          lastReport = now
          progress("scanned \(start) of \(count) (\(start * 100 / count)%), \(indices.count) matches; Ctrl-C stops")
        }
      }
      let end = min(count, start + MemoryEngine.chunk)
      indices += try MemoryEngine.matches(matcher, in: set, range: start..<end, variables: variables)
      start = end
    }
    return REPLFetchResult(indices: indices, total: indices.count, interrupted: false, scanned: count)
  }

  /// The columns for a data set's tables.
  func columns(for set: REPLDataSet) -> [String] {
    columns[set.name] ?? set.defaultColumns
  }

  /// Table of the first `displayRows` records plus a count footer.
  func table(_ fetched: REPLFetchResult, of set: REPLDataSet) -> String {
    let cols = columns(for: set)
    let shown = fetched.indices.prefix(max(0, displayRows))
    let rows = shown.map { i in cols.map { RecordPath.value(of: $0, in: set.records[i]) } }
    var out = ""
    if !rows.isEmpty { out += TableRenderer(style: style).render(columns: cols, rows: rows) }
    let n = fetched.indices.count
    var footer = "(\(n) row\(n == 1 ? "" : "s")"
    if shown.count < n { footer = "(first \(shown.count) of \(n) rows" }
    if fetched.total != n { footer += "; \(fetched.total) match before offset/limit" }
    out += style.dim(footer + ")") + "\n"
    return out
  }

  func aggregate(_ arg: String) -> REPLResponse {
    let parts = arg.split(maxSplits: 1, whereSeparator: \.isWhitespace).map(String.init)
    guard let keyPath = parts.first else { return .failure(errorLine("usage: .agg KEYPATH [PREDICATE]")) }
    let text = parts.count > 1 ? parts[1] : (lastPredicate ?? "TRUEPREDICATE")
    guard let set = current else { return .failure(errorLine("no entity loaded; use .load FILE")) }
    let predicate: SiftPredicate
    switch prepare(text) {
    case .success(let p): predicate = p
    case .failure(let e): return .failure(render(e))
    }
    do {
      let fetched = try fetch(predicate, in: set)
      var values: [SiftValue] = []
      for i in fetched.indices {
        let v = RecordPath.value(of: keyPath, in: set.records[i])
        if case .array(let items) = v { values += items } else { values.append(v) }
      }
      return .ok(REPLAggregates(values: values, records: fetched.indices.count).render(keyPath, style: style))
    } catch let e as SiftError {
      return .failure(render(e))
    } catch {
      return .failure(errorLine("\(error)"))
    }
  }
}

/// count, sum, avg, min and max of a key path's values.
struct REPLAggregates {
  var values: [SiftValue]
  var records: Int

  func render(_ keyPath: String, style: REPLStyle) -> String {
    let present = values.filter { !$0.isNull }
    let numbers = present.compactMap { v -> Double? in
      switch v {
      case .int(let i): return Double(i)
      case .double(let d): return d
      default: return nil
      }
    }
    let allInts = present.allSatisfy { if case .int = $0 { return true } else { return false } }
    var intSum: Int64 = 0
    var overflow = false
    for v in present {
      if case .int(let i) = v {
        let (s, o) = intSum.addingReportingOverflow(i)
        intSum = s
        overflow = overflow || o
      }
    }
    let sum: SiftValue = numbers.isEmpty ? .null : (allInts && !overflow ? .int(intSum) : .double(numbers.reduce(0, +)))
    let avg: SiftValue = numbers.isEmpty ? .null : .double(numbers.reduce(0, +) / Double(numbers.count))
    let sorted = present.sorted { ValueOrdering.compare($0, $1) == .orderedAscending }
    let rows: [[SiftValue]] = [[
      .string(keyPath), .int(Int64(records)), .int(Int64(present.count)), sum,
      avg.rounded(places: 4), sorted.first ?? .null, sorted.last ?? .null,
    ]]
    return TableRenderer(style: style).render(
      columns: ["key", "records", "values", "sum", "avg", "min", "max"], rows: rows)
  }
}

extension SiftValue {
  /// A double rounded for display.
  func rounded(places: Int) -> SiftValue {
    guard case .double(let d) = self, d.isFinite else { return self }
    let scale = pow(10.0, Double(places))
    return .double((d * scale).rounded() / scale)
  }
}
