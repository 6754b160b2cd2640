import SiftSyntax

extension REPLSession {
  /// `.tokens PREDICATE`: the lexer's tokens with their byte ranges.
  func tokens(_ arg: String) -> REPLResponse {
    guard let text = predicateText(arg) else { return .failure(errorLine("usage: .tokens PREDICATE")) }
    var rows: [[SiftValue]] = []
    var failed: SiftDiagnostic?
    for token in Lexer.tokenize(text) {
      let (kind, value) = REPLSession.describe(token.kind)
      rows.append([.string("\(token.range.start)..<\(token.range.end)"), .string(kind), .string(value)])
      if case .invalid(let d) = token.kind, failed == nil { failed = d }
    }
    var out = TableRenderer(style: style, maxCellWidth: 48).render(columns: ["range", "kind", "value"], rows: rows)
    if let failed {
      out += SiftDiagnosticRenderer(colors: style.colors).render(failed, in: text) + "\n"
      return .failure(out)
    }
    return .ok(out)
  }

  /// A token kind's name and payload for the `.tokens` table.
  static func describe(_ kind: TokenKind) -> (String, String) {
    switch kind {
    case .identifier(let s): return ("identifier", s)
    case .keyword(let k): return ("keyword", k.spelling)
    case .string(let s): return ("string", CanonicalPrinter().print(ExpressionNode(.constant(.string(s)))))
    case .integer(let n): return ("integer", String(n))
    case .double(let d): return ("double", d.description)
    case .variable(let v): return ("variable", "$" + v)
    case .atKey(let k): return ("at-key", "@" + k)
    case .formatSpecifier(let s): return ("format", s)
    case .punct(let p): return ("punct", p.rawValue)
    case .invalid(let d): return ("invalid", d.id)
    case .end: return ("end", "")
    }
  }

  /// `.ast [--json] PREDICATE`: the tree as an S-expression, or as JSON.
  func ast(_ arg: String) -> REPLResponse {
    var text = arg
    var json = false
    if text.hasPrefix("--json") {
      json = true
      text = String(text.dropFirst(6)).trimmingCharacters(in: .whitespaces)
    }
    guard let source = predicateText(text) else { return .failure(errorLine("usage: .ast [--json] PREDICATE")) }
    do {
      let p = try SiftPredicate.parse(source)
      let body = json ? SiftJSON.serialize(ASTJSON.encode(p.root)) : SExpressionPrinter().print(p.root)
      return .ok(warnings(p) + body + "\n")
    } catch {
      return .failure(render(error))
    }
  }

  /// `.canon PREDICATE`: the canonical format after binding arguments and variables.
  func canonical(_ arg: String) -> REPLResponse {
    guard let source = predicateText(arg) else { return .failure(errorLine("usage: .canon PREDICATE")) }
    switch prepare(source) {
    case .success(let p): return .ok(warnings(p) + p.predicateFormat + "\n")
    case .failure(let e): return .failure(render(e))
    }
  }
}
