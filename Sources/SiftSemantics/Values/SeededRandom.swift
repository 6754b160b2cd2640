/// A small, fast, portable seeded random generator (Steele, Lea and Flood's SplitMix64): the
/// same seed gives the same values on every platform, so generated sample data and failing
/// randomized test cases can be reproduced from their seed. Not for security.
///
/// ```swift
/// var rng = SeededRandom(seed: 42)
/// let die = rng.int(in: 1...6)
/// let tag = rng.pick(["wifi", "vegan"])
/// ```
package struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  ///
  /// ```swift
  /// var a = SeededRandom(seed: 7), b = SeededRandom(seed: 7)
  /// a.next() == b.next()   // true
  /// ```
  package init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  ///
  /// ```swift
  /// var rng = SeededRandom(seed: 1)
  /// let bits = rng.next()
  /// ```
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A value in `0..<n` by remainder (slightly biased, cheap; 0 when `n` is not positive).
  ///
  /// ```swift
  /// var rng = SeededRandom(seed: 1)
  /// let index = rng.below(10)   // 0...9
  /// ```
  package mutating func below(_ n: Int) -> Int {
    guard n > 0 else { return 0 }
    return Int(next() % UInt64(n))
  }

  /// A value in `range`, uniformly.
  ///
  /// ```swift
  /// var rng = SeededRandom(seed: 1)
  /// let die = rng.int(in: 1...6)
  /// ```
  package mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  /// True with probability `p`.
  ///
  /// ```swift
  /// var rng = SeededRandom(seed: 1)
  /// if rng.chance(0.1) { print("rare") }
  /// ```
  package mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

  /// One of `items`, uniformly (`items` must not be empty).
  ///
  /// ```swift
  /// var rng = SeededRandom(seed: 1)
  /// let city = rng.pick(["Zurich", "Berlin"])
  /// ```
  package mutating func pick<T>(_ items: [T]) -> T {
    items[Int.random(in: 0..<items.count, using: &self)]
  }
}
