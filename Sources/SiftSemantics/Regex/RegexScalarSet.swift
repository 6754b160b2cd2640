extension RegexAutomaton {
  /// The character classes of ICU's regex syntax that `RegexAutomaton` knows, with ICU's
  /// definitions: `.` is any scalar but a line terminator; `\d` is `\p{Nd}`; `\w` is
  /// `[\p{Alphabetic}\p{Mark}\p{Nd}\p{Pc}\u200c\u200d]`; `\s` is `\p{White_Space}` (as ICU matches it, \u000B and \u0085 included).
  enum ScalarClass: Sendable {
    case dot, digit, word, space

    func contains(_ v: UInt32) -> Bool {
      switch self {
      case .dot:
        return !((v >= 0x0A && v <= 0x0D) || v == 0x85 || v == 0x2028 || v == 0x2029)
      case .digit:
        if v < 0x80 { return v >= 0x30 && v <= 0x39 }
        return Unicode.Scalar(v)?.properties.generalCategory == .decimalNumber
      case .word:
        if v < 0x80 {
          return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
        }
        if v == 0x200C || v == 0x200D { return true }
        guard let p = Unicode.Scalar(v)?.properties else { return false }
        if p.isAlphabetic { return true }
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return false
        }
      case .space:
        if v < 0x80 { return (v >= 0x09 && v <= 0x0D) || v == 0x20 }
        return Unicode.Scalar(v)?.properties.isWhitespace ?? false
      }
    }
  }

  /// One position's characters: scalar ranges and classes, possibly negated, with an ASCII
  /// bitmap (closed under ASCII case for `[c]`).
  struct ScalarSet: Sendable {
    var ranges: [ClosedRange<UInt32>]
    var classes: [ScalarClass] = []
    /// `\D`, `\W`, `\S` inside a class: members are what the class does not hold.
    var negatedClasses: [ScalarClass] = []
    var negated = false
    var foldsASCIICase = false

    init(_ v: UInt32) { ranges = [v...v] }
    init(ranges: [ClosedRange<UInt32>]) { self.ranges = ranges }
    init(classes: [ScalarClass], negated: Bool = false) {
      ranges = []
      self.classes = classes
      self.negated = negated
    }

    mutating func closeUnderASCIICase() { foldsASCIICase = true }

    func positive(_ v: UInt32) -> Bool {
      for r in ranges where r.contains(v) { return true }
      for c in classes where c.contains(v) { return true }
      for c in negatedClasses where !c.contains(v) { return true }
      return false
    }

    func contains(_ v: UInt32) -> Bool {
      var hit = positive(v)
      if !hit && foldsASCIICase {
        if v >= 0x41 && v <= 0x5A { hit = positive(v + 32) } else if v >= 0x61 && v <= 0x7A { hit = positive(v - 32) }
      }
      return hit != negated
    }
  }
}
