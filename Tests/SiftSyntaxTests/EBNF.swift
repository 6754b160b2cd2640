import SiftSyntax

/// A reader for the W3C EBNF subset used in Grammar/Predicate.ebnf, and a random sentence
/// generator over it. Lower-case rules are syntax (tokens joined by a space); capitalised rules
/// are tokens (characters joined with nothing).
indirect enum EBNFExpr {
  case literal(String)
  case charClass([ClosedRange<UnicodeScalar>], negated: Bool)
  case ref(String)
  case seq([EBNFExpr])
  case alt([EBNFExpr])
  case opt(EBNFExpr)
  case star(EBNFExpr)
  case plus(EBNFExpr)
}

struct EBNFGrammar {
  var rules: [String: EBNFExpr] = [:]

  struct ParseError: Error, CustomStringConvertible { var description: String }

  init(_ text: String) throws {
    // Strip /* … */ comments.
    var clean = ""
    var rest = Substring(text)
    while let open = rest.range(of: "/*") {
      clean += rest[..<open.lowerBound]
      guard let close = rest[open.upperBound...].range(of: "*/") else {
        throw ParseError(description: "unclosed comment")
      }
      rest = rest[close.upperBound...]
    }
    clean += rest
    // Split into rules at "name ::=".
    let chars = Array(clean.unicodeScalars)
    var defs: [(String, [UnicodeScalar])] = []
    var i = 0
    var current: (String, [UnicodeScalar])?
    func isName(_ c: UnicodeScalar) -> Bool { c.properties.isAlphabetic || c == "_" || ("0"..."9").contains(c) }
    while i < chars.count {
      // Detect `Name ::=` at a line start.
      if i == 0 || chars[i - 1] == "\n" {
        var j = i
        while j < chars.count, isName(chars[j]) { j += 1 }
        var k = j
        while k < chars.count, chars[k] == " " { k += 1 }
        if j > i, k + 2 < chars.count, chars[k] == ":", chars[k + 1] == ":", chars[k + 2] == "=" {
          if let c = current { defs.append(c) }
          current = (String(String.UnicodeScalarView(chars[i..<j])), [])
          i = k + 3
          continue
        }
      }
      current?.1.append(chars[i])
      i += 1
    }
    if let c = current { defs.append(c) }
    for (name, body) in defs {
      var p = ExprParser(chars: body)
      rules[name] = try p.parseAlt()
      p.skipSpace()
      if p.i < body.count { throw ParseError(description: "trailing text in rule \(name)") }
    }
  }

  struct ExprParser {
    var chars: [UnicodeScalar]
    var i = 0
    mutating func skipSpace() { while i < chars.count, chars[i].properties.isWhitespace { i += 1 } }
    mutating func parseAlt() throws -> EBNFExpr {
      var items = [try parseSeq()]
      skipSpace()
      while i < chars.count, chars[i] == "|" {
        i += 1
        items.append(try parseSeq())
        skipSpace()
      }
      return items.count == 1 ? items[0] : .alt(items)
    }
    mutating func parseSeq() throws -> EBNFExpr {
      var items: [EBNFExpr] = []
      while true {
        skipSpace()
        guard i < chars.count, chars[i] != "|", chars[i] != ")" else { break }
        var atom = try parseAtom()
        while i < chars.count, ["?", "*", "+"].contains(chars[i]) {
          switch chars[i] {
          case "?": atom = .opt(atom)
          case "*": atom = .star(atom)
          default: atom = .plus(atom)
          }
          i += 1
        }
        items.append(atom)
      }
      return items.count == 1 ? items[0] : .seq(items)
    }
    mutating func parseAtom() throws -> EBNFExpr {
      let c = chars[i]
      if c == "\"" || c == "'" {
        i += 1
        let start = i
        while i < chars.count, chars[i] != c { i += 1 }
        guard i < chars.count else { throw ParseError(description: "unterminated literal") }
        let text = String(String.UnicodeScalarView(chars[start..<i]))
        i += 1
        return .literal(text)
      }
      if c == "(" {
        i += 1
        let inner = try parseAlt()
        skipSpace()
        guard i < chars.count, chars[i] == ")" else { throw ParseError(description: "missing )") }
        i += 1
        return inner
      }
      if c == "[" {
        i += 1
        var negated = false
        if chars[i] == "^" {
          negated = true
          i += 1
        }
        var ranges: [ClosedRange<UnicodeScalar>] = []
        while i < chars.count, chars[i] != "]" {
          let lo = chars[i]
          if i + 2 < chars.count, chars[i + 1] == "-", chars[i + 2] != "]" {
            ranges.append(lo...chars[i + 2])
            i += 3
          } else {
            ranges.append(lo...lo)
            i += 1
          }
        }
        i += 1
        return .charClass(ranges, negated: negated)
      }
      let start = i
      while i < chars.count, chars[i].properties.isAlphabetic || chars[i] == "_" || ("0"..."9").contains(chars[i]) {
        i += 1
      }
      guard i > start else { throw ParseError(description: "unexpected \(c)") }
      return .ref(String(String.UnicodeScalarView(chars[start..<i])))
    }
  }
}

/// Generates random sentences from an `EBNFGrammar`.
struct SentenceGenerator {
  let grammar: EBNFGrammar
  var rng: SeededRandom
  var maxDepth = 24
  /// Called for token rules whose text has constraints the grammar states only in prose.
  var accept: (String, String) -> Bool = { _, _ in true }

  mutating func generate(_ rule: String) -> String {
    var tokens: [String] = []
    emit(.ref(rule), depth: 0, into: &tokens, lexical: false)
    return tokens.joined(separator: " ")
  }

  mutating func emit(_ e: EBNFExpr, depth: Int, into out: inout [String], lexical: Bool) {
    switch e {
    case .literal(let s):
      if lexical, !out.isEmpty { out[out.count - 1] += s } else { out.append(literalCase(s)) }
    case .charClass(let ranges, let negated):
      let c = pickChar(ranges, negated: negated)
      if lexical, !out.isEmpty { out[out.count - 1] += String(c) } else { out.append(String(c)) }
    case .ref(let name):
      guard let body = grammar.rules[name] else { return }
      let isToken = name.first?.isUppercase ?? false
      if isToken && !lexical {
        for _ in 0..<20 {
          var piece = [""]
          emit(body, depth: depth + 1, into: &piece, lexical: true)
          if accept(name, piece[0]) {
            out.append(piece[0])
            return
          }
        }
        out.append("x")
      } else {
        emit(body, depth: lexical ? depth : depth + 1, into: &out, lexical: lexical)
      }
    case .seq(let items):
      for item in items { emit(item, depth: depth, into: &out, lexical: lexical) }
    case .alt(let items):
      let choice = depth >= maxDepth ? items[shallowest(items)] : items[Int.random(in: 0..<items.count, using: &rng)]
      emit(choice, depth: depth, into: &out, lexical: lexical)
    case .opt(let inner):
      if depth < maxDepth, Int.random(in: 0..<3, using: &rng) == 0 {
        emit(inner, depth: depth, into: &out, lexical: lexical)
      }
    case .star(let inner):
      // Mostly zero repetitions, so sentences stay small while depth allows variety.
      let roll = Int.random(in: 0..<10, using: &rng)
      let n = depth >= maxDepth ? 0 : (roll < 6 ? 0 : roll < 9 ? 1 : 2)
      for _ in 0..<n { emit(inner, depth: depth, into: &out, lexical: lexical) }
    case .plus(let inner):
      let n = depth >= maxDepth ? 1 : (Int.random(in: 0..<10, using: &rng) < 7 ? 1 : 2)
      for _ in 0..<n { emit(inner, depth: depth, into: &out, lexical: lexical) }
    }
  }

  mutating func pickChar(_ ranges: [ClosedRange<UnicodeScalar>], negated: Bool) -> Character {
    if !negated {
      let r = ranges[Int.random(in: 0..<ranges.count, using: &rng)]
      let v = UInt32.random(in: r.lowerBound.value...r.upperBound.value, using: &rng)
      return Character(UnicodeScalar(v) ?? "a")
    }
    let pool = Array(" !#$%&()*+,-./0123456789:;<=>?@ABCXYZ[]^_`abcxyz{|}~éß名😀")
    while true {
      let c = pool[Int.random(in: 0..<pool.count, using: &rng)]
      if let s = c.unicodeScalars.first, !ranges.contains(where: { $0.contains(s) }) { return c }
    }
  }

  /// Keywords are case-insensitive: sometimes write them in lower or mixed case.
  mutating func literalCase(_ s: String) -> String {
    guard s.count > 1, s.allSatisfy({ $0.isUppercase || $0 == "-" }) else { return s }
    switch Int.random(in: 0...3, using: &rng) {
    case 0: return s.lowercased()
    case 1: return String(s.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.lowercased()) : $0.element })
    default: return s
    }
  }

  /// Index of the alternative with the fewest rule references (a cheap way to terminate).
  func shallowest(_ items: [EBNFExpr]) -> Int {
    func cost(_ e: EBNFExpr, _ seen: Int) -> Int {
      if seen > 3 { return 100 }
      switch e {
      case .literal, .charClass: return 0
      case .ref(let n):
        guard let body = grammar.rules[n] else { return 0 }
        if n.first?.isUppercase ?? false { return 1 }
        return 1 + cost(body, seen + 1)
      case .seq(let xs): return xs.reduce(0) { $0 + cost($1, seen) }
      case .alt(let xs): return xs.map { cost($0, seen) }.min() ?? 0
      case .opt, .star: return 0
      case .plus(let x): return cost(x, seen)
      }
    }
    var best = 0
    var bestCost = Int.max
    for (i, item) in items.enumerated() {
      let c = cost(item, 0)
      if c < bestCost {
        best = i
        bestCost = c
      }
    }
    return best
  }
}
