/// One aggregate column of a `.aggregates` fetch: `sum(price)`, `count()`, … — what an
/// `NSExpressionDescription` with `sum:(price)` asks Core Data for.
///
/// The rules, in every engine: nil values are skipped; `count` of records counts rows, of a
/// key path its non-nil values; `sum` of nothing is 0 (an integer sum continues in doubles
/// once it overflows); `avg` is the left-to-right double sum over the count; `avg`, `min`,
/// `max`, `median` and `stddev` of nothing are nil; `min`/`max` order strings by code point.
/// `median` and `stddev` are evaluated in memory only (SQL refuses them).
///
/// ```swift
/// SiftAggregate(.avg, "distance", name: "meanDistance")
/// try SiftAggregate(try SiftExpression(format: "sum:(specialCount)"))   // sum(specialCount)
/// ```
public struct SiftAggregate: Sendable, Hashable {
  /// The aggregate function.
  public enum Function: String, Sendable, Hashable, CaseIterable {
    /// The aggregate: `count`, `sum`, `avg`, `min`, `max`, `median` or `stddev` of the key's values.
    case count, sum, avg, min, max, median, stddev
  }

  /// The function.
  public var function: Function
  /// The key path aggregated; nil for `count` of records.
  public var keyPath: String?
  /// The result column name; defaults to `function(keyPath)`.
  public var name: String

  /// Creates an aggregate.
  ///
  /// ```swift
  /// SiftAggregate(.count)   // count()
  /// ```
  public init(_ function: Function, _ keyPath: String? = nil, name: String? = nil) {
    self.function = function
    self.keyPath = keyPath
    self.name = name ?? function.rawValue + "(" + (keyPath ?? "") + ")"
  }

  /// The aggregate an expression names: `sum:(x)`, `count:(x)`, `min:(x)`, `max:(x)`,
  /// `average:(x)`, `median:(x)`, `stddev:(x)` over one key path (Core Data's
  /// `NSExpressionDescription`); `count:(SELF)` counts records.
  ///
  /// ```swift
  /// let a = try SiftAggregate(try SiftExpression(format: "average:(rating)"), name: "mean")
  /// ```
  /// - Throws: `SiftError` (stage `.parse`, id `not-an-aggregate`) pointing at the expression
  ///   when it is anything else.
  public init(_ expression: SiftExpression, name: String? = nil) throws(SiftError) {
    let root = expression.root
    func fail(_ message: String) -> SiftError {
      SiftError(
        stage: .parse, diagnostic: SiftDiagnostic(id: .notAnAggregate, message: message, range: root.range),
        source: expression.source)
    }
    guard case .function(let f, let args) = root.kind, args.count == 1 else {
      throw fail(
        "an aggregate over the fetch is sum:, count:, min:, max:, average:, median: or stddev: of one key path")
    }
    let function: Function
    switch f {
    case .sum: function = .sum
    case .count: function = .count
    case .min: function = .min
    case .max: function = .max
    case .average: function = .avg
    case .median: function = .median
    case .stddev: function = .stddev
    default: throw fail("'\(f.rawValue)' is not an aggregate over the fetch")
    }
    switch args[0].kind {
    case .evaluatedObject where function == .count:
      self.init(.count, nil, name: name ?? expression.expressionFormat)
    case .keyPath(.none, let kp)
    where kp.components.allSatisfy({ if case .key = $0 { return true } else { return false } }):
      self.init(function, kp.description, name: name ?? expression.expressionFormat)
    default:
      throw fail("the argument of \(f.rawValue) must be a key path of the entity")
    }
  }
}
