extension RegexPattern {
  /// The largest size `expandedSize(_:)` reports: counts saturate here instead of overflowing.
  package static let maxExpandedSize = 1 << 40

  /// How many terms `pattern` stands for once every counted repetition is written out: each
  /// literal, `.`, escape, class `[…]` or anchor counts one; `?`, `*` and `+` add one to what
  /// they repeat; `x{n}` counts `n` copies of `x`, `x{n,m}` `m` copies and `x{n,}` `n + 1`;
  /// alternatives add up. It is what a linear-time matcher has to hold (RE2 and
  /// `RegexAutomaton` expand counts the same way), and what a query policy's `limits.nodes`
  /// counts for a `MATCHES` pattern. Any text is measured, valid or not; nothing traps, and
  /// sizes past `maxExpandedSize` are reported as it.
  ///
  /// ```swift
  /// RegexPattern.expandedSize("(.*a){1000}b")        // 3001
  /// RegexPattern.expandedSize("((.*a){1000}){1000}")  // 3000000
  /// RegexPattern.expandedSize("[a-z]+@x\\.com")       // 8
  /// ```
  package static func expandedSize(_ pattern: String) -> Int {
    var scanner = SizeScanner(Array(pattern.unicodeScalars))
    return scanner.measure()
  }

  /// One pass over the pattern with a stack of open groups.
  struct SizeScanner {
    let s: [Unicode.Scalar]
    var i = 0

    /// An open group: the finished alternatives, the current one, and the last item's size
    /// (what a quantifier applies to).
    struct Frame {
      var alternatives = 0
      var sequence = 0
      var last = 0
    }

    init(_ s: [Unicode.Scalar]) { self.s = s }

    static func add(_ a: Int, _ b: Int) -> Int { min(RegexPattern.maxExpandedSize, a &+ b) }

    static func times(_ a: Int, _ b: Int) -> Int {
      let (p, overflow) = a.multipliedReportingOverflow(by: b)
      return overflow ? RegexPattern.maxExpandedSize : min(RegexPattern.maxExpandedSize, p)
    }

    func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }

    mutating func measure() -> Int {
      var stack = [Frame()]
      while let c = peek() {
        i += 1
        switch c {
        case "(":
          skipGroupHeader()
          stack.append(Frame())
        case ")":
          guard stack.count > 1, let inner = stack.popLast() else { break }
          item(SizeScanner.add(inner.alternatives, inner.sequence), &stack[stack.count - 1])
        case "|":
          stack[stack.count - 1].alternatives = SizeScanner.add(
            stack[stack.count - 1].alternatives, stack[stack.count - 1].sequence)
          stack[stack.count - 1].sequence = 0
          stack[stack.count - 1].last = 0
        case "*", "+", "?": quantify(copies: 1, extra: 1, &stack[stack.count - 1])
        case "{":
          if let (lo, hi) = counts() {
            let copies = max(lo, hi ?? lo + 1)
            quantify(copies: max(copies, 1), extra: 0, &stack[stack.count - 1])
          } else {
            item(1, &stack[stack.count - 1])
          }
        case "[":
          skipClass()
          item(1, &stack[stack.count - 1])
        case "\\":
          skipEscape()
          item(1, &stack[stack.count - 1])
        default: item(1, &stack[stack.count - 1])
        }
      }
      var total = 0
      for f in stack.reversed() { total = SizeScanner.add(total, SizeScanner.add(f.alternatives, f.sequence)) }
      return total
    }

    func item(_ size: Int, _ f: inout Frame) {
      f.sequence = SizeScanner.add(f.sequence, size)
      f.last = size
    }

    /// Replaces the last item by `copies` of it plus `extra` (the split of `?`, `*`, `+`).
    mutating func quantify(copies: Int, extra: Int, _ f: inout Frame) {
      if peek() == "?" || peek() == "+" { i += 1 }  // lazy or possessive: the same size
      let repeated = SizeScanner.add(SizeScanner.times(f.last, copies), extra)
      f.sequence = SizeScanner.add(f.sequence - min(f.sequence, f.last), repeated)
      f.last = repeated
    }

    /// After `{`: `n}`, `n,}` or `n,m}` (the counts), or nil (a literal brace; nothing read).
    mutating func counts() -> (Int, Int?)? {
      let start = i
      guard let lo = number() else { return nil }
      var hi: Int? = lo
      if peek() == "," {
        i += 1
        hi = number()
      }
      guard peek() == "}" else {
        i = start
        return nil
      }
      i += 1
      return (lo, hi)
    }

    mutating func number() -> Int? {
      var n = 0
      var digits = 0
      while let c = peek(), c.isASCII, c.value >= 48, c.value <= 57 {
        n = SizeScanner.add(SizeScanner.times(n, 10), Int(c.value) - 48)
        digits += 1
        i += 1
      }
      return digits == 0 ? nil : n
    }

    /// `?:`, `?<name>`, `?=`, `?!`, `?<=`, `?<!`, `?>`, inline flags: the header of a group.
    mutating func skipGroupHeader() {
      guard peek() == "?" else { return }
      i += 1
      if peek() == "<", let n = peek(1), n != "=", n != "!" {
        while let c = peek(), c != ">" { i += 1 }
        if peek() == ">" { i += 1 }
        return
      }
      while let c = peek(), c != ":", c != ")", c != "(" {
        i += 1
        if c == "=" || c == "!" || c == ">" { return }
      }
      if peek() == ":" { i += 1 }
    }

    /// After `[`: up to the matching `]`, nested sets and escapes included.
    mutating func skipClass() {
      var depth = 1
      if peek() == "^" { i += 1 }
      if peek() == "]" { i += 1 }  // a leading `]` is a literal
      while let c = peek(), depth > 0 {
        i += 1
        switch c {
        case "\\": if peek() != nil { i += 1 }
        case "[": depth += 1
        case "]": depth -= 1
        default: break
        }
      }
    }

    /// After `\`: one escape, with its braces (`\x{…}`, `\p{…}`, `\N{…}`) or `\Q…\E`.
    mutating func skipEscape() {
      guard let e = peek() else { return }
      i += 1
      if e == "Q" {
        while i < s.count, !(s[i] == "\\" && peek(1) == "E") { i += 1 }
        i = min(s.count, i + 2)
        return
      }
      if "xpPN".unicodeScalars.contains(e), peek() == "{" {
        while let c = peek(), c != "}" { i += 1 }
        if peek() == "}" { i += 1 }
      }
    }
  }
}
