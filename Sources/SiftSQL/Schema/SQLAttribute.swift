import Foundation
import SiftSyntax

/// The type of an entity attribute. Scalar arrays are stored in a side table
/// `<table>__<column>(owner, position, value)` on both databases.
///
/// ```swift
/// SQLAttributeType(rawValue: "stringArray")?.elementType   // .string
/// ```
public enum SQLAttributeType: String, Sendable, Hashable, CaseIterable {
  /// The scalar types (`string` … `data`) and the scalar arrays stored in side tables (`stringArray`, `integerArray`, `doubleArray`).
  case string, integer, double, boolean, date, data, stringArray, integerArray, doubleArray
  /// A SQLite column that keeps each value as given (a STRICT table's `ANY` column, a column
  /// with no declared type): each row compares by the kind it stores (integer, real, text,
  /// blob), as memory compares the same values. SQLite only; predicates may test it for
  /// equality, `IN`, nil, ordering and the string operators (the last two checked per row).
  case any

  /// True for the `…Array` types.
  public var isArray: Bool { self == .stringArray || self == .integerArray || self == .doubleArray }

  /// The element type of an array type; the type itself otherwise.
  public var elementType: SQLAttributeType {
    switch self {
    case .stringArray: return .string
    case .integerArray: return .integer
    case .doubleArray: return .double
    default: return self
    }
  }
}

/// How the elements of a scalar-array attribute are stored.
///
/// ```swift
/// SQLArrayStorage(rawValue: "json")   // .json
/// ```
public enum SQLArrayStorage: String, Sendable, Hashable, CaseIterable {
  /// Sift's side table `<table>__<column>(owner, position, value)` (the default: the only
  /// storage of a database Sift created).
  case sideTable
  /// A native array column (PostgreSQL `text[]`, `integer[]`, `double precision[]`).
  case nativeArray = "array"
  /// A JSON array in one column (PostgreSQL `jsonb`, SQLite TEXT read with `json_each`).
  case json
}

/// A typed attribute of an entity, stored in one column (or a side table for arrays).
///
/// ```swift
/// let price = SQLAttribute(name: "price", type: .double, indexed: true)
/// ```
public struct SQLAttribute: Sendable, Hashable {
  /// The key used in predicates.
  public var name: String
  /// The column (or, for arrays, the side-table suffix); defaults to `name`.
  public var column: String
  /// The type.
  public var type: SQLAttributeType
  /// Whether the DDL creates an index on the column; for an introspected schema, whether an
  /// index of the table has this column first.
  public var indexed: Bool
  /// The column's type as the database declares it (`TIMESTAMPTZ`, `text[]`, `numeric(10,2)`,
  /// `DATETIME`, `jsonb`), or nil for a column Sift created from `type`. The compiler chooses
  /// casts and operators from it (e.g. `numeric`, `uuid`, `timestamptz`).
  public var nativeType: String?
  /// False when the column is `NOT NULL` (a primary key is never null); true by default.
  public var isNullable: Bool
  /// How this date column is stored, when it differs from the schema's `dateEncoding`; nil
  /// for the schema's (and for non-date attributes).
  public var dateEncoding: SQLDateEncoding?
  /// How this array attribute is stored; nil for Sift's side table (and for non-arrays).
  public var arrayStorage: SQLArrayStorage?

  /// Creates an attribute.
  public init(
    name: String, column: String? = nil, type: SQLAttributeType, indexed: Bool = false,
    nativeType: String? = nil, isNullable: Bool = true, dateEncoding: SQLDateEncoding? = nil,
    arrayStorage: SQLArrayStorage? = nil
  ) {
    self.name = name
    self.column = column ?? name
    self.type = type
    self.indexed = indexed
    self.nativeType = nativeType
    self.isNullable = isNullable
    self.dateEncoding = dateEncoding
    self.arrayStorage = arrayStorage
  }

  /// The date encoding of this attribute in `schema`: its own, else the schema's.
  public func dateEncoding(in schema: SQLSchema) -> SQLDateEncoding { dateEncoding ?? schema.dateEncoding }

  /// The array storage of this attribute: its own, else Sift's side table.
  public var effectiveArrayStorage: SQLArrayStorage { arrayStorage ?? .sideTable }
}
