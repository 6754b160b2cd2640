extension SiftPredicate {
  /// Replaces the format specifiers with `arguments`, in source order, checking count and
  /// kind: `%K` needs a key-path string, `%d`-style specifiers an integer, `%f` a number,
  /// `%s` a string, `%c` one character; `%@` takes any value.
  ///
  /// ```swift
  /// let template = try SiftPredicate.parse("%K > %d")
  /// let p = try template.binding(["tipCount", 100])   // tipCount > 100
  /// ```
  /// - Throws: `SiftError` at stage `.arguments`, pointing at the specifier.
  public func binding(_ arguments: [SiftValue]) throws(SiftError) -> SiftPredicate {
    let source = self.source
    if arguments.count > unboundArgumentCount {
      throw ArgumentBinder.tooManyArguments(arguments.count, uses: unboundArgumentCount, source: source)
    }
    if unboundArgumentCount == 0 { return self }
    do {
      let root = try ArgumentBinder.bindTree(root, arguments) ?? root
      return SiftPredicate(root: root, source: source, warnings: warnings, unboundArgumentCount: 0)
    } catch {
      throw SiftError(stage: .arguments, diagnostic: error.diagnostic, source: source)
    }
  }

  /// Replaces free `$VARIABLES` with values (`predicateWithSubstitutionVariables:`). Variables
  /// missing from the dictionary stay in place; SUBQUERY iterator variables are never replaced.
  ///
  /// ```swift
  /// let p = try SiftPredicate(format: "name == $NAME").substituting(["NAME": "Red bar"])
  /// ```
  public func substituting(_ variables: [String: SiftValue]) -> SiftPredicate {
    let root = ASTWalker.rewrite(root) { (e: ExpressionNode, scope: Set<String>) -> ExpressionNode in
      if case .variable(let name) = e.kind, !scope.contains(name), let value = variables[name] {
        return ExpressionNode(.constant(value), range: e.range)
      }
      return ArgumentBinder.normalize(e)
    }
    return SiftPredicate(root: root, source: source, warnings: warnings, unboundArgumentCount: unboundArgumentCount)
  }
}

struct ArgumentFailure: Error {
  var diagnostic: SiftDiagnostic
}

enum ArgumentBinder {
  /// "the format uses 1 argument, but 2 were given", over the whole source.
  static func tooManyArguments(_ given: Int, uses: Int, source: String) -> SiftError {
    SiftError(
      stage: .arguments,
      diagnostic: SiftDiagnostic(
        id: .tooManyArguments,
        message: "the format uses \(uses) argument\(uses == 1 ? "" : "s"), but \(given) were given",
        range: SiftSourceRange(start: 0, end: source.utf8.count)),
      source: source)
  }

  /// Binds one node (children are already bound); also merges a key path applied to a key path.
  static func bind(_ e: ExpressionNode, _ arguments: [SiftValue]) throws(ArgumentFailure) -> ExpressionNode {
    switch e.kind {
    case .argument(let spec, let position):
      return try bind(spec, position: position, range: e.range, arguments)
    default:
      return normalize(e)
    }
  }

  /// The node for specifier number `position` (from 0), standing at `range`.
  static func bind(_ spec: FormatSpecifier, position: Int, range: SiftSourceRange, _ arguments: [SiftValue])
    throws(ArgumentFailure) -> ExpressionNode
  {
    guard position < arguments.count else {
      throw ArgumentFailure(
        diagnostic: SiftDiagnostic(
          id: .missingArgument,
          message:
            "no argument for '\(spec.text)' (argument \(position + 1)); \(arguments.count) \(arguments.count == 1 ? "was" : "were") given",
          range: range))
    }
    return try value(for: spec, arguments[position], position: position, range: range)
  }

  /// Rewrites what binding or substituting produced into the tree the parser builds for the
  /// printed form, so `parse(p.predicateFormat) == p` keeps holding:
  /// - a subscript whose index became a string constant (`a[%@]` bound to "b c", `a[$K]`)
  ///   is a key, as the parser reads the literal `a["b c"]`;
  /// - a key path applied to a key path (`%K.name`, `$D[$K].x`) is one key path;
  /// - a key path applied to `SELF` (`%K.name` with `%K` = "SELF") starts at the record;
  /// - an aggregate whose elements all became constants (`{$a, 1}`) is one array constant;
  /// - `CAST(<number>, "NSDate")` (`CAST($t, "NSDate")`) is a date constant, and so is
  ///   `CAST(<ISO-8601 text>, "NSDate")` (`CAST($day, "NSDate")` with `$day` = "2024-03-01"); other
  ///   text stays a CAST, which evaluation and SQL refuse with `invalid-cast`.
  /// Children are normalized first (the rewrite is bottom-up).
  static func normalize(_ e: ExpressionNode) -> ExpressionNode { normalized(e) ?? e }

  /// `normalize(e)` when it differs from `e`; nil when `e` is already in normal form.
  static func normalized(_ e: ExpressionNode) -> ExpressionNode? {
    switch e.kind {
    case .index(let base, .expression(let index)):
      guard case .constant(.string(let key)) = index.kind else { return nil }
      return normalize(ExpressionNode(.keyPath(base: base, SiftKeyPath([.key(key)])), range: e.range))
    case .keyPath(let base?, let kp):
      switch base.kind {
      case .keyPath(let b, let inner):
        return ExpressionNode(.keyPath(base: b, SiftKeyPath(inner.components + kp.components)), range: e.range)
      case .evaluatedObject:
        return ExpressionNode(.keyPath(base: nil, kp), range: e.range)
      default:
        return nil
      }
    case .aggregate(let items):
      var constants: [SiftValue] = []
      constants.reserveCapacity(items.count)
      for item in items {
        guard case .constant(let v) = item.kind else { return nil }
        constants.append(v)
      }
      return ExpressionNode(.constant(.array(constants)), range: e.range)
    case .cast(let x, .date):
      guard case .constant(let v) = x.kind else { return nil }
      if let seconds = v.numericSeconds {
        return ExpressionNode(.constant(.date(referenceDate(seconds))), range: e.range)
      }
      guard case .string(let text) = v, let date = SiftDateText.parse(text) else { return nil }
      return ExpressionNode(.constant(.date(date)), range: e.range)
    default:
      return nil
    }
  }

  static func value(for spec: FormatSpecifier, _ arg: SiftValue, position: Int, range: SiftSourceRange)
    throws(ArgumentFailure) -> ExpressionNode
  {
    func wrong(_ expected: String) -> ArgumentFailure {
      ArgumentFailure(
        diagnostic: SiftDiagnostic(
          id: .wrongArgumentKind,
          message: "'\(spec.text)' needs \(expected), but argument \(position + 1) is \(article(arg.kindName))",
          range: range))
    }
    switch spec.expects {
    case .object:
      return ExpressionNode(.constant(arg), range: range)
    case .keyPath:
      guard case .string(let path) = arg else { throw wrong("a key path string") }
      return try keyPathExpression(path, for: " for '%K'", range: range)
    case .integer, .unsignedInteger:
      let n: Int64
      switch arg {
      case .int(let i): n = i
      case .bool(let b): n = b ? 1 : 0
      default: throw wrong("an integer")
      }
      if spec.expects == .unsignedInteger && n < 0 { throw wrong("a non-negative integer") }
      return ExpressionNode(.constant(.int(n)), range: range)
    case .floatingPoint:
      switch arg {
      case .double: return ExpressionNode(.constant(arg), range: range)
      case .int(let i): return ExpressionNode(.constant(.double(Double(i))), range: range)
      default: throw wrong("a number")
      }
    case .string:
      guard case .string = arg else { throw wrong("a string") }
      return ExpressionNode(.constant(arg), range: range)
    case .character:
      switch arg {
      case .string(let s) where s.count == 1: return ExpressionNode(.constant(arg), range: range)
      case .int(let i):
        if let scalar = UInt32(exactly: i).flatMap(Unicode.Scalar.init) {
          return ExpressionNode(.constant(.string(String(Character(scalar)))), range: range)
        }
        throw wrong("a Unicode code point")
      default: throw wrong("a one-character string")
      }
    }
  }

  /// The expression a dotted key path string stands for, by `%K`'s rules: `SELF` is the record,
  /// `@name` components are collection operators; an empty component or an unknown `@name` is
  /// refused. `what` completes the message ("key path \"a..b\"<what> has an empty component").
  static func keyPathExpression(_ path: String, for what: String, range: SiftSourceRange)
    throws(ArgumentFailure) -> ExpressionNode
  {
    let kp = SiftKeyPath(dotted: path)
    for c in kp.components {
      if case .key(let k) = c, k.isEmpty {
        throw ArgumentFailure(
          diagnostic: SiftDiagnostic(
            id: .invalidKeyPath, message: "key path \"\(path)\"\(what) has an empty component", range: range))
      }
      if case .key(let k) = c, k.hasPrefix("@") {
        throw ArgumentFailure(
          diagnostic: SiftDiagnostic(
            id: .unknownCollectionOperator, message: "unknown collection operator '\(k)' in key path \"\(path)\"",
            range: range))
      }
    }
    if path == "SELF" || path == "self" { return ExpressionNode(.evaluatedObject, range: range) }
    return ExpressionNode(.keyPath(base: nil, kp), range: range)
  }

  static func article(_ kind: String) -> String {
    if kind == "nil" { return "nil" }
    return ["a", "e", "i", "o", "u"].contains(kind.first.map(String.init) ?? "") ? "an \(kind)" : "a \(kind)"
  }
}
