import Foundation
import SiftSQL
import SiftSyntax

/// `.compare [PREDICATE]` on a table of the open database: the rows are read through the
/// schema's types (`DatabaseRecordReader`: dates as dates, booleans as booleans, the
/// relationships the predicate names followed), the predicate is evaluated on them in memory,
/// and the database answers for the same rows in SQL. Rows where the two disagree are listed.
/// A table larger than `sql.compareSample` rows is compared on its first rows by key, and the
/// answer says so.
extension REPLSession {
  func databaseCompare(_ arg: String, _ e: SQLEntity, _ db: ExistingDatabase) -> REPLResponse {
    guard let text = predicateText(arg) else { return .failure(errorLine("usage: .compare PREDICATE")) }
    guard e.hasSingleColumnKey else {
      let why =
        e.isView
        ? "is a view (no primary key)"
        : e.primaryKeyColumns.isEmpty
          ? "has no primary key" : "has a composite primary key (\(e.primaryKeyColumns.joined(separator: ", ")))"
      return .refusal(
        errorLine(
          ".compare matches rows by a one-column primary key; \(e.name) \(why): use a predicate, .count or .sql"))
    }
    let predicate: SiftPredicate
    switch prepare(text) {
    case .success(let p): predicate = p
    case .failure(let error): return .failure(render(error))
    }
    lastPredicate = text
    let keyName = e.primaryKeyAttribute.name
    let engineName = db.kind.rawValue
    do {
      let total = Int(
        try db.run(try db.compiler.compile(SiftFetchRequest(entity: e.name, resultType: .count))).first?.first?.intValue
          ?? 0)
      // The relationships the predicate may name: its identifiers, followed up to three hops.
      let identifiers = Set(
        Lexer.tokenize(text).compactMap { t -> String? in
          if case .identifier(let s) = t.kind { return s }
          return nil
        })
      let reader = DatabaseRecordReader(db: db, follow: identifiers, depth: 3)
      let rows = try reader.firstRows(of: e, limit: sql.compareSample)
      let sampled = total > rows.count
      // The database's answer for the same rows.
      var inDatabase: Set<SiftValue> = []
      let keysOnly = SiftFetchRequest(entity: e.name, predicate: predicate, resultType: .properties([keyName]))
      if sampled {
        var start = 0
        while start < rows.count {
          let part = rows[start..<min(rows.count, start + DatabaseRecordReader.chunk)].map(\.key)
          start += part.count
          var request = keysOnly
          request.predicate = SiftPredicate.and([
            predicate, try SiftPredicate(format: "%K IN %@", .string(keyName), .array(part)),
          ])
          for row in try db.run(try db.compiler.compile(request)) {
            inDatabase.insert(DatabaseValues.value(row.first ?? .null, e.primaryKeyAttribute, db.schema))
          }
        }
      } else {
        for row in try db.run(try db.compiler.compile(keysOnly)) {
          inDatabase.insert(DatabaseValues.value(row.first ?? .null, e.primaryKeyAttribute, db.schema))
        }
      }
      // Memory's answer: the predicate evaluated on the records read.
      let matcher = try MemoryEngine.matcher(for: predicate)
      var inMemory: Set<SiftValue> = []
      var failures: [(SiftValue, SiftError)] = []
      for (key, record) in rows {
        do {
          if try matcher.matches(record, variables: variables) { inMemory.insert(key) }
        } catch {
          failures.append((key, error))
        }
      }
      var out = warnings(predicate)
      if sampled {
        out +=
          style.dim(
            "sample: the first \(rows.count) of \(total) rows of \(e.name) by \(keyName) (.compare reads at most \(sql.compareSample))"
          ) + "\n"
      }
      out +=
        "  " + TextWidth.pad(engineName, to: 8) + " \(inDatabase.count) match\(inDatabase.count == 1 ? "" : "es")\n"
      out += "  " + TextWidth.pad("memory", to: 8) + " \(inMemory.count) match\(inMemory.count == 1 ? "" : "es")"
      out +=
        failures.isEmpty
        ? "\n" : ", " + style.red("error") + " on \(failures.count) row\(failures.count == 1 ? "" : "s")\n"
      for (key, error) in failures.prefix(3) {
        out += "    \(keyName) \(SiftJSON.serialize(key)): \(error.diagnostic.id): \(error.diagnostic.message)\n"
      }
      let failed = Set(failures.map(\.0))
      let differing = rows.filter {
        !failed.contains($0.key) && inDatabase.contains($0.key) != inMemory.contains($0.key)
      }
      if differing.isEmpty && failures.isEmpty {
        out += style.green("agree") + ": \(inDatabase.count) of \(rows.count) rows\n"
        return .ok(out)
      }
      if !differing.isEmpty {
        out += style.red("differ") + ": \(differing.count) row\(differing.count == 1 ? "" : "s")\n"
        let shown = displayColumns(e)
        let table: [[SiftValue]] = differing.prefix(max(1, displayRows)).map { key, record in
          [.string(inDatabase.contains(key) ? engineName : "memory")]
            + shown.map { Self.value(atKeyPath: $0, in: record) }
        }
        out += TableRenderer(style: style).render(columns: ["matched by"] + shown, rows: table)
        if differing.count > table.count { out += style.dim("(first \(table.count) of \(differing.count))") + "\n" }
      }
      return .failure(out)
    } catch let error as SiftError {
      return .failure(render(error))
    } catch {
      return .failure(errorLine(ExistingDatabase.message(of: error)))
    }
  }

  /// A dotted key path's value in a record read by `DatabaseRecordReader` (to-ones only).
  static func value(atKeyPath path: String, in record: [String: SiftValue]) -> SiftValue {
    var current = SiftValue.dictionary(record)
    for part in path.split(separator: ".") {
      guard case .dictionary(let d) = current else { return .null }
      current = d[String(part)] ?? .null
    }
    return current
  }
}
