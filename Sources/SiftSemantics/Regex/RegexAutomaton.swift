/// A whole-string matcher in time linear in the subject for the ICU patterns that need no
/// backtracking (see `RegexAutomaton.Parser` for the subset), as RE2 and Rust's `regex` do:
/// a Thompson automaton, turned into a DFA at compile time when it stays small (at most
/// `maxStates` states) — over ASCII, and over the non-ASCII scalars too, cut into pieces
/// (`wideStarts`), unless the pattern uses `\d`/`\w`/`\s` or `[c]` — and simulated state-set by
/// state-set otherwise. Immutable: safe to share between threads.
///
/// `RegexPattern` runs it whenever it exists, so memory (MATCHES) and SQLite's functions
/// (`sift_matches`, `regexp`) use it alike; patterns outside the subset go to ICU.
///
/// ```swift
/// let a = RegexAutomaton("(a+)+b|a+[0-9]+", caseInsensitive: false)
/// a?.matches("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa123")   // true, at once
/// ```
struct RegexAutomaton: Sendable {
  enum Instruction: Sendable {
    case set(Int, next: Int)
    case split(Int, Int)
    case jump(Int)
    case atStart(next: Int)
    case atEnd(next: Int)
    case match
  }

  static let maxInstructions = 4000
  static let maxStates = 256
  /// Instructions visited while building the DFA (closures × program size) before giving it
  /// up for state-set simulation: compiling stays cheap whatever the pattern.
  static let dfaBudget = 500_000

  let program: [Instruction]
  let sets: [ScalarSet]
  let caseInsensitive: Bool
  /// The DFA: `transitions[state * columns + column]`, -1 for the dead state. Columns 0…127
  /// are the ASCII bytes, then one per piece of `wideStarts`.
  let transitions: [Int32]
  let columns: Int
  /// Where each non-ASCII column's scalars begin (the first is 0x80): the scalars above ASCII
  /// cut at every end of the pattern's ranges and around ICU's line terminators, so that every
  /// scalar of one piece is in the same sets. Empty, and non-ASCII characters simulated state
  /// set by state set, when a set holds `\d`, `\w` or `\s` (Unicode properties) or under `[c]`.
  let wideStarts: [UInt32]
  /// Per DFA state: the consuming instructions (`.set`) alive, and whether the end accepts.
  let states: [[Int32]]
  let accepting: [Bool]
  let stateIDs: [[Int32]: Int32]
  let hasDFA: Bool

  /// Compiles `pattern` (already folded for `[d]`); nil when it is outside the subset.
  init?(_ pattern: String, caseInsensitive: Bool) {
    var parser = Parser(pattern, caseInsensitive: caseInsensitive)
    guard let tree = parser.parse() else { return nil }
    var builder = Builder()
    let start = builder.emit(tree, then: builder.matchIndex)
    guard let start, builder.code.count <= RegexAutomaton.maxInstructions else { return nil }
    // Instruction 0 jumps to the start.
    builder.code[0] = .jump(start)
    program = builder.code
    sets = parser.sets
    self.caseInsensitive = caseInsensitive
    // The eager DFA over ASCII.
    var states: [[Int32]] = []
    var accepting: [Bool] = []
    var ids: [[Int32]: Int32] = [:]
    var transitions: [Int32] = []
    var complete = true
    let wideStarts = caseInsensitive ? [] : RegexAutomaton.wideStarts(parser.sets)
    let columns = 128 + wideStarts.count
    let first = RegexAutomaton.closure([0], atStart: true, program)
    states.append(first.alive)
    accepting.append(first.accepts)
    ids[first.alive + [first.accepts ? -2 : -3, -1]] = 0  // the start state is its own (it saw ^)
    var k = 0
    var work = 0
    while k < states.count {
      work += columns * builder.code.count
      if work > RegexAutomaton.dfaBudget {
        complete = false
        break
      }
      for b in 0..<columns {
        let v = b < 128 ? UInt32(b) : wideStarts[b - 128]
        let next = RegexAutomaton.step(states[k], v, program, parser.sets)
        if next.alive.isEmpty && !next.accepts {
          transitions.append(-1)
          continue
        }
        let key = next.alive + [next.accepts ? -2 : -3]
        if let id = ids[key] {
          transitions.append(id)
        } else if states.count < RegexAutomaton.maxStates {
          ids[key] = Int32(states.count)
          transitions.append(Int32(states.count))
          states.append(next.alive)
          accepting.append(next.accepts)
        } else {
          complete = false
          break
        }
      }
      if !complete { break }
      k += 1
    }
    hasDFA = complete
    self.transitions = complete ? transitions : []
    self.columns = columns
    self.wideStarts = complete ? wideStarts : []
    self.states = states
    self.accepting = accepting
    stateIDs = ids
  }

  /// Longest subject (UTF-8 bytes) `RegexPattern.quickMatch` decides without a clock.
  static let quickSubjectBytes = 1024
  /// Largest program `RegexPattern.quickMatch` runs without a clock: with a DFA, an ASCII byte
  /// is one table read, and any other character at most one walk of these instructions, so a
  /// subject of `quickSubjectBytes` bytes stays well under a millisecond whatever it holds.
  static let quickInstructions = 128

  /// Whether `RegexPattern.quickMatch` may run this automaton without a clock.
  var isQuick: Bool { hasDFA && program.count <= RegexAutomaton.quickInstructions }

  /// `matches(_:)` when `isQuick` and `text` has at most `quickSubjectBytes` bytes; else nil.
  func quickMatches(_ text: String) -> Bool? {
    guard isQuick, text.utf8.count <= RegexAutomaton.quickSubjectBytes else { return nil }
    // A native string's bytes are read in place, without the copy `withUTF8` would retain.
    let outcome = text.utf8.withContiguousStorageIfAvailable { run($0, deadline: 0) } ?? matches(text, deadline: 0)
    if case .answer(let a) = outcome { return a }
    return nil
  }

  /// What `run` found: the answer, a subject only ICU decides, or the deadline passed first.
  enum Outcome: Equatable {
    case answer(Bool)
    case undecided
    case deadlinePassed
  }

  /// Does the whole of `text` match? Nil only when `[c]` meets a non-ASCII subject (ICU's
  /// case folding decides those).
  func matches(_ text: String) -> Bool? {
    if case .answer(let a) = matches(text, deadline: 0) { return a }
    return nil
  }

  /// `matches(_:)` that reads the clock while it runs: past `deadline` (`DispatchTime`
  /// uptime nanoseconds; 0 for none) it stops with `.deadlinePassed`. A large program
  /// simulated state-set by state-set costs up to `maxInstructions` steps per character
  /// (`(.*a){1000}b` on 2 KB: ~0.4 s), so one long subject alone can outlast a time limit.
  func matches(_ text: String, deadline: UInt64) -> Outcome {
    var text = text
    return text.withUTF8 { run($0, deadline: deadline) }
  }

  /// Bytes the DFA reads between two looks at the clock (about 65 µs at 1 ns a byte).
  static let dfaClockInterval = 1 << 16
  /// Characters simulated state-set by state-set between two looks at the clock.
  static let setClockInterval = 16

  private func run(_ t: UnsafeBufferPointer<UInt8>, deadline: UInt64) -> Outcome {
    var i = 0
    var state: Int32 = 0
    if hasDFA {
      while i < t.count {
        let end = deadline == 0 ? t.count : min(t.count, i &+ RegexAutomaton.dfaClockInterval)
        while i < end {
          let b = t[i]
          var column = Int(b)
          var width = 1
          if b >= 0x80 {
            if wideStarts.isEmpty { break }
            let (v, w) = RegexAutomaton.scalar(t, i)
            column = wideColumn(v)
            width = w
          }
          state = transitions[Int(state) &* columns &+ column]
          if state < 0 { return .answer(false) }
          i &+= width
        }
        if i < end { break }  // a non-ASCII byte
        if RegexPattern.passed(deadline) && i < t.count { return .deadlinePassed }
      }
      if i == t.count { return .answer(accepting[Int(state)]) }
    }
    // State sets from here on (non-ASCII input, or no DFA).
    var alive = states[Int(state)]
    var accepts = accepting[Int(state)]
    var steps = 0
    while i < t.count {
      steps &+= 1
      if steps & (RegexAutomaton.setClockInterval &- 1) == 0 && RegexPattern.passed(deadline) {
        return .deadlinePassed
      }
      let (v, w) = RegexAutomaton.scalar(t, i)
      if caseInsensitive && v >= 0x80 { return .undecided }
      i &+= w
      if hasDFA && v < 0x80, let id = stateIDs[alive + [accepts ? -2 : -3]] {
        let next = transitions[Int(id) &* columns &+ Int(v)]
        if next < 0 { return .answer(false) }
        alive = states[Int(next)]
        accepts = accepting[Int(next)]
        continue
      }
      let next = RegexAutomaton.step(alive, v, program, sets)
      alive = next.alive
      accepts = next.accepts
      if alive.isEmpty && !accepts { return .answer(false) }
    }
    return .answer(accepts)
  }

  /// `wideStarts` for a program's sets: the pieces above ASCII in which every scalar is in the
  /// same sets, or none when a set's non-ASCII members follow Unicode properties.
  static func wideStarts(_ sets: [ScalarSet]) -> [UInt32] {
    // ICU's line terminators above ASCII (U+0085, U+2028, U+2029) are where `.` changes.
    var cuts: Set<UInt32> = [0x80, 0x85, 0x86, 0x2028, 0x202A]
    for s in sets {
      if !s.negatedClasses.isEmpty || s.classes.contains(where: { $0 != .dot }) { return [] }
      for r in s.ranges where r.upperBound >= 0x80 {
        cuts.insert(max(r.lowerBound, 0x80))
        if r.upperBound < 0x10FFFF { cuts.insert(r.upperBound + 1) }
      }
    }
    return cuts.sorted()
  }

  /// The DFA column of the non-ASCII scalar `v`: the piece of `wideStarts` holding it.
  @inline(__always)
  func wideColumn(_ v: UInt32) -> Int {
    var lo = 0
    var hi = wideStarts.count
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if wideStarts[mid] <= v { lo = mid } else { hi = mid }
    }
    return 128 + lo
  }

  /// The consuming instructions reached after `v` from the alive ones.
  static func step(_ alive: [Int32], _ v: UInt32, _ program: [Instruction], _ sets: [ScalarSet]) -> (
    alive: [Int32], accepts: Bool
  ) {
    var seeds: [Int32] = []
    for pc in alive {
      if case .set(let s, let next) = program[Int(pc)], sets[s].contains(v) { seeds.append(Int32(next)) }
    }
    if seeds.isEmpty { return ([], false) }
    return closure(seeds, atStart: false, program)
  }

  /// Follows jumps, splits and assertions from `seeds`: the consuming instructions reached
  /// (sorted), and whether the match is reachable at the end of the subject.
  static func closure(_ seeds: [Int32], atStart: Bool, _ program: [Instruction]) -> (alive: [Int32], accepts: Bool) {
    var seen = [Bool](repeating: false, count: program.count)
    var seenAtEnd = [Bool](repeating: false, count: program.count)
    var alive: [Int32] = []
    var accepts = false
    // Two walks: mid-subject (`$` fails) collects `alive`; at the end (`$` passes) finds the match.
    var stack = seeds.reversed().map { Int($0) }
    while let pc = stack.popLast() {
      if seen[pc] { continue }
      seen[pc] = true
      switch program[pc] {
      case .set: alive.append(Int32(pc))
      case .split(let a, let b):
        stack.append(b)
        stack.append(a)
      case .jump(let a): stack.append(a)
      case .atStart(let next): if atStart { stack.append(next) }
      case .atEnd: break
      case .match: break
      }
    }
    stack = seeds.map { Int($0) }
    while let pc = stack.popLast(), !accepts {
      if seenAtEnd[pc] { continue }
      seenAtEnd[pc] = true
      switch program[pc] {
      case .set: break
      case .split(let a, let b):
        stack.append(b)
        stack.append(a)
      case .jump(let a): stack.append(a)
      case .atStart(let next): if atStart { stack.append(next) }
      case .atEnd(let next): stack.append(next)
      case .match: accepts = true
      }
    }
    alive.sort()
    return (alive, accepts)
  }

  /// Decodes the (valid) UTF-8 scalar at `i`: value and width.
  @inline(__always)
  static func scalar(_ t: UnsafeBufferPointer<UInt8>, _ i: Int) -> (UInt32, Int) {
    let x = UInt32(t[i])
    if x < 0x80 { return (x, 1) }
    if x < 0xE0 { return ((x & 0x1F) << 6 | UInt32(t[i &+ 1] & 0x3F), 2) }
    if x < 0xF0 { return ((x & 0x0F) << 12 | UInt32(t[i &+ 1] & 0x3F) << 6 | UInt32(t[i &+ 2] & 0x3F), 3) }
    return (
      (x & 0x07) << 18 | UInt32(t[i &+ 1] & 0x3F) << 12 | UInt32(t[i &+ 2] & 0x3F) << 6 | UInt32(t[i &+ 3] & 0x3F), 4
    )
  }

  /// Emits Thompson code for a tree, back to front: each piece is given where to go next.
  struct Builder {
    var code: [Instruction] = [.jump(0), .match]
    let matchIndex = 1

    mutating func add(_ i: Instruction) -> Int {
      code.append(i)
      return code.count - 1
    }

    /// The entry of `node`'s code, which continues at `then`; nil when too large.
    mutating func emit(_ node: Node, then: Int) -> Int? {
      if code.count > RegexAutomaton.maxInstructions { return nil }
      switch node {
      case .empty: return then
      case .set(let s): return add(.set(s, next: then))
      case .atStart: return add(.atStart(next: then))
      case .atEnd: return add(.atEnd(next: then))
      case .sequence(let parts):
        var next = then
        for p in parts.reversed() {
          guard let entry = emit(p, then: next) else { return nil }
          next = entry
        }
        return next
      case .alternatives(let branches):
        var entries: [Int] = []
        for b in branches {
          guard let e = emit(b, then: then) else { return nil }
          entries.append(e)
        }
        var entry = entries[entries.count - 1]
        for e in entries.dropLast().reversed() { entry = add(.split(e, entry)) }
        return entry
      case .repeated(let inner, let lo, let hi):
        var next = then
        if let hi {
          // (hi - lo) optional copies, each skipping to `then`.
          for _ in 0..<(hi - lo) {
            guard let e = emit(inner, then: next) else { return nil }
            next = add(.split(e, then))
          }
        } else {
          // A star: split → inner → back to the split.
          let loop = add(.split(0, then))
          guard let e = emit(inner, then: loop) else { return nil }
          code[loop] = .split(e, then)
          next = loop
        }
        for _ in 0..<lo {
          guard let e = emit(inner, then: next) else { return nil }
          next = e
        }
        return next
      }
    }
  }
}
