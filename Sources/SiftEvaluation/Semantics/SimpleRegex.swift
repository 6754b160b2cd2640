import SiftSyntax

/// A linear-time, allocation-free matcher for a small subset of ICU regular expressions, used
/// by `MATCHES` (without `[c]`/`[d]`) in place of `NSRegularExpression` when it gives exactly
/// the same answer:
///
/// - literal characters, `\` + ASCII punctuation, `.` (any scalar except the ICU line
///   terminators U+000A…U+000D, U+0085, U+2028, U+2029), groups `( )` and `(?: )`,
///   alternation `|`, and `?`, `*`, `+` (greedy or lazy — the same set of matches);
/// - `*`/`+` only on a single character or `.`, at most one of them per pattern, and few
///   enough alternatives and `?`s that ICU's backtracking over a subject of at most
///   `maxSubjectBytes` bytes stays far below `RegexPattern`'s step budget — so ICU would always
///   finish, and whole-string membership is the only thing left to compute.
///
/// Anything else (classes, anchors, escapes such as `\d`, counted repeats, longer subjects)
/// returns nil from `init` or `matches`, and `RegexPattern` decides.
///
/// The pattern is compiled to a position (Glushkov) automaton of at most 32 states kept in
/// one machine word.
///
/// ```swift
/// let r = SimpleRegex("(Blue|Red) .*")
/// r?.matches("Red bar")   // true
/// r?.matches("A Red bar") // false
/// ```
struct SimpleRegex: Sendable {
  /// Longest subject (UTF-8 bytes) decided here.
  static let maxSubjectBytes = 1024
  static let maxPositions = 32

  /// Positions matched by each ASCII byte (the literals, plus `.` unless a line terminator).
  let ascii: [UInt64]
  /// Positions holding `.`.
  let dots: UInt64
  /// Non-ASCII literal scalars and the positions holding them.
  let wide: [(UInt32, UInt64)]
  let first: UInt64
  let last: UInt64
  let follow: [UInt64]
  let nullable: Bool
  /// `.` positions that only follow themselves and may end the match (a trailing `.*`).
  let absorbing: UInt64

  init?(_ pattern: String) {
    var parser = Parser(Array(pattern.unicodeScalars))
    guard let node = parser.alternation(depth: 0), parser.atEnd, parser.stars <= 1,
      parser.paths <= 8, parser.atoms.count <= SimpleRegex.maxPositions
    else { return nil }
    let n = parser.atoms.count
    var follow = [UInt64](repeating: 0, count: n)
    let info = SimpleRegex.analyze(node, &follow)
    var ascii = [UInt64](repeating: 0, count: 128)
    var dots: UInt64 = 0
    var wide: [(UInt32, UInt64)] = []
    for (p, atom) in parser.atoms.enumerated() {
      let bit: UInt64 = 1 << UInt64(p)
      switch atom {
      case .dot: dots |= bit
      case .scalar(let v) where v < 0x80: ascii[Int(v)] |= bit
      case .scalar(let v):
        if let k = wide.firstIndex(where: { $0.0 == v }) { wide[k].1 |= bit } else { wide.append((v, bit)) }
      }
    }
    for b in 0..<128 where !SimpleRegex.isLineTerminator(UInt32(b)) { ascii[b] |= dots }
    var absorbing: UInt64 = 0
    for p in 0..<n where dots & (1 << UInt64(p)) != 0 {
      let bit: UInt64 = 1 << UInt64(p)
      if follow[p] == bit && info.last & bit != 0 { absorbing |= bit }
    }
    self.ascii = ascii
    self.dots = dots
    self.wide = wide
    self.first = info.first
    self.last = info.last
    self.follow = follow
    self.nullable = info.nullable
    self.absorbing = absorbing
  }

  /// ICU's line terminators, which `.` does not match.
  @inline(__always)
  static func isLineTerminator(_ v: UInt32) -> Bool {
    (v >= 0x0A && v <= 0x0D) || v == 0x85 || v == 0x2028 || v == 0x2029
  }

  /// Does the whole of `text` match? Nil when the subject is too long to decide here.
  func matches(_ text: String) -> Bool? {
    if text.utf8.count > SimpleRegex.maxSubjectBytes { return nil }
    if let r = text.utf8.withContiguousStorageIfAvailable({ run($0) }) { return r }
    var text = text
    return text.withUTF8 { run($0) }
  }

  private func run(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
    var state: UInt64 = 0
    var started = false
    var triedShortcut = false
    var i = 0
    while i < t.count {
      if state & absorbing != 0 && !triedShortcut {
        // A trailing `.*` is alive: the rest matches if it has no line terminator.
        if !SimpleRegex.hasLineTerminator(t, from: i) { return true }
        triedShortcut = true
      }
      let (v, w) = SimpleRegex.scalar(t, i)
      i &+= w
      var m: UInt64
      if v < 0x80 {
        m = ascii[Int(v)]
      } else {
        m = SimpleRegex.isLineTerminator(v) ? 0 : dots
        for (s, bits) in wide where s == v { m |= bits }
      }
      var candidates = first
      if started {
        candidates = 0
        var x = state
        while x != 0 {
          candidates |= follow[x.trailingZeroBitCount]
          x &= x &- 1
        }
      }
      state = candidates & m
      started = true
      if state == 0 { return false }
    }
    return started ? state & last != 0 : nullable
  }

  static func hasLineTerminator(_ t: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
    var i = start
    while i < t.count {
      let b = t[i]
      if b >= 0x0A && b <= 0x0D { return true }
      if b == 0xC2 && i &+ 1 < t.count && t[i &+ 1] == 0x85 { return true }
      if b == 0xE2 && i &+ 2 < t.count && t[i &+ 1] == 0x80 && (t[i &+ 2] == 0xA8 || t[i &+ 2] == 0xA9) { return true }
      i &+= 1
    }
    return false
  }

  /// Decodes the (valid) UTF-8 scalar at `i`: value and width.
  @inline(__always)
  static func scalar(_ t: UnsafeBufferPointer<UInt8>, _ i: Int) -> (UInt32, Int) {
    let x = UInt32(t[i])
    if x < 0x80 { return (x, 1) }
    if x < 0xE0 { return ((x & 0x1F) << 6 | UInt32(t[i &+ 1] & 0x3F), 2) }
    if x < 0xF0 {
      return ((x & 0x0F) << 12 | UInt32(t[i &+ 1] & 0x3F) << 6 | UInt32(t[i &+ 2] & 0x3F), 3)
    }
    return (
      (x & 0x07) << 18 | UInt32(t[i &+ 1] & 0x3F) << 12 | UInt32(t[i &+ 2] & 0x3F) << 6
        | UInt32(t[i &+ 3] & 0x3F), 4
    )
  }

  // MARK: Glushkov construction

  indirect enum Node {
    case atom(Int)
    case sequence([Node])
    case alternatives([Node])
    case star(Node)
    case plus(Node)
    case optional(Node)
  }

  enum Atom {
    case scalar(UInt32)
    case dot
  }

  struct Info {
    var nullable: Bool
    var first: UInt64
    var last: UInt64
  }

  /// Nullable/first/last of `node`, adding its internal transitions to `follow`.
  static func analyze(_ node: Node, _ follow: inout [UInt64]) -> Info {
    func link(_ from: UInt64, _ to: UInt64, _ follow: inout [UInt64]) {
      var x = from
      while x != 0 {
        follow[x.trailingZeroBitCount] |= to
        x &= x &- 1
      }
    }
    switch node {
    case .atom(let p):
      let bit: UInt64 = 1 << UInt64(p)
      return Info(nullable: false, first: bit, last: bit)
    case .sequence(let parts):
      var acc = Info(nullable: true, first: 0, last: 0)
      for part in parts {
        let x = analyze(part, &follow)
        link(acc.last, x.first, &follow)
        acc = Info(
          nullable: acc.nullable && x.nullable, first: acc.nullable ? acc.first | x.first : acc.first,
          last: x.nullable ? acc.last | x.last : x.last)
      }
      return acc
    case .alternatives(let branches):
      var acc = Info(nullable: false, first: 0, last: 0)
      for b in branches {
        let x = analyze(b, &follow)
        acc = Info(nullable: acc.nullable || x.nullable, first: acc.first | x.first, last: acc.last | x.last)
      }
      return acc
    case .star(let inner), .plus(let inner):
      var x = analyze(inner, &follow)
      link(x.last, x.first, &follow)
      if case .star = node { x.nullable = true }
      return x
    case .optional(let inner):
      var x = analyze(inner, &follow)
      x.nullable = true
      return x
    }
  }

  /// Recursive descent over the supported subset; nil for anything outside it.
  struct Parser {
    let s: [Unicode.Scalar]
    var i = 0
    var atoms: [Atom] = []
    var stars = 0
    /// Product of alternative counts times 2 per `?`: a bound on ICU's backtracking paths.
    var paths = 1

    init(_ s: [Unicode.Scalar]) { self.s = s }

    var atEnd: Bool { i >= s.count }
    func peek() -> Unicode.Scalar? { i < s.count ? s[i] : nil }

    mutating func alternation(depth: Int) -> Node? {
      guard depth < 8 else { return nil }
      var branches: [Node] = []
      while true {
        guard let seq = sequence(depth: depth) else { return nil }
        branches.append(seq)
        if peek() == "|" { i += 1 } else { break }
      }
      if branches.count == 1 { return branches[0] }
      paths = paths.multipliedReportingOverflow(by: branches.count).partialValue
      if paths > 64 { return nil }
      return .alternatives(branches)
    }

    mutating func sequence(depth: Int) -> Node? {
      var items: [Node] = []
      while let c = peek(), c != "|", c != ")" {
        guard let item = quantified(depth: depth) else { return nil }
        items.append(item)
        if atoms.count > SimpleRegex.maxPositions { return nil }
      }
      return .sequence(items)
    }

    mutating func quantified(depth: Int) -> Node? {
      let start = atoms.count
      guard let atom = atom(depth: depth) else { return nil }
      guard let q = peek(), q == "*" || q == "+" || q == "?" else {
        return peek() == "{" ? nil : atom
      }
      i += 1
      if peek() == "?" { i += 1 }  // lazy: same matches
      if let c = peek(), c == "+" || c == "*" || c == "?" || c == "{" { return nil }  // possessive or odd
      if q == "?" {
        paths = paths.multipliedReportingOverflow(by: 2).partialValue
        return paths > 64 ? nil : .optional(atom)
      }
      guard atoms.count == start + 1, case .atom = atom else { return nil }  // a single character only
      stars += 1
      return q == "*" ? .star(atom) : .plus(atom)
    }

    mutating func atom(depth: Int) -> Node? {
      guard let c = peek() else { return nil }
      i += 1
      switch c {
      case "(":
        if peek() == "?" {
          guard i + 1 < s.count, s[i + 1] == ":" else { return nil }
          i += 2
        }
        guard let inner = alternation(depth: depth + 1), peek() == ")" else { return nil }
        i += 1
        return inner
      case ".":
        atoms.append(.dot)
        return .atom(atoms.count - 1)
      case "\\":
        guard let e = peek(), e.isASCII, e.value > 0x20, e.value < 0x7F,
          !e.properties.isAlphabetic, !("0"..."9").contains(e)
        else { return nil }
        i += 1
        atoms.append(.scalar(e.value))
        return .atom(atoms.count - 1)
      case "^", "$", "|", ")", "*", "+", "?", "[", "]", "{", "}":
        return nil
      default:
        atoms.append(.scalar(c.value))
        return .atom(atoms.count - 1)
      }
    }
  }
}
