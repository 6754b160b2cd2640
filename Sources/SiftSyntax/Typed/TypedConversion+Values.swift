import Foundation

// Values, variables, key paths and optionals of a `#Predicate`.

extension PredicateExpressions.Value: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    guard let v = SiftValue(converting: value) else {
      throw TypedConverter.refusal(
        .unconvertibleValue,
        "cannot convert a captured value of type \(SiftValue.typeName(of: value)) of a #Predicate: "
          + "it has no SiftValue (conform the type to SiftValueConvertible)")
    }
    return .expression(.constant(v))
  }
}

extension PredicateExpressions.NilLiteral: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    .expression(.constant(.null))
  }
}

extension PredicateExpressions.Variable: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    .expression(converter.bindings[key] ?? ExpressionNode(.evaluatedObject))
  }
}

extension PredicateExpressions.KeyPath: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let base = try converter.expression(root)
    switch kind {
    case .collectionCount:
      if Root.Output.self is any StringProtocol.Type {
        throw TypedConverter.refusal(
          .unconvertibleKeyPath, "cannot convert String.count of a #Predicate: stores count bytes, not Characters")
      }
      return .expression(TypedValues.append(.operator(.count), to: base))
    case .collectionIsEmpty:
      if Root.Output.self is any StringProtocol.Type {
        return .predicate(TypedTerm.compare(base, .equal, .constant(.string(""))))
      }
      let count = TypedValues.append(.operator(.count), to: base)
      return .predicate(TypedTerm.compare(count, .equal, .constant(.int(0))))
    case .collectionFirst: return .expression(ExpressionNode(.index(base, .first)))
    case .bidirectionalCollectionLast: return .expression(ExpressionNode(.index(base, .last)))
    case nil: break
    }
    var node = base
    for name in try TypedValues.names(of: keyPath) {
      node = TypedValues.append(.key(converter.keys.storedName(name)), to: node)
    }
    if case .keyPath(nil, let kp) = node.kind, let first = kp.components.first {
      // A key path of the root: read it from the value itself in memory (one property only).
      if case .evaluatedObject = base.kind, kp.components.count == 1, case .key(let name) = first {
        converter.keyPaths.add(name, keyPath)
      } else {
        converter.keyPaths.markIncomplete()
      }
    }
    return .expression(node)
  }
}

extension PredicateExpressions.OptionalFlatMap: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let w = try converter.expression(wrapped)
    converter.bindings[variable.key] = w
    defer { converter.bindings[variable.key] = nil }
    let t = try converter.convert(transform)
    // `a?.b`: a key path on `a` is nil when `a` is, as Swift's chain.
    if case .expression(let e) = t, TypedValues.isKeyPath(e, on: w) { return t }
    let notNil = TypedTerm.compare(w, .notEqual, .constant(.null))
    return .expression(ExpressionNode(.ternary(notNil, t.expression(), .constant(.null))))
  }
}

extension PredicateExpressions.NilCoalesce: SiftConvertibleExpression {
  func siftTerm(_ converter: inout TypedConverter) throws(SiftError) -> TypedTerm {
    let a = try converter.expression(lhs), b = try converter.convert(rhs)
    let notNil = TypedTerm.compare(a, .notEqual, .constant(.null))
    if case .predicate(let q) = b {
      // A Bool with a test as default: (a != nil AND a == YES) OR (a == nil AND q).
      let yes = TypedLogic.flat(notNil, TypedTerm.expression(a).predicate(), and: true)
      let no = TypedLogic.flat(TypedTerm.compare(a, .equal, .constant(.null)), q, and: true)
      return .predicate(TypedLogic.flat(yes, no, and: false))
    }
    return .expression(ExpressionNode(.ternary(notNil, a, b.expression())))
  }
}

/// Key-path names and constants as the parser writes them.
enum TypedValues {
  /// `base.component`, as the parser's `appendKey` builds it.
  static func append(_ component: SiftKeyPath.Component, to base: ExpressionNode) -> ExpressionNode {
    switch base.kind {
    case .keyPath(let b, var kp):
      kp.components.append(component)
      return ExpressionNode(.keyPath(base: b, kp))
    case .evaluatedObject:
      return ExpressionNode(.keyPath(base: nil, SiftKeyPath([component])))
    default:
      return ExpressionNode(.keyPath(base: base, SiftKeyPath([component])))
    }
  }

  /// True when `e` is `w` itself or a key path continuing `w`.
  static func isKeyPath(_ e: ExpressionNode, on w: ExpressionNode) -> Bool {
    if e == w { return true }
    guard case .keyPath(let b, let kp) = e.kind else { return false }
    switch w.kind {
    case .keyPath(let wb, let wkp):
      return b == wb && kp.components.count >= wkp.components.count
        && Array(kp.components.prefix(wkp.components.count)) == wkp.components
    case .evaluatedObject: return b == nil
    default: return b == w
    }
  }

  /// The property names of a key path from its printed form (`\Note.location?.city?` gives
  /// `location`, `city`); a computed property, subscript or force unwrap is refused.
  static func names(of keyPath: AnyKeyPath) throws(SiftError) -> [String] {
    let printed = String(describing: keyPath), root = type(of: keyPath).rootType
    let prefix = "\\" + String(describing: root) + "."
    guard printed.hasPrefix(prefix) else { throw unnamed(printed, root: root) }
    var names: [String] = []
    for part in printed.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false) {
      var name = Substring(part)
      while name.hasSuffix("?") { name = name.dropLast() }
      guard let first = name.first, first.isLetter || first == "_",
        name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
      else { throw unnamed(printed, root: root) }
      names.append(String(name))
    }
    return names
  }

  static func unnamed(_ printed: String, root: Any.Type) -> SiftError {
    // An enum's `rawValue` is computed: the enum itself compares as its raw value.
    let hint = root is any RawRepresentable.Type ? "; compare the enum itself with a captured case" : ""
    return TypedConverter.refusal(
      .unconvertibleKeyPath,
      "cannot convert the key path \(printed) of a #Predicate: only stored properties name stored attributes "
        + "(no computed properties, subscripts or force unwraps)\(hint)")
  }
}
