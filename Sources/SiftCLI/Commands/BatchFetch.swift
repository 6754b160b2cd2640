import Foundation
import SiftEvaluation
import SiftSyntax

/// A batch case's fetch options: `"sort": "key asc, key2 desc [c]"`, `"limit": N`,
/// `"offset": N`. With any of them, `matches`, `sqlMatches`, `pgMatches` (and `rows` on a
/// database) list the records in the fetch's order, paged — one `SiftFetchRequest` for every
/// engine, so their answers are comparable as they are.
///
/// ```swift
/// let f = try BatchFetch(["sort": "rating desc", "limit": 3])   // sorts, limit 3
/// ```
struct BatchFetch {
  var sortDescriptors: [SiftSortDescriptor] = []
  var limit: Int?
  var offset: Int?

  /// True when the case asks for the default: every match, in record order.
  var isDefault: Bool { sortDescriptors.isEmpty && limit == nil && offset == nil }

  /// No options: every match, in record order.
  init() {}

  /// Reads the options from a case object; errors are `input`-stage JSON for the case's output.
  init(_ c: [String: SiftValue]) throws(BatchFetchError) {
    if let s = c["sort"] {
      guard case .string(let text) = s else {
        throw BatchFetchError.input("\"sort\" must be a string such as \"name asc, rating desc\"")
      }
      do {
        sortDescriptors = try SiftSortDescriptor.parseList(text)
      } catch {
        // Point into the sort text: the message names the key, the columns count in it.
        throw BatchFetchError.sort(error)
      }
    }
    limit = try Self.count(c, "limit")
    offset = try Self.count(c, "offset")
  }

  private static func count(_ c: [String: SiftValue], _ key: String) throws(BatchFetchError) -> Int? {
    guard let v = c[key], !v.isNull else { return nil }
    guard case .int(let n) = v, n >= 0, n <= Int64(Int32.max) else {
      throw BatchFetchError.input("\"\(key)\" must be a whole number ≥ 0, not \(SiftJSON.serialize(v))")
    }
    return Int(n)
  }

  /// The request for `predicate` over `entity` with these options.
  func request(_ entity: String, _ predicate: SiftPredicate, _ resultType: SiftFetchRequest.ResultType)
    -> SiftFetchRequest
  {
    SiftFetchRequest(
      entity: entity, predicate: predicate, sortDescriptors: sortDescriptors, limit: limit, offset: offset,
      resultType: resultType)
  }

  /// The positions of the matching records of `data`, in the fetch's order.
  func matchingIndices(
    _ predicate: SiftPredicate, in data: CommandInputs.DataSet, variables: [String: SiftValue],
    options: EvaluationOptions
  ) throws(SiftError) -> [Int] {
    let r = request("records", predicate, .indices)
    if let records = data.records { return try r.matchingIndices(in: records, variables: variables, options: options) }
    return try r.matchingIndices(in: data.values, variables: variables, options: options)
  }
}

/// Why a case's fetch options are unusable.
enum BatchFetchError: Error {
  /// A bad `"limit"`, `"offset"` or non-string `"sort"`.
  case input(String)
  /// A `"sort"` text that does not parse.
  case sort(SiftError)

  /// The `error` object of the batch contract (stage `input`); for a sort error, line and
  /// column point into the `"sort"` text.
  var batchJSON: SiftValue {
    switch self {
    case .input(let message):
      return [
        "id": .string(DiagnosticID.invalidCase.rawValue), "message": .string(message), "line": 1, "column": 1,
        "offset": 0,
      ]
    case .sort(let e):
      var json = e.batchJSON
      if case .dictionary(var d) = json {
        d["message"] = .string("sort: " + e.diagnostic.message)
        json = .dictionary(d)
      }
      return json
    }
  }
}
