import Foundation
import SiftSQL
import SiftSyntax

/// A `sift batch` case that writes (`NSBatchUpdateRequest`, `NSBatchDeleteRequest`,
/// `NSBatchInsertRequest`), on the database of `--db`/`--pg-schema` opened with `--write`:
///
///     {"id": 1, "delete": true, "format": "rating < %@", "args": [2]}
///     {"id": 2, "update": {"favorite": false, "visits": {"expression": "visits + %@", "args": [1]}}, "format": "…"}
///     {"id": 3, "insert": [{"id": 7, "name": "Blue"}, {"id": 8, "name": "Red"}], "result": "ids"}
///
/// `"format"` (with `"args"`, `"variables"`) selects the rows of an update or delete (none: all
/// of them). `"result"` is Apple's result type: `"count"` (default: `"count": N`), `"ids"`
/// (`"count"` and `"ids"`: each changed row's primary key, `NSManagedObjectID`s) or `"status"`
/// (`"ok"` alone). Each case is one transaction: all of it or nothing.
struct BatchWrite {
  enum Kind {
    case delete
    case update([(attribute: String, value: SQLUpdateValue)])
    case insert([[String: SiftValue]])
  }

  enum Result: String { case count, ids, status }

  var kind: Kind
  var result: Result

  /// True when the case asks to write.
  static func isWrite(_ c: [String: SiftValue]) -> Bool {
    c["delete"] != nil || c["update"] != nil || c["insert"] != nil
  }

  /// Reads the write from a case object; errors are `input`-stage messages.
  init(_ c: [String: SiftValue]) throws(BatchFetchError) {
    let asked = ["delete", "update", "insert"].filter { c[$0] != nil }
    guard asked.count == 1 else {
      throw BatchFetchError.input("a case writes one way: \"delete\", \"update\" or \"insert\", not \(asked.count)")
    }
    // A key the write does not know (a misspelt "format", say) would leave every row selected:
    // refused, never ignored.
    let known: Set = ["id", "delete", "update", "insert", "format", "args", "variables", "result"]
    let fetchOnly: Set = ["sort", "limit", "offset"]  // refused below with their own message
    if let unknown = c.keys.sorted().first(where: { !known.contains($0) && !fetchOnly.contains($0) }) {
      let keys = known.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
      throw BatchFetchError.input("a write case has no key \"\(unknown)\" (it takes: \(keys))")
    }
    switch c["result"] {
    case nil, .null?: result = .count
    case .string(let s)? where Result(rawValue: s) != nil: result = Result(rawValue: s) ?? .count
    default: throw BatchFetchError.input("\"result\" is \"count\", \"ids\" or \"status\"")
    }
    for key in ["sort", "limit", "offset"] where c[key] != nil {
      throw BatchFetchError.input("\"\(key)\" is for fetches; a batch write changes every row its format selects")
    }
    if let d = c["delete"] {
      guard d == .bool(true) else { throw BatchFetchError.input("\"delete\" must be true") }
      kind = .delete
    } else if case .dictionary(let fields)? = c["update"] {
      guard !fields.isEmpty else { throw BatchFetchError.input("\"update\" names no attribute to set") }
      var assignments: [(attribute: String, value: SQLUpdateValue)] = []
      for name in fields.keys.sorted() {
        assignments.append((name, try Self.value(fields[name] ?? .null, for: name)))
      }
      kind = .update(assignments)
    } else if case .array(let items)? = c["insert"] {
      var objects: [[String: SiftValue]] = []
      for item in items {
        guard case .dictionary(let object) = item else {
          throw BatchFetchError.input("\"insert\" is a list of objects, attribute name to value")
        }
        objects.append(object)
      }
      guard !objects.isEmpty else { throw BatchFetchError.input("\"insert\" has no object") }
      guard c["format"] == nil else { throw BatchFetchError.input("an insert selects no rows: it takes no \"format\"") }
      kind = .insert(objects)
    } else {
      throw BatchFetchError.input("\"update\" is an object (attribute: value) and \"insert\" a list of objects")
    }
  }

  /// A constant, or `{"expression": "visits + %@", "args": [1]}` over the row's attributes (an
  /// expression that does not parse is `.sort(error)`: a `SiftError` with its own stage).
  static func value(_ v: SiftValue, for name: String) throws(BatchFetchError) -> SQLUpdateValue {
    guard case .dictionary(let d) = v else { return .value(v) }
    guard case .string(let format)? = d["expression"], Set(d.keys).isSubset(of: ["expression", "args"]) else {
      throw BatchFetchError.input(
        "\"\(name)\": a value, or {\"expression\": \"…\", \"args\": […]} to compute it from the row")
    }
    var args: [SiftValue] = []
    switch d["args"] {
    case nil, .null?: break
    case .array(let a)?: args = a
    default: throw BatchFetchError.input("\"\(name)\": \"args\" must be an array")
    }
    do {
      let e = try SiftExpression.parse(format).binding(args)
      return .expression(e.root, source: e.source)
    } catch {
      throw BatchFetchError.sort(error)
    }
  }

  /// Runs the write as one transaction and adds its answer to `out`.
  func run(
    _ predicate: SiftPredicate?, on db: BatchDatabase, into out: inout [String: SiftValue]
  ) throws {
    let compiler = db.database.compiler
    let type: SiftBatchResultType = result == .ids ? .keys : .count
    let sql = db.database.database
    let done: SiftBatchResult
    switch kind {
    case .delete:
      done = try sql.run(
        BatchDeleteRequest(entity: db.entity.name, predicate: predicate), compiler: compiler, resultType: type)
    case .update(let assignments):
      done = try sql.run(
        BatchUpdateRequest(entity: db.entity.name, predicate: predicate, assignments: assignments), compiler: compiler,
        resultType: type)
    case .insert(let objects):
      done = try sql.run(
        BatchInsertRequest(entity: db.entity.name, objects: objects), compiler: compiler, resultType: type)
    }
    switch result {
    case .status: break
    case .count: out["count"] = .int(Int64(done.count))
    case .ids:
      out["count"] = .int(Int64(done.count))
      out["ids"] = .array(
        (done.keys ?? []).map { key in key.count == 1 ? key[0].siftValue : .array(key.map(\.siftValue)) })
    }
  }
}

extension BatchContext {
  /// A case that writes: refused unless the batch runs on a database opened with `--write`.
  func processWrite(_ c: [String: SiftValue], id: SiftValue) -> SiftValue {
    func failure(_ stage: String, _ error: SiftValue) -> SiftValue {
      ["id": id, "ok": false, "stage": .string(stage), "error": error]
    }
    func input(_ id: DiagnosticID, _ message: String) -> SiftValue {
      failure("input", ["id": .string(id.rawValue), "message": .string(message), "line": 1, "column": 1, "offset": 0])
    }
    guard let database else {
      return input(
        .invalidCase, "update, delete and insert cases run on a database: --db FILE, --pg-schema NAME or --mysql URL")
    }
    guard writable else {
      return input(
        .readOnly,
        "\(database.database.label) is open read-only: run sift batch with --write to update, delete or insert")
    }
    let write: BatchWrite
    do {
      write = try BatchWrite(c)
    } catch {
      // An update expression that does not parse fails at its own stage, pointing into it.
      if case .sort(let e) = error { return failure(e.stage.rawValue, e.batchJSON) }
      return failure("input", error.batchJSON)
    }
    var predicate: SiftPredicate?
    if case .string(let format)? = c["format"] {
      var arguments: [SiftValue] = []
      var variables: [String: SiftValue] = [:]
      switch c["args"] {
      case .array(let a)?: arguments = a
      case nil, .null?: break
      default: return input(.invalidCase, "\"args\" must be an array of JSON values, one per %@")
      }
      switch c["variables"] {
      case .dictionary(let v)?: variables = v
      case nil, .null?: break
      default: return input(.invalidCase, "\"variables\" must be an object, name to JSON value")
      }
      do {
        predicate = try SiftPredicate.parse(format).binding(arguments).substituting(variables)
      } catch {
        return failure(error.stage.rawValue, error.batchJSON)
      }
    } else if c["format"] != nil {
      return input(.invalidCase, "\"format\" must be a string")
    }
    var out: [String: SiftValue] = ["id": id, "ok": true]
    if let predicate { out["canonical"] = .string(predicate.predicateFormat) }
    do {
      try write.run(predicate, on: database, into: &out)
    } catch let e as SiftError {
      return failure(e.stage.rawValue, e.batchJSON)
    } catch {
      return input(.databaseError, "\(error)")
    }
    return .dictionary(out)
  }
}
