import SiftSyntax

/// What to fetch: an entity, an optional predicate, sort descriptors, limit and offset, and
/// the shape of the result.
///
/// ```swift
/// let request = FetchRequest(
///   entity: "Venue", predicate: try SiftPredicate(format: "distance < %@", 5),
///   sortDescriptors: [SQLSortDescriptor("name", comparison: .caseInsensitive)], limit: 20)
/// let statement = try SQLCompiler(dialect: SQLiteDialect(), schema: schema).compile(request)
/// ```
public struct FetchRequest: Sendable {
  /// The result shape.
  public enum ResultType: Sendable, Hashable {
    /// One row per record: the entity's column attributes (see `SQLCompiler.recordColumns`).
    case records
    /// One row with one integer.
    case count
    /// The distinct values of a key path (to-one paths allowed), sorted, nil first.
    case distinct(String)
    /// One row per group: the group-by key paths' values, then each aggregate.
    case aggregates([SQLAggregate], groupBy: [String])
    /// The matching records' positions in the JSON array they were loaded from, ascending.
    case indices
  }

  /// The entity name.
  public var entity: String
  /// The filter; nil fetches everything.
  public var predicate: SiftPredicate?
  /// Sort order; the primary key is always added last as a tiebreaker for stable paging.
  public var sortDescriptors: [SQLSortDescriptor]
  /// At most this many rows (≥ 0).
  public var limit: Int?
  /// Skip this many rows first (≥ 0).
  public var offset: Int?
  /// The result shape.
  public var resultType: ResultType

  /// Creates a request.
  public init(
    entity: String, predicate: SiftPredicate? = nil, sortDescriptors: [SQLSortDescriptor] = [],
    limit: Int? = nil, offset: Int? = nil, resultType: ResultType = .records
  ) {
    self.entity = entity
    self.predicate = predicate
    self.sortDescriptors = sortDescriptors
    self.limit = limit
    self.offset = offset
    self.resultType = resultType
  }
}

/// One sort key of a fetch request.
///
/// Nil ordering follows `compare:` (nil is the smallest value): first when ascending, last
/// when descending, unless `nulls` says otherwise. It is always emitted explicitly, since
/// SQLite and PostgreSQL disagree on the default.
///
/// ```swift
/// SQLSortDescriptor("location.city", ascending: false, comparison: .localizedStandard, nulls: .last)
/// ```
public struct SQLSortDescriptor: Sendable, Hashable {
  /// How strings compare.
  public enum Comparison: Sendable, Hashable {
    /// By code point (`compare:`).
    case binary
    /// Folded by `[c]` rules first (`caseInsensitiveCompare:`).
    case caseInsensitive
    /// `localizedStandardCompare:` (SQLite: the `SIFT_LOCALIZED` collation; PostgreSQL: ICU).
    case localizedStandard
  }

  /// Where nil values go.
  public enum NullPlacement: Sendable, Hashable {
    /// First when ascending, last when descending (nil is smallest).
    case automatic
    /// Always first.
    case first
    /// Always last.
    case last
  }

  /// A key path of the entity (to-one steps allowed).
  public var keyPath: String
  /// Ascending (default) or descending.
  public var ascending: Bool
  /// String comparison.
  public var comparison: Comparison
  /// Nil placement.
  public var nulls: NullPlacement

  /// Creates a sort descriptor.
  public init(_ keyPath: String, ascending: Bool = true, comparison: Comparison = .binary, nulls: NullPlacement = .automatic) {
    self.keyPath = keyPath
    self.ascending = ascending
    self.comparison = comparison
    self.nulls = nulls
  }
}

/// One aggregate column of a `.aggregates` fetch: `sum(price)`, `count()`, ….
///
/// Empty-set rules match in-memory collection operators: `sum` of nothing is 0, `avg`,
/// `min` and `max` of nothing are nil, `count` is 0. `avg`, `min` and `max` skip nil values.
///
/// ```swift
/// SQLAggregate(.avg, "distance", name: "meanDistance")
/// ```
public struct SQLAggregate: Sendable, Hashable {
  /// The aggregate function.
  public enum Function: String, Sendable, Hashable { case count, sum, avg, min, max }

  /// The function.
  public var function: Function
  /// The key path aggregated; nil for `count` of records.
  public var keyPath: String?
  /// The result column name; defaults to `function(keyPath)`.
  public var name: String

  /// Creates an aggregate.
  public init(_ function: Function, _ keyPath: String? = nil, name: String? = nil) {
    self.function = function
    self.keyPath = keyPath
    self.name = name ?? function.rawValue + "(" + (keyPath ?? "") + ")"
  }
}
