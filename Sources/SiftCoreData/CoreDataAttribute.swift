/// The attribute types of the model file's `attributeType`, spelled as Xcode writes them.
///
/// ```swift
/// CoreDataAttributeType(rawValue: "Integer 64")   // .integer64
/// ```
public enum CoreDataAttributeType: String, Sendable, Hashable, CaseIterable {
  /// "Integer 16": a 16-bit integer.
  case integer16 = "Integer 16"
  /// "Integer 32": a 32-bit integer.
  case integer32 = "Integer 32"
  /// "Integer 64": a 64-bit integer.
  case integer64 = "Integer 64"
  /// "Decimal": a decimal number.
  case decimal = "Decimal"
  /// "Double": a 64-bit floating-point number.
  case double = "Double"
  /// "Float": a 32-bit floating-point number.
  case float = "Float"
  /// "String": text.
  case string = "String"
  /// "Boolean": stored as 0 or 1.
  case boolean = "Boolean"
  /// "Date": stored as seconds since 2001.
  case date = "Date"
  /// "Binary": bytes.
  case binary = "Binary"
  /// "UUID": a universally unique identifier.
  case uuid = "UUID"
  /// "URI": a URL.
  case uri = "URI"
  /// "Transformable": archived bytes, opaque to predicates.
  case transformable = "Transformable"
  /// Only for transient attributes.
  case undefined = "Undefined"
  /// Only for transient attributes (an object ID).
  case objectID = "ObjectID"

  /// True for the types a stored (non-transient) attribute may have.
  ///
  /// ```swift
  /// CoreDataAttributeType.undefined.isStorable   // false
  /// ```
  public var isStorable: Bool { self != .undefined && self != .objectID }
}

/// An attribute of an entity.
///
/// ```swift
/// let title = CoreDataAttribute(name: "title", type: .string, isOptional: false)
/// title.isStored   // true
/// ```
public struct CoreDataAttribute: Sendable, Hashable {
  /// The key.
  public var name: String
  /// The type.
  public var type: CoreDataAttributeType
  /// `optional="YES"`: nil is allowed. Absent in the file means required.
  public var isOptional: Bool
  /// `transient="YES"`: kept in memory only, never in the store.
  public var isTransient: Bool
  /// `derived="YES"`: computed by Core Data from `derivationExpression` when it saves and kept
  /// in the attribute's column, which fetches read (`derivation()` parses the expression;
  /// `CoreDataModel.derivedValues(of:in:)` computes it in memory).
  public var isDerived: Bool
  /// The derivation expression of a derived attribute.
  public var derivationExpression: String?
  /// `defaultValueString`, as written.
  public var defaultValue: String?
  /// `indexed="YES"` (the pre-Xcode 8 per-attribute index flag).
  public var isIndexed: Bool
  /// The line of the `<attribute>` element, when read from a file.
  public var line: Int?

  /// Creates an attribute.
  public init(
    name: String, type: CoreDataAttributeType, isOptional: Bool = true, isTransient: Bool = false,
    isDerived: Bool = false, derivationExpression: String? = nil, defaultValue: String? = nil,
    isIndexed: Bool = false, line: Int? = nil
  ) {
    self.name = name
    self.type = type
    self.isOptional = isOptional
    self.isTransient = isTransient
    self.isDerived = isDerived
    self.derivationExpression = derivationExpression
    self.defaultValue = defaultValue
    self.isIndexed = isIndexed
    self.line = line
  }

  /// Whether the attribute has a column Sift reads: not transient (a derived attribute is
  /// stored: Core Data keeps its value in its column).
  public var isStored: Bool { !isTransient }
}
