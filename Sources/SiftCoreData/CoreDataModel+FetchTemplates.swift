import SiftSyntax

extension CoreDataModel {
  /// The fetch request template `name` as a `SiftFetchRequest`, its `$VARIABLES` replaced by
  /// `variables` (`NSManagedObjectModel.fetchRequestFromTemplate(withName:substitutionVariables:)`):
  /// entity, predicate (none when the template has none) and `fetchLimit`. Compile it with
  /// `SQLCompiler.compile(_:)` on a store's schema, or run it in memory. Other template options
  /// (`includeSubentities="NO"`, `resultType`, …) stay in `CoreDataFetchRequest.options` and are
  /// not applied: a fetch on an entity includes its sub-entities.
  ///
  /// ```swift
  /// let request = try model.fetchRequest(named: "BooksByAuthor", substituting: ["AUTHOR": "Neil Gaiman"])
  /// request.predicate?.predicateFormat   // ANY authors.name == "Neil Gaiman"
  /// ```
  /// - Throws: `SiftError` (stage `.model`, its `underlying` a `CoreDataModelError` with
  ///   element `fetchRequest`) for an unknown template, a variable the template uses but
  ///   `variables` lacks, a name in `variables` the template does not use, or a predicate that
  ///   does not parse (with the parser's message).
  public func fetchRequest(named name: String, substituting variables: [String: SiftValue] = [:]) throws(SiftError)
    -> SiftFetchRequest
  {
    do throws(CoreDataModelError) { return try template(named: name, substituting: variables) } catch {
      throw SiftError.model(error)
    }
  }

  /// `fetchRequest(named:substituting:)` with plain Swift values.
  ///
  /// ```swift
  /// let author: String? = "Neil Gaiman"
  /// let request = try model.fetchRequest(named: "BooksByAuthor", substituting: ["AUTHOR": author])
  /// ```
  @_disfavoredOverload
  public func fetchRequest(named name: String, substituting variables: [String: Any?]) throws(SiftError)
    -> SiftFetchRequest
  {
    var values: [String: SiftValue] = [:]
    for (key, value) in variables {
      guard let converted = SiftValue(converting: value) else {
        throw SiftError(
          stage: .arguments, id: .unsupportedArgumentType,
          message:
            "$\(key) is \(type(of: value as Any)), which Sift cannot use as a value; conform it to SiftValueConvertible"
        )
      }
      values[key] = converted
    }
    return try fetchRequest(named: name, substituting: values)
  }

  func template(named name: String, substituting variables: [String: SiftValue]) throws(CoreDataModelError)
    -> SiftFetchRequest
  {
    guard let template = fetchRequest(name) else {
      let names = fetchRequests.map(\.name)
      let known = names.isEmpty ? "the model has none" : "templates: " + names.joined(separator: ", ")
      throw CoreDataModelError(
        file: file, element: "fetchRequest", message: "no fetch request template '\(name)' (\(known))")
    }
    func fail(_ message: String) -> CoreDataModelError {
      CoreDataModelError(
        file: file, line: template.line, element: "fetchRequest", message: "template '\(name)': " + message)
    }
    var parsed: SiftPredicate? = nil
    if let text = template.predicateString, !text.allSatisfy(\.isWhitespace) {
      do {
        parsed = try SiftPredicate.parse(text)
      } catch {
        throw fail(
          "predicate \"\(text)\" does not parse: \(error.diagnostic.message) (at offset \(error.diagnostic.range.start))"
        )
      }
    }
    let needed = parsed?.variables.sorted() ?? []
    let missing = needed.filter { variables[$0] == nil }
    if !missing.isEmpty {
      throw fail("needs " + missing.map { "$" + $0 }.joined(separator: ", ") + " (give NAME=JSON for each)")
    }
    let unknown = variables.keys.filter { !needed.contains($0) }.sorted()
    if !unknown.isEmpty {
      let uses = needed.isEmpty ? "it uses none" : "it uses " + needed.map { "$" + $0 }.joined(separator: ", ")
      throw fail("has no variable " + unknown.map { "$" + $0 }.joined(separator: ", ") + " (\(uses))")
    }
    return SiftFetchRequest(
      entity: template.entity, predicate: parsed?.substituting(variables), limit: template.fetchLimit)
  }
}
