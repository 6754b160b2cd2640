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
    var streamed = false
    var early: (([Int]) -> Void)?
    if mode == .table, let stream, engine == .memory, sort.isEmpty {
      // Without a sort the first rows are final once found: show them while the scan goes on.
      let shown = min(limit ?? Int.max, max(0, displayRows))
      let (wanted, overflow) = offset.addingReportingOverflow(shown)
      if shown > 0 && !overflow {
        early = { [self] indices in
          guard !streamed, indices.count >= wanted else { return }
          streamed = true
          stream(warnings(predicate) + tableRows(Array(indices[offset..<wanted]), of: set))
        }
      }
    }
    let fetched: REPLFetchResult
    do {
      fetched = try fetch(predicate, in: set, early: early)
    } catch let e as SiftError {
      return .failure((streamed ? "" : warnings(predicate)) + render(e))
    } catch {
      return .failure((streamed ? "" : warnings(predicate)) + errorLine("\(error)"))
    }
    var out = streamed ? "" : warnings(predicate)
    if fetched.interrupted {
      out += style.yellow("interrupted") + " after \(fetched.scanned) of \(set.count) records\n"
    }
    switch mode {
    case .count:
      out += "\(fetched.indices.count)\n"
    case .table:
      if !streamed { out += tableRows(Array(fetched.indices.prefix(max(0, displayRows))), of: set) }
      out += footer(fetched)
    }
    return fetched.interrupted ? .failure(out) : .ok(out)
  }

  /// Runs the predicate on the current engine and applies sort, offset and limit.
  /// `early` (memory engine only) sees the matches so far after each chunk of a scan that
  /// is not finished yet.
  func fetch(
    _ predicate: SiftPredicate, in set: REPLDataSet, early: (([Int]) -> Void)? = nil
  ) throws -> REPLFetchResult {
    var result: REPLFetchResult
    switch engine {
    case .memory: result = try memoryMatches(predicate, in: set, early: early)
    case .sqlite, .postgres: result = try sqlMatches(predicate, in: set, engine: engine)
    }
    // Every engine sorts here, with the library's order (SiftSortOrder, the order SQL's ORDER BY
    // follows too), so an interrupted scan's matches so far are sorted the same way.
    if !sort.isEmpty {
      let request = SiftFetchRequest(entity: set.name, sortDescriptors: sort)
      if set.columns != nil {
        // Only the matches are read out of the columns (no row of the others is built).
        let matched = result.indices.compactMap(set.object(at:))
        let order = try request.sort(Array(matched.indices), of: matched, variables: variables)
        result.indices = order.map { result.indices[$0] }
      } else if let objects = set.objects {
        result.indices = try request.sort(result.indices, of: objects, variables: variables)
      } else {
        result.indices = try request.sort(result.indices, of: set.records, variables: variables)
      }
    }
    result.total = result.indices.count
    let start = min(offset, result.indices.count)
    let end = limit.map { min(result.indices.count, start + $0) } ?? result.indices.count
    result.indices = Array(result.indices[start..<end])
    return result
  }

  /// Scans records with the memory engine in rounds of `MemoryEngine.chunk` records per
  /// worker (`scanWorkers` threads; a round that took under `MemoryEngine.growBelow` seconds
  /// doubles the next, up to `MemoryEngine.maxChunk`), checking for Ctrl-C between rounds,
  /// reporting progress once a scan has run for `progressDelay` seconds (then every quarter second), and handing
  /// the matches so far to `early` after each round but the last. Matches come in record
  /// order whatever the number of workers.
  func memoryMatches(
    _ predicate: SiftPredicate, in set: REPLDataSet, early: (([Int]) -> Void)? = nil
  ) throws -> REPLFetchResult {
    let matcher = try MemoryEngine.matcher(for: predicate)
    var indices: [Int] = []
    let count = set.count
    var nextReport = Date().addingTimeInterval(progressDelay)
    var start = 0
    var perWorker = MemoryEngine.chunk
    while start < count {
      if interrupt.isSet {
        return REPLFetchResult(indices: indices, total: indices.count, interrupted: true, scanned: start)
      }
      if let progress, start > 0, Date() >= nextReport {
        nextReport = Date().addingTimeInterval(0.25)
        progress("scanned \(start) of \(count) (\(start * 100 / count)%), \(indices.count) matches; Ctrl-C stops")
      }
      let workers = max(1, scanWorkers)
      let end = start + min(count - start, perWorker * workers)
      let began = Date()
      indices += try MemoryEngine.matches(matcher, in: set, range: start..<end, variables: variables, workers: workers)
      if perWorker < MemoryEngine.maxChunk, Date().timeIntervalSince(began) < MemoryEngine.growBelow { perWorker *= 2 }
      start = end
      if start < count { early?(indices) }
    }
    return REPLFetchResult(indices: indices, total: indices.count, interrupted: false, scanned: count)
  }

  /// The columns for a data set's tables.
  func columns(for set: REPLDataSet) -> [String] {
    columns[set.name] ?? set.defaultColumns
  }

  /// The table of the given records (nothing when there are none).
  func tableRows(_ indices: [Int], of set: REPLDataSet) -> String {
    guard !indices.isEmpty else { return "" }
    let cols = columns(for: set)
    let rows = indices.map { i in cols.map { set.value(of: $0, at: i) } }
    return TableRenderer(style: style).render(columns: cols, rows: rows)
  }

  /// The count line under a table: `(3 rows)`, `(first 10 of 250 rows)`, ….
  func footer(_ fetched: REPLFetchResult) -> String {
    let n = fetched.indices.count
    let shown = min(n, max(0, displayRows))
    var footer = "(\(n) row\(n == 1 ? "" : "s")"
    if shown < n { footer = "(first \(shown) of \(n) rows" }
    if fetched.total != n { footer += "; \(fetched.total) match before offset/limit" }
    return style.dim(footer + ")") + "\n"
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
      // To-many key paths contribute each element: aggregate over one value per row.
      var rows: [SiftValue] = []
      for i in fetched.indices {
        let v = set.value(of: keyPath, at: i)
        if case .array(let items) = v {
          rows += items.map { .dictionary(["v": $0]) }
        } else {
          rows.append(.dictionary(["v": v]))
        }
      }
      let table = try REPLAggregates(rows: rows, records: fetched.indices.count).render(keyPath, style: style)
      guard fetched.interrupted else { return .ok(table) }
      return .failure(style.yellow("interrupted") + " after \(fetched.scanned) of \(set.count) records\n" + table)
    } catch let e as SiftError {
      return .failure(render(e))
    } catch {
      return .failure(errorLine("\(error)"))
    }
  }
}

/// count, sum, avg, min and max of a key path's values, computed by the library's fetch
/// aggregates (the rules SQL follows: nil skipped, sum of nothing 0, min/max of mixed kinds an
/// error).
struct REPLAggregates {
  /// One `{"v": value}` row per value.
  var rows: [SiftValue]
  var records: Int

  func render(_ keyPath: String, style: REPLStyle) throws -> String {
    let aggregates = [SiftAggregate.Function.count, .sum, .avg, .min, .max].map { SiftAggregate($0, "v") }
    let request = SiftFetchRequest(entity: keyPath, resultType: .aggregates(aggregates, groupBy: []))
    guard case .rows(_, let result) = try request.execute(on: rows), let r = result.first, r.count == 5 else {
      return ""
    }
    let row: [SiftValue] = [.string(keyPath), .int(Int64(records)), r[0], r[1], r[2].rounded(places: 4), r[3], r[4]]
    return TableRenderer(style: style).render(
      columns: ["key", "records", "values", "sum", "avg", "min", "max"], rows: [row])
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
