/// The pattern subset `RegexAutomaton` runs, as a tree: everything ICU means by these forms,
/// nothing else (`parse` returns nil and ICU decides).
///
/// Supported: literals; `.`; `\` + ASCII punctuation; `\d \D \w \W \s \S`; `\t \n \r \f \e \a`;
/// `\xhh`, `\x{h…}`, `\uhhhh`, `\Uhhhhhhhh`; `\A`, `\z`, `^` anywhere; `$` only at the very end
/// of a top-level alternative; classes `[…]`/`[^…]` of those characters, escapes and ranges;
/// groups `( )`, `(?: )`, `(?<name> )`; alternation; `* + ? {n} {n,} {n,m}`, greedy or lazy
/// (the same set of whole-string matches).
/// Not supported (ICU decides): backreferences, lookaround, atomic groups, possessive
/// quantifiers, inline flags, `\b`, `\p{…}`, nested or combined sets, `\Q…\E`, `$` elsewhere.
extension RegexAutomaton {
  indirect enum Node {
    case empty
    case set(Int)
    case sequence([Node])
    case alternatives([Node])
    case repeated(Node, min: Int, max: Int?)
    case atStart
    case atEnd
  }

  struct Parser {
    let s: [Unicode.Scalar]
    var i = 0
    var sets: [ScalarSet] = []
    let caseInsensitive: Bool

    init(_ pattern: String, caseInsensitive: Bool) {
      s = Array(pattern.unicodeScalars)
      self.caseInsensitive = caseInsensitive
    }

    var atEnd: Bool { i >= s.count }
    func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }

    mutating func parse() -> Node? {
      guard let n = alternation(depth: 0), atEnd else { return nil }
      return n
    }

    mutating func alternation(depth: Int) -> Node? {
      guard depth < 64 else { return nil }
      var branches: [Node] = []
      while true {
        guard let seq = sequence(depth: depth) else { return nil }
        branches.append(seq)
        if peek() == "|" { i += 1 } else { break }
      }
      return branches.count == 1 ? branches[0] : .alternatives(branches)
    }

    mutating func sequence(depth: Int) -> Node? {
      var items: [Node] = []
      while let c = peek(), c != "|", c != ")" {
        if c == "$" {
          // `$` only where nothing can follow it: the end of a top-level alternative.
          let next = peek(1)
          guard depth == 0, next == nil || next == "|" else { return nil }
          i += 1
          items.append(.atEnd)
          continue
        }
        guard let item = quantified(depth: depth) else { return nil }
        items.append(item)
      }
      return items.count == 1 ? items[0] : .sequence(items)
    }

    mutating func quantified(depth: Int) -> Node? {
      guard var node = atom(depth: depth) else { return nil }
      while let q = peek(), q == "*" || q == "+" || q == "?" || q == "{" {
        if case .atStart = node { return nil }
        var lo = 0
        var hi: Int?
        i += 1
        switch q {
        case "*": break
        case "+": lo = 1
        case "?": hi = 1
        default:
          guard let a = number() else { return nil }
          lo = a
          hi = a
          if peek() == "," {
            i += 1
            hi = peek() == "}" ? nil : number()
            if hi == nil && peek() != "}" { return nil }
          }
          guard peek() == "}", hi.map({ $0 >= lo }) ?? true, lo <= 1000, (hi ?? 0) <= 1000 else { return nil }
          i += 1
        }
        if peek() == "?" { i += 1 } else if peek() == "+" { return nil }  // lazy: same matches; possessive: ICU
        node = .repeated(node, min: lo, max: hi)
        if let c = peek(), c == "*" || c == "+" || c == "?" || c == "{" { return nil }  // stacked quantifiers: ICU
      }
      return node
    }

    mutating func number() -> Int? {
      var n = 0
      var digits = 0
      while let c = peek(), let d = c.properties.numericType == .decimal && c.isASCII ? Int(c.value) - 48 : nil {
        n = n * 10 + d
        digits += 1
        i += 1
        if digits > 6 { return nil }
      }
      return digits == 0 ? nil : n
    }

    mutating func add(_ set: ScalarSet) -> Node {
      var set = set
      if caseInsensitive { set.closeUnderASCIICase() }
      sets.append(set)
      return .set(sets.count - 1)
    }

    mutating func atom(depth: Int) -> Node? {
      guard let c = peek() else { return nil }
      i += 1
      switch c {
      case "(":
        if peek() == "?" {
          if peek(1) == ":" {
            i += 2
          } else if peek(1) == "<", let n = peek(2), n != "=", n != "!" {
            i += 2
            while let x = peek(), x != ">" {
              guard x.isASCII, x.properties.isAlphabetic || (x.value >= 48 && x.value <= 57) else { return nil }
              i += 1
            }
            guard peek() == ">" else { return nil }
            i += 1
          } else {
            return nil
          }
        }
        guard let inner = alternation(depth: depth + 1), peek() == ")" else { return nil }
        i += 1
        return inner
      case ".": return add(ScalarSet(classes: [.dot]))
      case "^": return .atStart
      case "[":
        guard let n = bracket() else { return nil }
        // ICU closes [^…] under case its own way.
        if caseInsensitive, case .set(let k) = n, sets[k].negated { return nil }
        return n
      case "\\":
        guard let e = peek() else { return nil }
        if e == "A" {
          i += 1
          return .atStart
        }
        if e == "z" {
          i += 1
          return .atEnd
        }
        guard let set = escape(inClass: false) else { return nil }
        return add(set)
      case "$", "|", ")", "*", "+", "?", "{", "}", "]": return nil
      default:
        if caseInsensitive && !c.isASCII { return nil }
        return add(ScalarSet(c.value))
      }
    }

    /// After a `\`: one character or class; nil for escapes ICU gives other meanings.
    mutating func escape(inClass: Bool) -> ScalarSet? {
      guard let e = peek() else { return nil }
      i += 1
      switch e {
      case "d": return ScalarSet(classes: [.digit])
      case "D": return ScalarSet(classes: [.digit], negated: true)
      case "w": return ScalarSet(classes: [.word])
      case "W": return ScalarSet(classes: [.word], negated: true)
      case "s": return ScalarSet(classes: [.space])
      case "S": return ScalarSet(classes: [.space], negated: true)
      case "t": return ScalarSet(0x09)
      case "n": return ScalarSet(0x0A)
      case "r": return ScalarSet(0x0D)
      case "f": return ScalarSet(0x0C)
      case "e": return ScalarSet(0x1B)
      case "a": return ScalarSet(0x07)
      case "x":
        if peek() == "{" {
          i += 1
          guard let v = hex(max: 6, exact: false), peek() == "}" else { return nil }
          i += 1
          return scalar(v)
        }
        return hex(max: 2, exact: true).flatMap(scalar)
      case "u": return hex(max: 4, exact: true).flatMap(scalar)
      case "U": return hex(max: 8, exact: true).flatMap(scalar)
      default:
        guard e.isASCII, e.value > 0x20, e.value < 0x7F, !e.properties.isAlphabetic, !(e.value >= 48 && e.value <= 57)
        else { return nil }
        return ScalarSet(e.value)
      }
    }

    func scalar(_ v: UInt32) -> ScalarSet? {
      guard Unicode.Scalar(v) != nil, !(caseInsensitive && v >= 0x80) else { return nil }
      return ScalarSet(v)
    }

    mutating func hex(max: Int, exact: Bool) -> UInt32? {
      var v: UInt32 = 0
      var n = 0
      while n < max, let c = peek(), let d = c.isASCII ? Int(String(c), radix: 16) : nil {
        v = v << 4 | UInt32(d)
        n += 1
        i += 1
      }
      if n == 0 || (exact && n != max) { return nil }
      return v
    }

    /// `[…]` after its `[`.
    mutating func bracket() -> Node? {
      var set = ScalarSet(ranges: [])
      if peek() == "^" {
        set.negated = true
        i += 1
      }
      guard let first = peek(), first != "]", first != "-" || peek(1) == "]" else { return nil }
      var items = 0
      while let c = peek(), c != "]" {
        guard c != "[", !(c == "&" && peek(1) == "&"), !(c == "-" && peek(1) == "-") else { return nil }
        guard let lo = classMember(&set) else { return nil }
        items += 1
        guard let low = lo else { continue }  // a class such as \d: no range from it
        if peek() == "-", let after = peek(1), after != "]" {
          i += 1
          var probe = ScalarSet(ranges: [])
          guard let hiValue = classMember(&probe), let high = hiValue, high >= low else { return nil }
          set.ranges.append(low...high)
        } else {
          set.ranges.append(low...low)
        }
      }
      guard peek() == "]", items > 0 else { return nil }
      i += 1
      return add(set)
    }

    /// One member of a class: its scalar (added by the caller, which may make it a range),
    /// or nil inside after adding a class escape to `set`; outer nil when unsupported.
    mutating func classMember(_ set: inout ScalarSet) -> UInt32?? {
      guard let c = peek() else { return nil }
      i += 1
      if c == "\\" {
        guard let e = escape(inClass: true) else { return nil }
        if e.classes.isEmpty, !e.negated, e.ranges.count == 1, let r = e.ranges.first, r.lowerBound == r.upperBound {
          return .some(r.lowerBound)
        }
        if e.negated {
          // \D, \W, \S inside a class: the complement of one class.
          guard e.classes.count == 1 else { return nil }
          set.negatedClasses.append(e.classes[0])
        } else {
          set.classes += e.classes
        }
        return .some(nil)
      }
      if caseInsensitive && !c.isASCII { return nil }
      return .some(c.value)
    }
  }
}
