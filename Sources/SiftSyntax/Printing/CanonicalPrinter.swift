import Foundation

/// Prints a predicate tree back as a format string in Apple's `predicateFormat` style:
/// upper-case keywords, `==`/`!=`/`<=`/`>=` spellings, options glued on (`BEGINSWITH[cd]`),
/// double-quoted escaped strings, dates as `CAST(<seconds since 2001>, "NSDate")`, arrays as
/// `{a, b}`, reserved words used as keys escaped with `#`, parentheses only where precedence
/// needs them and around any compound inside a compound (so AND/OR mixes are explicit).
///
/// `SiftPredicate.parse(print(p)) == p` holds for every tree the parser produces; see
/// Grammar/README.md for the few values (NaN, data, dictionaries) that have no literal form.
///
/// ```swift
/// CanonicalPrinter().print(try SiftPredicate(format: "a = 1 and b like[c] 'x*'").root)
/// // a == 1 AND b LIKE[c] "x*"
/// ```
package struct CanonicalPrinter: Sendable {
  /// Creates a printer.
  package init() {}

  /// The canonical text of a predicate.
  package func print(_ p: PredicateNode) -> String {
    var out = ""
    write(p, into: &out)
    return out
  }

  /// The canonical text of an expression.
  package func print(_ e: ExpressionNode) -> String {
    var out = ""
    write(e, into: &out, context: .assignment)
    return out
  }

  // MARK: - Predicates

  func write(_ p: PredicateNode, into out: inout String) {
    switch p.kind {
    case .constant(let b): out += b ? "TRUEPREDICATE" : "FALSEPREDICATE"
    case .and(let terms): writeCompound(terms, joiner: " AND ", empty: "TRUEPREDICATE", into: &out)
    case .or(let terms): writeCompound(terms, joiner: " OR ", empty: "FALSEPREDICATE", into: &out)
    case .not(let inner):
      out += "NOT "
      writeOperand(inner, into: &out)
    case .comparison(let c): write(c, into: &out)
    }
  }

  func writeCompound(_ terms: [PredicateNode], joiner: String, empty: String, into out: inout String) {
    if terms.isEmpty {
      out += empty
      return
    }
    if terms.count == 1 {
      write(terms[0], into: &out)
      return
    }
    for (i, t) in terms.enumerated() {
      if i > 0 { out += joiner }
      writeOperand(t, into: &out)
    }
  }

  /// An operand of AND/OR/NOT: compounds are parenthesised. A one-term AND/OR (which only
  /// code builds) prints as its term, so it is looked through first: `NOT` of a one-term AND of
  /// `a OR b` is `NOT (a OR b)`, not `NOT a OR b`.
  func writeOperand(_ p: PredicateNode, into out: inout String) {
    let p = CanonicalPrinter.lookThroughSingleTerms(p)
    switch p.kind {
    case .and(let t) where t.count > 1, .or(let t) where t.count > 1:
      out += "("
      write(p, into: &out)
      out += ")"
    default:
      write(p, into: &out)
    }
  }

  /// `p` without the one-term AND/OR wrappers around it.
  static func lookThroughSingleTerms(_ p: PredicateNode) -> PredicateNode {
    var p = p
    while true {
      switch p.kind {
      case .and(let t) where t.count == 1, .or(let t) where t.count == 1: p = t[0]
      default: return p
      }
    }
  }

  func write(_ c: SiftComparison, into out: inout String) {
    if let q = c.quantifier { out += q.keyword + " " }
    write(c.lhs, into: &out, context: .assignment)
    out += " " + c.op.keyword + c.options.description + " "
    write(c.rhs, into: &out, context: .assignment)
  }

  // MARK: - Expressions

  /// Writes `e`, parenthesising it when its own precedence is below `context`.
  func write(_ e: ExpressionNode, into out: inout String, context: ExpressionPrecedence) {
    let own = precedence(of: e)
    if own < context {
      out += "("
      writeBare(e, into: &out)
      out += ")"
    } else {
      writeBare(e, into: &out)
    }
  }

  func precedence(of e: ExpressionNode) -> ExpressionPrecedence {
    switch e.kind {
    case .assignment: return .assignment
    case .binary(let op, _, _): return op.precedence
    case .unary: return .unary
    case .constant(let v):
      if case .int(let i) = v, i < 0 { return .unary }
      if case .double(let d) = v, d < 0 || (d == 0 && d.sign == .minus) { return .unary }
      return .postfix
    default: return .postfix
    }
  }

  func writeBare(_ e: ExpressionNode, into out: inout String) {
    switch e.kind {
    case .constant(let v): writeValue(v, into: &out)
    case .evaluatedObject: out += "SELF"
    case .variable(let name): out += "$" + name
    case .keyPath(let base, let kp): writeKeyPath(base: base, kp, into: &out)
    case .index(let base, let index):
      write(base, into: &out, context: .postfix)
      out += "["
      switch index {
      case .first: out += "FIRST"
      case .last: out += "LAST"
      case .size: out += "SIZE"
      case .expression(let x): write(x, into: &out, context: .assignment)
      }
      out += "]"
    case .aggregate(let items):
      out += "{"
      writeList(items, into: &out)
      out += "}"
    case .unary(let op, let x):
      out += op.symbol
      // Keep "-(5)" apart from the literal -5, and "- -x" from "--x".
      if op == .negate, CanonicalPrinter.startsWithNumberLiteral(x) {
        out += "("
        writeBare(x, into: &out)
        out += ")"
      } else {
        write(x, into: &out, context: .unary)
      }
    case .binary(let op, let a, let b):
      let p = op.precedence
      // Left-associative: a right operand of equal precedence needs parentheses; for the
      // right-associative `**` it is the left operand.
      let leftContext = op.isRightAssociative ? ExpressionPrecedence(rawValue: p.rawValue + 1) ?? p : p
      let rightContext = op.isRightAssociative ? p : ExpressionPrecedence(rawValue: p.rawValue + 1) ?? p
      write(a, into: &out, context: leftContext)
      out += " " + op.symbol + " "
      write(b, into: &out, context: rightContext)
    case .function(let f, let args):
      out += f.printedName + "("
      writeList(args, into: &out)
      out += ")"
    case .customFunction(let receiver, let selector, let args):
      out += "FUNCTION("
      write(receiver, into: &out, context: .assignment)
      out += ", "
      writeString(selector, into: &out)
      for a in args {
        out += ", "
        write(a, into: &out, context: .assignment)
      }
      out += ")"
    case .subquery(let collection, let variable, let predicate):
      out += "SUBQUERY("
      write(collection, into: &out, context: .assignment)
      out += ", $" + variable + ", "
      write(predicate, into: &out)
      out += ")"
    case .cast(let x, let type):
      out += "CAST("
      write(x, into: &out, context: .assignment)
      out += ", "
      writeString(type.className, into: &out)
      out += ")"
    case .ternary(let p, let a, let b):
      out += "TERNARY("
      write(p, into: &out)
      out += ", "
      write(a, into: &out, context: .assignment)
      out += ", "
      write(b, into: &out, context: .assignment)
      out += ")"
    case .assignment(let variable, let x):
      out += "$" + variable + " := "
      write(x, into: &out, context: .assignment)
    case .anyKey: out += "ANYKEY"
    case .argument(let spec, _): out += spec.text
    }
  }

  func writeList(_ items: [ExpressionNode], into out: inout String) {
    for (i, x) in items.enumerated() {
      if i > 0 { out += ", " }
      write(x, into: &out, context: .assignment)
    }
  }

  func writeKeyPath(base: ExpressionNode?, _ kp: SiftKeyPath, into out: inout String) {
    var first = true
    if let base {
      write(base, into: &out, context: .postfix)
      first = false
    }
    for component in kp.components {
      switch component {
      case .operator(let op):
        out += first ? "SELF." : "."
        out += op.spelling
      case .key(let key):
        if CanonicalPrinter.isPlainIdentifier(key) {
          if !first { out += "." }
          if Keyword.lookup(key) != nil && !(key == "self" && !first) { out += "#" }
          out += key
        } else {
          if first { out += "SELF" }
          out += "["
          writeString(key, into: &out)
          out += "]"
        }
      }
      first = false
    }
    if first { out += "SELF" }
  }

  /// True when `e` prints starting with a number literal, which a preceding `-` would fold
  /// into (`-(5)[0]` must not print as `-5[0]`).
  static func startsWithNumberLiteral(_ e: ExpressionNode) -> Bool {
    switch e.kind {
    case .constant(let v): return v.isNumber
    case .index(let base, _): return startsWithNumberLiteral(base)
    case .keyPath(let base?, _): return startsWithNumberLiteral(base)
    default: return false
    }
  }

  /// True when `key` lexes as one identifier token.
  static func isPlainIdentifier(_ key: String) -> Bool {
    guard let firstScalar = key.unicodeScalars.first else { return false }
    let startOK =
      firstScalar.isASCII
      ? (firstScalar.properties.isAlphabetic || firstScalar == "_")
      : Lexer.isUnicodeIdentifierStart(firstScalar)
    guard startOK else { return false }
    return key.unicodeScalars.allSatisfy { s in
      s.isASCII
        ? (s.properties.isAlphabetic || s == "_" || ("0"..."9").contains(s))
        : Lexer.isUnicodeIdentifierContinue(s)
    }
  }
}
