import SiftSyntax

/// A row of an entity: SELF, a to-one target, or a subquery variable over objects.
struct RowRef: Sendable {
  var entity: SQLEntityRef
  /// The row's primary key as SQL (NULL when a to-one relationship is empty).
  var key: SQLExpr
  /// The alias the row is reachable under in the current FROM, if it is one (`t0`).
  var alias: SQLAlias?
  /// True for a to-one target joined to the statement's FROM (`SQLToOneJoin`): its columns,
  /// primary key included, are NULL when the relationship is empty.
  var joined = false
  /// True for the root row (alias `t0`).
  var isRoot: Bool { alias == .root }
}

/// A table alias in a compiled statement: `t0` for the root row, `t1`, `t2`, … for the
/// subselects and `j1`, … for join tables.
struct SQLAlias: Sendable, Equatable {
  let name: String

  init(_ name: String) { self.name = name }

  static let root = SQLAlias("t0")

}

/// The elements of a to-many relationship, a scalar-array side table or a SUBQUERY: a FROM
/// clause, a correlation condition, and what one element is.
struct SQLCollection: Sendable {
  enum Element: Sendable {
    case row(RowRef)
    case value(SQLExpr)
  }

  /// `"menuitem" t3` (identifiers only, never bindings).
  var from: SQLFragment
  /// Correlation plus SUBQUERY filters.
  var condition: SQLExpr
  var element: Element
  /// The side table's position column, or an ordered to-many's order column, for `[FIRST]`,
  /// `[LAST]`, `[n]`.
  var position: SQLFragment?
  /// True when `position` holds 0, 1, 2, … (a side table); false for an order key whose
  /// values only order (Core Data's sparse `Z_FOK_…`): `[n]` is then the n-th by order.
  var positionIsIndex = true
  /// From `@distinctUnionOfObjects`: count distinct elements.
  var distinct = false
  /// The owner's element count (NULL when the collection is nil), if stored; for an array
  /// kept in one column, the column itself (NULL when nil), with its count in `length`.
  var presence: SQLExpr?
  /// The element count computed from the owner's column (`json_array_length(col)`,
  /// `cardinality(col)`), NULL for a nil array; nil when `presence` is the count.
  var length: SQLExpr? = nil
  /// True once SUBQUERY or a union operator narrowed the elements.
  var filtered = false
  /// For a set expression's result: its compound SELECT (`from` without the parentheses and
  /// alias), which a set operator applied to it continues rather than nests.
  var compound: SQLFragment? = nil
  /// Whether `compound`'s column is cast to the dialect's exact numeric type.
  var compoundIsExact = false
}

extension SQLCompilation {
  /// `FROM … WHERE …` for a subselect over the elements of `c`, with `extra` conditions.
  func fromWhere(_ c: SQLCollection, _ extra: [SQLExpr] = []) -> SQLFragment {
    let cond = extra.isEmpty ? c.condition : and([c.condition] + extra)
    return SQLFragment("FROM \(c.from) WHERE \(cond)")
  }
}

/// What an expression compiles to before it is used.
enum Operand: Sendable {
  /// A single SQL value.
  case value(SQLExpr)
  /// A constant not yet bound, so it can be coerced to the type it meets.
  case constant(SiftValue)
  /// An entity row.
  case row(RowRef)
  /// A collection of elements.
  indirect case collection(SQLCollection)
  /// A non-constant aggregate `{a, b}`.
  case list([Operand])

  var kindName: String {
    switch self {
    case .value: return "a value"
    case .constant(let v): return v.kindName
    case .row(let r): return "an object of entity \(r.entity.name)"
    case .collection: return "a to-many collection"
    case .list: return "an aggregate"
    }
  }
}
