/// The NSExpression built-in functions (`expressionForFunction:arguments:`).
///
/// Each has a selector (`modulus:by:`) and a short name (`modulus`); both spellings parse:
/// `modulus:by:(7, 2)` and, for one-part selectors, `sqrt(x)` or `sqrt:(x)`.
/// Unknown names are rejected at parse time.
///
/// ```swift
/// BuiltinFunction(spelling: "sqrt")?.arity   // 1...1
/// BuiltinFunction(spelling: "modulus:by:")   // .modulus
/// ```
public enum BuiltinFunction: String, Sendable, Hashable, CaseIterable {
  /// `sum:({1, 2})`: the sum of an array of numbers.
  case sum = "sum:"
  /// `count:({1, 2})`: the number of elements of an array.
  case count = "count:"
  /// `min:({1, 2})`: the smallest element.
  case min = "min:"
  /// `max:({1, 2})`: the largest element.
  case max = "max:"
  /// `average:({1, 2})`: the arithmetic mean.
  case average = "average:"
  /// `median:({1, 2, 3})`: the middle element (the mean of the two middle ones).
  case median = "median:"
  /// `mode:({1, 1, 2})`: the most frequent elements, as an array.
  case mode = "mode:"
  /// `stddev:({1, 2})`: the population standard deviation.
  case stddev = "stddev:"
  /// `add:to:(1, 2)`: `1 + 2`.
  case add = "add:to:"
  /// `from:subtract:(3, 1)`: `3 - 1`.
  case subtract = "from:subtract:"
  /// `multiply:by:(2, 3)`: `2 * 3`.
  case multiply = "multiply:by:"
  /// `divide:by:(6, 3)`: `6 / 3`.
  case divide = "divide:by:"
  /// `modulus:by:(7, 2)`: the remainder, `7 % 2`.
  case modulus = "modulus:by:"
  /// `sqrt:(9)`: the square root.
  case sqrt = "sqrt:"
  /// `log:(100)`: the base-10 logarithm.
  case log = "log:"
  /// `ln:(x)`: the natural logarithm.
  case ln = "ln:"
  /// `raise:toPower:(2, 10)`: `2 ** 10`.
  case raise = "raise:toPower:"
  /// `exp:(1)`: e raised to the argument.
  case exp = "exp:"
  /// `ceiling:(1.2)`: the smallest integer not below the argument.
  case ceiling = "ceiling:"
  /// `floor:(1.8)`: the largest integer not above the argument.
  case floor = "floor:"
  /// `abs:(-3)`: the absolute value.
  case abs = "abs:"
  /// `trunc:(-1.8)`: the integer part, rounded toward zero.
  case trunc = "trunc:"
  /// `random()`: a random number in `0..<1`.
  case random = "random"
  /// `random:({1, 2, 3})`: a random element of the array, as Apple defines it (nil for an
  /// empty array). Apple's random integer below a bound is `randomn:`.
  case randomElement = "random:"
  /// `randomn:(10)`: a random integer in `0..<10` (Apple's second spelling).
  case randomn = "randomn:"
  /// `now()`: the current date.
  case now = "now"
  /// `uppercase:("a")`: the string upper-cased.
  case uppercase = "uppercase:"
  /// `lowercase:("A")`: the string lower-cased.
  case lowercase = "lowercase:"
  /// `bitwiseAnd:with:(6, 3)`: `6 & 3`.
  case bitwiseAnd = "bitwiseAnd:with:"
  /// `bitwiseOr:with:(6, 3)`: `6 | 3`.
  case bitwiseOr = "bitwiseOr:with:"
  /// `bitwiseXor:with:(6, 3)`: `6 ^ 3`.
  case bitwiseXor = "bitwiseXor:with:"
  /// `leftshift:by:(1, 4)`: `1 << 4`.
  case leftShift = "leftshift:by:"
  /// `rightshift:by:(16, 4)`: `16 >> 4`.
  case rightShift = "rightshift:by:"
  /// `onesComplement:(0)`: `~0`.
  case onesComplement = "onesComplement:"
  /// `noindex:(x)`: `x` itself (Apple's hint not to use an index).
  case noindex = "noindex:"
  /// `distanceToLocation:fromLocation:(a, b)`: the great-circle distance in metres between two
  /// locations, each `{"latitude": …, "longitude": …}` or `{latitude, longitude}` in degrees
  /// (haversine over the IUGG mean Earth radius, 6,371,008.8 m).
  case distanceToLocation = "distanceToLocation:fromLocation:"

  /// The full selector, e.g. `raise:toPower:`.
  public var selector: String { rawValue }

  /// The first selector part without its colon, e.g. `raise`.
  public var shortName: String {
    String(rawValue.prefix { $0 != ":" })
  }

  /// True when the selector has more than one part (`add:to:`).
  public var isMultiPart: Bool { rawValue.filter { $0 == ":" }.count > 1 }

  /// False for the functions whose answer changes from call to call: `random()`, `random:`,
  /// `randomn:` and `now()`. The evaluator never folds them into a constant, and two runs of a
  /// predicate that calls one may answer differently.
  ///
  /// ```swift
  /// BuiltinFunction.sqrt.isDeterministic     // true
  /// BuiltinFunction.random.isDeterministic   // false
  /// ```
  public var isDeterministic: Bool {
    switch self {
    case .random, .randomElement, .randomn, .now: return false
    default: return true
    }
  }

  /// How many arguments the function takes.
  public var arity: ClosedRange<Int> {
    switch self {
    case .random, .now: return 0...0
    case .add, .subtract, .multiply, .divide, .modulus, .raise, .bitwiseAnd, .bitwiseOr,
      .bitwiseXor, .leftShift, .rightShift, .distanceToLocation:
      return 2...2
    default: return 1...1
    }
  }

  /// Finds a function from how it is written in a format string: the full selector
  /// (`modulus:by:`, `sqrt:`) or, for a one-part selector, the bare name (`sqrt`, `now`).
  /// `random` with one argument is `random:`; pass `argumentCount` to choose.
  public init?(spelling: String, argumentCount: Int? = nil) {
    if spelling == "random" {
      self = (argumentCount ?? 0) == 0 ? .random : .randomElement
      return
    }
    if let f = BuiltinFunction(rawValue: spelling) {
      self = f
      return
    }
    if spelling.hasSuffix(":") { return nil }
    guard let f = BuiltinFunction(rawValue: spelling + ":"), !f.isMultiPart else { return nil }
    self = f
  }

  /// How the printer writes the name: the bare name for one-part selectors, else the selector.
  public var printedName: String {
    switch self {
    case .random, .now: return rawValue
    case .randomElement: return "random"
    default: return isMultiPart ? rawValue : shortName
    }
  }
}

/// A printf-style format specifier found in a format string (`%@`, `%K`, `%lld`, …).
///
/// ```swift
/// FormatSpecifier(text: "%lld")?.expects   // .integer
/// ```
public struct FormatSpecifier: Sendable, Hashable, CustomStringConvertible {
  /// What kind of argument a specifier consumes.
  public enum Expectation: Sendable, Hashable {
    /// `%K`: a key path string.
    case keyPath
    /// `%@`: any value.
    case object
    /// `%d %i %u %x %X %o` with length modifiers: an integer.
    case integer
    /// `%u`-family: a non-negative integer.
    case unsignedInteger
    /// `%f %e %g %lf`: a number.
    case floatingPoint
    /// `%s`: a string.
    case string
    /// `%c`: one character (a one-character string or a code point).
    case character
  }

  /// The specifier as written, e.g. `%lld`.
  public var text: String
  /// What it consumes.
  public var expects: Expectation

  /// Classifies specifier text; nil for text that is not a supported specifier
  /// (`%k`, `%q`, `%%`).
  public init?(text: String) {
    // The two everyday specifiers first, without taking the text apart.
    if text == "%@" || text == "%K" {
      expects = text == "%@" ? .object : .keyPath
      self.text = text
      return
    }
    guard text.hasPrefix("%"), text.count >= 2 else { return nil }
    let body = text.dropFirst()
    guard let conversion = body.last else { return nil }
    let modifiers = String(body.dropLast())
    let allowedModifiers = FormatSpecifier.integerLengthModifiers
    switch conversion {
    case "@", "K":
      guard modifiers.isEmpty else { return nil }
      expects = conversion == "@" ? .object : .keyPath
    case "d", "i", "D":
      guard allowedModifiers.contains(modifiers) else { return nil }
      expects = .integer
    case "u", "U", "x", "X", "o", "O":
      guard allowedModifiers.contains(modifiers) else { return nil }
      expects = .unsignedInteger
    case "f", "e", "E", "g", "G", "F", "a", "A":
      guard ["", "l", "L"].contains(modifiers) else { return nil }
      expects = .floatingPoint
    case "s", "S":
      guard modifiers.isEmpty else { return nil }
      expects = .string
    case "c", "C":
      guard modifiers.isEmpty else { return nil }
      expects = .character
    default:
      return nil
    }
    self.text = text
  }

  /// The specifier text.
  public var description: String { text }

  /// Length modifiers accepted before an integer conversion (built once, not per specifier).
  static let integerLengthModifiers: Set<String> = ["", "h", "hh", "l", "ll", "q", "L", "z", "t", "j"]
}
