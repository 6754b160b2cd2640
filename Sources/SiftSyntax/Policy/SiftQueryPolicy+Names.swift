import Foundation

extension SiftQueryPolicy {
  /// The names `deny` accepts, canonical spelling (matched without regard to case; `=`, `<>`,
  /// `=<`, `=>` and `SOME` are read as `==`, `!=`, `<=`, `>=` and `ANY`):
  ///
  /// - comparison operators: every `ComparisonOperator`'s `keyword` (`==`, `<`, `BETWEEN`,
  ///   `IN`, `CONTAINS`, `BEGINSWITH`, `LIKE`, `MATCHES`, `UTI-EQUALS`, …);
  /// - quantifiers and connectives: `ANY`, `ALL`, `NONE`, `NOT`, `OR`;
  /// - constructs: `SUBQUERY`, `FUNCTION` (registered functions), `CAST`, `TERNARY`;
  /// - `AGGREGATES`: every collection operator (`@count`, `@sum`, …) and the aggregate
  ///   functions (`sum:`, `count:`, `min:`, `max:`, `average:`, `median:`, `mode:`, `stddev:`);
  ///   one operator alone by its spelling (`@count`);
  /// - `ARITHMETIC`: the operators `+ - * / ** & | ^ << >> ~`, unary minus, and the numeric
  ///   built-in functions; one operator alone by its symbol (`**`);
  /// - the set operators `UNION`, `INTERSECT`, `MINUS`, each by its keyword (not `ARITHMETIC`);
  /// - a built-in function by its selector or short name (`now`, `random`, `uppercase:`).
  ///
  /// ```swift
  /// SiftQueryPolicy.constructNames.contains("SUBQUERY")   // true
  /// ```
  public static let constructNames: [String] = {
    var names = ComparisonOperator.allCases.map(\.keyword)
    names += SiftQuantifier.allCases.map(\.keyword)
    names += ["NOT", "OR", "SUBQUERY", "FUNCTION", "CAST", "TERNARY", "AGGREGATES", "ARITHMETIC"]
    names += CollectionOperator.allCases.map(\.spelling)
    names += BinaryOperator.allCases.map(\.symbol)
    names += ["~"]
    names += BuiltinFunction.allCases.map(\.shortName)
    var seen: Set<String> = []
    return names.filter { seen.insert($0.uppercased()).inserted }
  }()

  /// The canonical name for a `deny` entry, or nil when unknown.
  static func canonicalConstruct(_ name: String) -> String? {
    let aliases = ["=": "==", "<>": "!=", "=<": "<=", "=>": ">=", "SOME": "ANY"]
    let upper = name.trimmingCharacters(in: .whitespaces).uppercased()
    let wanted = aliases[upper] ?? upper
    // Built-in functions may be written with their selector (`uppercase:`, `modulus:by:`).
    if let f = BuiltinFunction(rawValue: name) { return f.shortName.uppercased() }
    return constructNames.first { $0.uppercased() == wanted }.map { $0.uppercased() }
  }

  /// The aggregate built-in functions (denied by `AGGREGATES`).
  static let aggregateFunctions: Set<BuiltinFunction> = [.sum, .count, .min, .max, .average, .median, .mode, .stddev]

  /// The numeric built-in functions (denied by `ARITHMETIC`).
  static let arithmeticFunctions: Set<BuiltinFunction> = [
    .add, .subtract, .multiply, .divide, .modulus, .sqrt, .log, .ln, .raise, .exp, .ceiling, .floor, .abs, .trunc,
    .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift, .onesComplement,
  ]

  /// Is any of `names` (canonical, any case) denied? Returns the first denied one.
  func denied(_ names: String...) -> String? {
    for n in names where deny.contains(n.uppercased()) { return n }
    return nil
  }
}
