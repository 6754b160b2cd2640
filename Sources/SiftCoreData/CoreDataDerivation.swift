import SiftSyntax

/// The derivation expression of a derived attribute (`derived="YES"`,
/// `NSDerivedAttributeDescription.derivationExpression`), parsed with Sift's own parser and
/// checked against the shapes Core Data derives in an SQL store: a key path (an attribute, a
/// to-one's attribute, a to-many with an `@` operator such as `items.@count` or
/// `items.@sum.pages`), one of the functions `sum:`, `count:`, `min:`, `max:`, `average:` over
/// a key path, `lowercase:`, `uppercase:` or `canonical:` of a key path, or `now()`. Core Data
/// keeps the value in the attribute's column (read like any attribute); `CoreDataModel`'s
/// `derivedValues(of:in:)` computes it the same way in memory. Anything else is refused when
/// the derivation is asked for, naming the attribute and the expression.
///
/// ```swift
/// let d = try CoreDataDerivation("canonical:(name)")
/// d.isCanonical             // true
/// d.expression.description  // "name"
/// ```
public struct CoreDataDerivation: Sendable, Hashable {
  /// The expression computed: the argument of `canonical:` for a canonical derivation.
  public var expression: SiftExpression
  /// `canonical:(x)`: `x` with case and diacritics folded (Sift's `[cd]` fold), as Core
  /// Data's canonical form for fast comparison.
  public var isCanonical: Bool
  /// The text as the model writes it.
  public var text: String

  /// The functions a derivation may call (besides `canonical:`, which Sift's language has not).
  static let functions: Set<BuiltinFunction> = [
    .sum, .count, .min, .max, .average, .lowercase, .uppercase, .now,
  ]

  /// Parses and checks `text`; `attribute` (`Tag.itemCount`) names the attribute in errors.
  ///
  /// ```swift
  /// try CoreDataDerivation("items.@count", attribute: "Tag.itemCount")
  /// ```
  /// - Throws: `SiftError` (stage `.model`, id `invalid-model`): the text does not parse, or
  ///   it is not one of the shapes above (the message names the attribute and the text).
  public init(_ text: String, attribute: String = "the derived attribute") throws(SiftError) {
    self.text = text
    let trimmed = text.trimmingSpaces
    var body = trimmed
    isCanonical = false
    if trimmed.hasPrefix("canonical:("), trimmed.hasSuffix(")") {
      body = String(trimmed.dropFirst("canonical:(".count).dropLast())
      isCanonical = true
    }
    do {
      expression = try SiftExpression(format: body)
    } catch {
      throw Self.refused(attribute, text, "it does not parse: \(error.diagnostic.message)")
    }
    if isCanonical {
      guard case .keyPath = expression.root.kind else {
        throw Self.refused(attribute, text, "canonical: takes a key path")
      }
      return
    }
    switch expression.root.kind {
    case .keyPath(nil, _):
      return
    case .function(let f, let args) where Self.functions.contains(f):
      for a in args {
        guard case .keyPath(nil, _) = a.kind else {
          throw Self.refused(attribute, text, "\(f.rawValue) takes a key path of the entity")
        }
      }
    default:
      throw Self.refused(
        attribute, text,
        "Core Data derives from a key path (items.@count, publisher.name) or one function of a key path "
          + "(sum:, count:, min:, max:, average:, lowercase:, uppercase:, canonical:) or now()")
    }
  }

  /// True for `now()`: the time of the save, so a value computed in memory is the time of the
  /// computation instead.
  ///
  /// ```swift
  /// try CoreDataDerivation("now()").isNow   // true
  /// ```
  public var isNow: Bool {
    if case .function(.now, _) = expression.root.kind { return true }
    return false
  }

  static func refused(_ attribute: String, _ text: String, _ why: String) -> SiftError {
    SiftError.model(
      CoreDataModelError(
        file: "derived attribute \(attribute)", message: "derivation expression '\(text)' is not supported: \(why)"))
  }
}

extension CoreDataAttribute {
  /// The parsed derivation of a derived attribute; nil for any other attribute.
  ///
  /// ```swift
  /// try model.entity("Tag")?.attribute("itemCount")?.derivation()?.text   // "items.@count"
  /// ```
  /// - Throws: `SiftError` (`invalid-model`) for a derivation Sift cannot compute.
  public func derivation() throws(SiftError) -> CoreDataDerivation? {
    guard isDerived else { return nil }
    guard let text = derivationExpression, !text.isEmpty else {
      throw CoreDataDerivation.refused(name, "", "a derived attribute needs a derivationExpression")
    }
    return try CoreDataDerivation(text, attribute: name)
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var s = Substring(self)
    while let c = s.first, c == " " || c == "\t" || c == "\n" { s.removeFirst() }
    while let c = s.last, c == " " || c == "\t" || c == "\n" { s.removeLast() }
    return String(s)
  }
}
