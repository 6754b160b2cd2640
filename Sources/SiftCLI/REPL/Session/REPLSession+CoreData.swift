import Foundation
import SiftCoreData
import SiftSQL
import SiftSyntax

/// `.fetch TEMPLATE [NAME=JSON]…` on a Core Data store opened with its model (`sift --db
/// STORE.sqlite --model MODEL.xcdatamodeld`): runs the model's fetch request template with its
/// `$VARIABLES` substituted (the library's `CoreDataModel.fetchRequest(named:substituting:)`),
/// in the store, read-only. The session's sort applies; the template's fetch limit does.
extension REPLSession {
  func fetchTemplate(_ arg: String) -> REPLResponse {
    guard let db = sql.existing, let store = db.coreData else {
      return .refusal(
        errorLine(
          ".fetch runs a Core Data model's fetch request template: open a store with sift --db STORE.sqlite --model MODEL.xcdatamodeld"
        ))
    }
    let model = store.model
    let templates = model.fetchRequests.map(\.name)
    guard !store.isModelInferred else {
      return .refusal(
        errorLine(
          "\(db.label) was opened without its model, which holds the templates; start with --model MODEL.xcdatamodeld"))
    }
    let words = Self.templateWords(arg)
    guard let name = words.first else {
      let list = templates.isEmpty ? "the model has none" : "templates: " + templates.joined(separator: ", ")
      return .failure(errorLine("usage: .fetch TEMPLATE [NAME=JSON]… (\(list))"))
    }
    let variables: [String: SiftValue]
    do {
      variables = try CommandInputs.variables(Array(words.dropFirst()))
    } catch {
      return .failure(errorLine(error.description.replacingOccurrences(of: "--var ", with: "")))
    }
    do {
      var request = try model.fetchRequest(named: name, substituting: variables)
      let compiler = db.compiler
      request.resultType = .count
      let count = Int(try db.run(try compiler.compile(request)).first?.first?.intValue ?? 0)
      request.resultType = .records
      request.sortDescriptors = sort
      if let limit = request.limit {
        request.limit = min(limit, max(0, displayRows))
      } else {
        request.limit = max(0, displayRows)
      }
      guard let entity = db.schema.entity(request.entity) else {
        return .failure(errorLine("no entity '\(request.entity)'"))
      }
      let rows = try db.run(try compiler.compile(request)).map { displayRow($0.prefix(8), entity, db) }
      let columns = entity.columnAttributes.prefix(8).map(\.name)
      var out = style.dim("\(request.entity) where \(request.predicate?.predicateFormat ?? "TRUEPREDICATE")") + "\n"
      if !rows.isEmpty { out += TableRenderer(style: style).render(columns: Array(columns), rows: rows) }
      let footer =
        rows.count < count ? "(first \(rows.count) of \(count) rows)" : "(\(count) row\(count == 1 ? "" : "s"))"
      return .ok(out + style.dim(footer) + "\n")
    } catch {
      // A template that does not fit: the model error's own words, without the file prefix.
      if error.stage == .model {
        return .failure(errorLine((error.underlying as? CoreDataModelError)?.message ?? error.message))
      }
      return .failure(render(error))
    }
  }

  /// A fetched row for display, each value read as its attribute's type (`DatabaseValues`):
  /// a date column shows as a date whatever its encoding (Core Data's seconds since 2001, ISO
  /// text, milliseconds, PostgreSQL's types), a boolean as true/false.
  func displayRow(_ row: ArraySlice<SQLValue>, _ entity: SQLEntity, _ db: ExistingDatabase) -> [SiftValue] {
    let attributes = entity.columnAttributes
    return row.enumerated().map { i, value in
      i < attributes.count ? DatabaseValues.value(value, attributes[i], db.schema) : value.siftValue
    }
  }

  /// Splits `.fetch` arguments at spaces outside JSON strings and brackets, keeping quotes:
  /// `Books AUTHOR="Neil Gaiman" TAGS=["a", "b"]` → `Books`, `AUTHOR="Neil Gaiman"`, `TAGS=["a", "b"]`.
  static func templateWords(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    var inString = false
    var escaped = false
    var depth = 0
    for ch in text {
      if inString {
        current.append(ch)
        if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inString = false }
        continue
      }
      if ch.isWhitespace && depth == 0 {
        if !current.isEmpty { words.append(current) }
        current = ""
        continue
      }
      current.append(ch)
      if ch == "\"" {
        inString = true
      } else if ch == "[" || ch == "{" {
        depth += 1
      } else if ch == "]" || ch == "}" {
        depth = max(0, depth - 1)
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }
}
