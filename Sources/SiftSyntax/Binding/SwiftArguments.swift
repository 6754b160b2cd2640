import Foundation

// Plain Swift values at every front door that takes a value: format arguments, binding,
// substitution variables and the comparison builder. Each overload converts with
// `SiftValue(converting:)` and then does what its `SiftValue` twin does; the `SiftValue`
// overloads stay preferred so that `.string("x")`, `nil` and mixed literals keep their
// meaning. A value with no `SiftValue` is an `.arguments` error pointing at its specifier.

extension SiftPredicate {
  /// Parses `format` and binds plain Swift values to its specifiers, in order: strings,
  /// numbers of every width, `Bool`, `Date`, `Data`, `UUID`, `URL`, `Decimal`, optionals,
  /// arrays, sets, dictionaries, `RawRepresentable` enums and `SiftValueConvertible` types.
  ///
  /// ```swift
  /// let title = "Buy milk"
  /// let due: Date? = nil
  /// let p = try SiftPredicate(format: "title == %@ AND due == %@ AND tags IN %@", title, due, ["home"])
  /// ```
  /// - Throws: `SiftError` at stage `.parse`, or `.arguments` (also for a value Sift cannot
  ///   convert, naming its type).
  @_disfavoredOverload
  public init(format: String, _ arguments: Any?...) throws(SiftError) {
    try self.init(format: format, arguments: arguments)
  }

  /// `init(format:_:)` with the arguments in an array (`predicateWithFormat:argumentArray:`).
  ///
  /// ```swift
  /// let p = try SiftPredicate(format: "%K BETWEEN %@", arguments: ["price", [5, 10]])
  /// ```
  @_disfavoredOverload
  public init(format: String, arguments: [Any?], limits: ParserLimits = ParserLimits()) throws(SiftError) {
    let values = try ArgumentBinder.convert(arguments, source: format) { (i: Int) throws(SiftError) in
      ArgumentBinder.range(ofArgument: i, in: try SiftPredicate.parse(format, limits: limits).root)
    }
    try self.init(format: format, arguments: values, limits: limits)
  }

  /// `binding(_:)` with plain Swift values.
  ///
  /// ```swift
  /// let template = try SiftPredicate.parse("createdAt >= %@")
  /// let recent = try template.binding([Date(timeIntervalSinceNow: -86_400)])
  /// ```
  @_disfavoredOverload
  public func binding(_ arguments: [Any?]) throws(SiftError) -> SiftPredicate {
    let root = self.root
    return try binding(
      ArgumentBinder.convert(arguments, source: source) { i in ArgumentBinder.range(ofArgument: i, in: root) })
  }

  /// `substituting(_:)` with plain Swift values.
  ///
  /// ```swift
  /// let name: String? = "Red bar"
  /// let p = try SiftPredicate(format: "name == $NAME").substituting(["NAME": name])
  /// ```
  /// - Throws: `SiftError` at stage `.arguments` for a value Sift cannot convert.
  @_disfavoredOverload
  public func substituting(_ variables: [String: Any?]) throws(SiftError) -> SiftPredicate {
    substituting(try ArgumentBinder.convert(variables, source: source))
  }

  /// The comparison builder with a plain Swift value.
  ///
  /// ```swift
  /// let since = Date(timeIntervalSince1970: 0)
  /// let p = try SiftPredicate.comparison("createdAt", .greaterThanOrEqual, since)
  /// ```
  @_disfavoredOverload
  public static func comparison(
    _ keyPath: String, _ op: ComparisonOperator, _ value: Any?,
    options: ComparisonOptions = [], modifier: SiftQuantifier? = nil
  ) throws(SiftError) -> SiftPredicate {
    guard let converted = SiftValue(converting: value) else {
      throw ArgumentBinder.unconvertible(
        value, argument: nil, range: SiftSourceRange(start: 0, end: keyPath.utf8.count), source: keyPath)
    }
    return try comparison(keyPath, op, converted, options: options, modifier: modifier)
  }
}

extension SiftExpression {
  /// Parses an expression and binds plain Swift values to its specifiers.
  ///
  /// ```swift
  /// let e = try SiftExpression(format: "price * %@", 1.2)
  /// ```
  @_disfavoredOverload
  public init(format: String, _ arguments: Any?...) throws(SiftError) {
    let values = try ArgumentBinder.convert(arguments, source: format) { (i: Int) throws(SiftError) in
      ArgumentBinder.range(ofArgument: i, in: try SiftExpression.parse(format).root)
    }
    try self.init(format: format, arguments: values)
  }

  /// `substituting(_:)` with plain Swift values.
  ///
  /// ```swift
  /// let e = try SiftExpression(format: "$RATE * price").substituting(["RATE": 1.2])
  /// ```
  @_disfavoredOverload
  public func substituting(_ variables: [String: Any?]) throws(SiftError) -> SiftExpression {
    substituting(try ArgumentBinder.convert(variables, source: source))
  }
}

extension ArgumentBinder {
  /// `arguments` as `SiftValue`s; the first one with no value is an error at the range
  /// `locate` gives for its position (nil: the whole source). `locate` parses the template, so
  /// a syntax error in it comes first.
  static func convert(
    _ arguments: [Any?], source: String, locate: (Int) throws(SiftError) -> SiftSourceRange?
  ) throws(SiftError) -> [SiftValue] {
    var values: [SiftValue] = []
    values.reserveCapacity(arguments.count)
    for (i, argument) in arguments.enumerated() {
      guard let value = SiftValue(converting: argument) else {
        let range = try locate(i) ?? SiftSourceRange(start: 0, end: source.utf8.count)
        throw unconvertible(argument, argument: i, range: range, source: source)
      }
      values.append(value)
    }
    return values
  }

  /// Where specifier number `position` stands in a tree, if it is there.
  static func range(ofArgument position: Int, in root: PredicateNode) -> SiftSourceRange? {
    var range: SiftSourceRange?
    ASTWalker.forEachExpression(in: root) { e in
      if case .argument(_, let p) = e.kind, p == position { range = e.range }
    }
    return range
  }

  /// Where specifier number `position` stands in an expression tree, if it is there.
  static func range(ofArgument position: Int, in root: ExpressionNode) -> SiftSourceRange? {
    var range: SiftSourceRange?
    ASTWalker.forEachExpression(in: root) { e in
      if case .argument(_, let p) = e.kind, p == position { range = e.range }
    }
    return range
  }

  /// Substitution variables as `SiftValue`s; a value with no `SiftValue` is an error naming
  /// its variable.
  static func convert(_ variables: [String: Any?], source: String) throws(SiftError) -> [String: SiftValue] {
    var out: [String: SiftValue] = [:]
    for name in variables.keys.sorted() {
      let value = variables[name] ?? nil
      guard let converted = SiftValue(converting: value) else {
        throw SiftError(
          stage: .arguments,
          diagnostic: SiftDiagnostic(
            id: .unsupportedArgumentType,
            message:
              "$\(name) is \(SiftValue.typeName(of: value)), which Sift cannot use as a value; conform it to SiftValueConvertible",
            range: SiftSourceRange(start: 0, end: source.utf8.count)),
          source: source)
      }
      out[name] = converted
    }
    return out
  }

  /// "argument 2 is Foo, which Sift cannot use as a value; conform it to SiftValueConvertible".
  static func unconvertible(_ value: Any?, argument: Int?, range: SiftSourceRange, source: String) -> SiftError {
    let which = argument.map { "argument \($0 + 1)" } ?? "the value"
    return SiftError(
      stage: .arguments,
      diagnostic: SiftDiagnostic(
        id: .unsupportedArgumentType,
        message:
          "\(which) is \(SiftValue.typeName(of: value)), which Sift cannot use as a value; conform it to SiftValueConvertible",
        range: range),
      source: source)
  }
}
