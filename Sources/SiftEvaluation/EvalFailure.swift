import SiftSyntax

/// An evaluation problem inside the evaluator, pointing at the offending node. Turned into a
/// `SiftError` (stage `.evaluate`) at the public boundary.
@usableFromInline
struct EvalFailure: Error, Sendable {
  var diagnostic: SiftDiagnostic

  init(_ id: DiagnosticID, _ message: String, at range: SiftSourceRange, notes: [SiftDiagnostic.Note] = []) {
    diagnostic = SiftDiagnostic(id: id, message: message, range: range, notes: notes)
  }

  func error(source: String) -> SiftError {
    SiftError(stage: .evaluate, diagnostic: diagnostic, source: source)
  }
}

/// Every evaluation diagnostic, alphabetical; ids from the one list (`DiagnosticID`), the same
/// id SQL reports for the same condition (Grammar/notes/errors.md).
enum EvalDiagnostics {
  static func betweenNeedsTwoBounds(_ found: EvalValue, at r: SiftSourceRange) -> EvalFailure {
    let what: String
    if let l = found.list {
      what = "\(l.count) element\(l.count == 1 ? "" : "s")"
    } else {
      what = article(found.kindName)
    }
    return EvalFailure(
      .betweenNeedsTwoBounds, "BETWEEN needs a two-element bound such as {1, 10}, but this has \(what)", at: r)
  }

  static func bitwiseNeedsIntegers(_ v: EvalValue, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.bitwiseNeedsIntegers, "bitwise operators need integers, but this is \(article(v.kindName))", at: r)
  }

  static func castFailed(_ v: EvalValue, to type: CastType, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.invalidCast, "cannot cast \(article(v.kindName)) to \(type.className)", at: r)
  }

  static func customFunctionFailed(_ name: String, _ error: any Error, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.functionFailed, "function '\(name)' failed: \(error)", at: r)
  }

  static func dataTooDeep(at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.dataTooDeep, "data nests deeper than \(EvalLimits.maxDataDepth) levels", at: r)
  }

  static func divisionByZero(at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.divisionByZero, "integer division by zero", at: r)
  }

  static func incomparable(_ a: EvalValue, _ b: EvalValue, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(
      .incomparableValues, "cannot order \(article(a.kindName)) against \(article(b.kindName))", at: r,
      notes: [.init("ordering compares numbers with numbers, strings with strings and dates with dates")])
  }

  static func invalidIndex(_ base: EvalValue, _ index: EvalValue, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.invalidIndex, "cannot index \(article(base.kindName)) with \(article(index.kindName))", at: r)
  }

  static func invalidRegex(_ reason: String, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.invalidRegex, reason, at: r)
  }

  static func needsCollection(_ what: String, _ v: EvalValue, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.notACollection, "\(what) needs an array, but this is \(article(v.kindName))", at: r)
  }

  static func needsNumber(_ what: String, _ v: EvalValue, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.notANumber, "\(what) needs a number, but this is \(article(v.kindName))", at: r)
  }

  static func needsString(_ what: String, _ v: EvalValue, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.notAString, "\(what) needs a string, but this is \(article(v.kindName))", at: r)
  }

  static func needsPositiveBound(_ selector: String, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.invalidArgument, "\(selector) needs a positive upper bound", at: r)
  }

  static func notADate(_ text: String, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.invalidCast, SiftDateText.notADate(text), at: r)
  }

  static func quantifierNeedsCollection(_ q: SiftQuantifier, _ v: EvalValue, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(
      .quantifierNeedsCollection,
      "the left side of \(q.keyword) must be an array, but this is \(article(v.kindName))", at: r,
      notes: [.init("drop \(q.keyword) to compare the value itself")])
  }

  static func unboundArgument(at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.unboundArgument, "format argument was never bound; pass arguments to SiftPredicate(format:)", at: r)
  }

  static func selectorArguments(_ name: String, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.wrongArgumentCount, "FUNCTION(…, '\(name)') takes no arguments after the selector", at: r)
  }

  static func unboundVariable(_ name: String, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.unboundVariable, "variable '$\(name)' has no value; pass it in 'variables:'", at: r)
  }

  static func unknownFunction(_ name: String, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(
      .unknownFunction, "no function named '\(name)': it is not one of Sift's selectors nor registered", at: r,
      notes: [.init("the selectors: \(SiftSelector.names); register others in EvaluationOptions.functions")])
  }

  static func unsupported(_ what: String, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.unsupported, "\(what) is not supported in memory", at: r)
  }

  static func wrongOperands(_ op: String, _ a: EvalValue, _ b: EvalValue, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(.notANumber, "\(op) cannot combine \(article(a.kindName)) and \(article(b.kindName))", at: r)
  }

  static func article(_ kind: String) -> String {
    if kind == "nil" { return "nil" }
    return ["a", "e", "i", "o", "u"].contains(kind.first.map(String.init) ?? "") ? "an \(kind)" : "a \(kind)"
  }
}
