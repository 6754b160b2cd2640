/// An entity of a `CoreDataModel`: its own properties (inherited ones live on the ancestors;
/// see `CoreDataModel.allAttributes(of:)`).
///
/// ```swift
/// let novel = CoreDataEntity(name: "Novel", parentName: "Book",
///                            attributes: [CoreDataAttribute(name: "genre", type: .string)])
/// ```
public struct CoreDataEntity: Sendable, Hashable {
  /// The entity name (`Z_PRIMARYKEY.Z_NAME` in a store).
  public var name: String
  /// The class name Xcode generates or maps to (`representedClassName`), if given.
  public var representedClassName: String?
  /// The parent entity's name (`parentEntity`).
  public var parentName: String?
  /// Whether the entity is abstract (`isAbstract="YES"`): no object is of exactly this entity.
  public var isAbstract: Bool
  /// Attributes declared on this entity, in file order.
  public var attributes: [CoreDataAttribute]
  /// Relationships declared on this entity, in file order.
  public var relationships: [CoreDataRelationship]
  /// Fetched properties declared on this entity.
  public var fetchedProperties: [CoreDataFetchedProperty]
  /// Fetch indexes declared on this entity.
  public var fetchIndexes: [CoreDataFetchIndex]
  /// Uniqueness constraints: each a list of property names unique together.
  public var uniquenessConstraints: [[String]]
  /// The line of the `<entity>` element, when read from a file.
  public var line: Int?

  /// Creates an entity.
  public init(
    name: String, representedClassName: String? = nil, parentName: String? = nil, isAbstract: Bool = false,
    attributes: [CoreDataAttribute] = [], relationships: [CoreDataRelationship] = [],
    fetchedProperties: [CoreDataFetchedProperty] = [], fetchIndexes: [CoreDataFetchIndex] = [],
    uniquenessConstraints: [[String]] = [], line: Int? = nil
  ) {
    self.name = name
    self.representedClassName = representedClassName
    self.parentName = parentName
    self.isAbstract = isAbstract
    self.attributes = attributes
    self.relationships = relationships
    self.fetchedProperties = fetchedProperties
    self.fetchIndexes = fetchIndexes
    self.uniquenessConstraints = uniquenessConstraints
    self.line = line
  }

  /// This entity's own attribute named `name`.
  ///
  /// ```swift
  /// entity.attribute("title")?.type   // .string
  /// ```
  public func attribute(_ name: String) -> CoreDataAttribute? { attributes.first { $0.name == name } }

  /// This entity's own relationship named `name`.
  ///
  /// ```swift
  /// entity.relationship("tags")?.isToMany   // true
  /// ```
  public func relationship(_ name: String) -> CoreDataRelationship? { relationships.first { $0.name == name } }
}
