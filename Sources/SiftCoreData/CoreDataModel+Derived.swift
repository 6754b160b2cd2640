import SiftEvaluation
import SiftSyntax

extension CoreDataModel {
  /// The derived attributes of `entity` (inherited ones included) computed from `record` in
  /// memory, the way Core Data computes them when it saves: the derivation expression
  /// (`CoreDataDerivation`) evaluated with `record` as `SELF` — key paths read the record,
  /// a to-many is an array of records, `canonical:` folds case and diacritics as `[cd]` does.
  /// A store keeps the same value in the attribute's column, which fetches read.
  ///
  /// ```swift
  /// let tag: [String: SiftValue] = ["name": "Fantasy", "items": [["title": "Mort"], ["title": "Good Omens"]]]
  /// try model.derivedValues(of: "Tag", in: tag)   // ["itemCount": 2]
  /// ```
  /// - Throws: `SiftError`: `invalid-model` for a derivation Sift does not support (naming
  ///   it), or the evaluation's error.
  public func derivedValues(of entity: String, in record: [String: SiftValue]) throws(SiftError) -> [String: SiftValue]
  {
    var out: [String: SiftValue] = [:]
    for a in allAttributes(of: entity) {
      guard let d = try a.derivation() else { continue }
      out[a.name] = try d.value(in: record)
    }
    return out
  }

  /// `records` of `entity` with their derived attributes set (`derivedValues(of:in:)`), as a
  /// store Core Data saved would hold them: fetch them in memory as from the store.
  ///
  /// ```swift
  /// let tags = try model.addingDerivedValues(to: rawTags, entity: "Tag")
  /// ```
  /// - Throws: as `derivedValues(of:in:)`.
  public func addingDerivedValues(to records: [[String: SiftValue]], entity: String) throws(SiftError)
    -> [[String: SiftValue]]
  {
    var derivations: [(String, CoreDataDerivation)] = []
    for a in allAttributes(of: entity) {
      if let d = try a.derivation() { derivations.append((a.name, d)) }
    }
    guard !derivations.isEmpty else { return records }
    var out: [[String: SiftValue]] = []
    out.reserveCapacity(records.count)
    for var r in records {
      for (name, d) in derivations { r[name] = try d.value(in: r) }
      out.append(r)
    }
    return out
  }
}

extension CoreDataDerivation {
  /// The derived value for `record` (memory).
  ///
  /// ```swift
  /// try CoreDataDerivation("lowercase:(name)").value(in: ["name": "Mort"])   // "mort"
  /// ```
  /// - Throws: the evaluation's `SiftError`.
  public func value(in record: [String: SiftValue]) throws(SiftError) -> SiftValue {
    let v = try expression.expressionValue(with: SiftValue.dictionary(record))
    guard isCanonical else { return v }
    if case .string(let s) = v { return .string(TextFolding.fold(s, [.caseInsensitive, .diacriticInsensitive])) }
    return v
  }
}
