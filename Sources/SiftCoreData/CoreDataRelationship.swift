/// A relationship of an entity.
///
/// ```swift
/// let tags = CoreDataRelationship(name: "tags", destination: "Tag", inverseName: "items", isToMany: true)
/// ```
public struct CoreDataRelationship: Sendable, Hashable {
  /// What happens to the destination when the source is deleted.
  public enum DeletionRule: String, Sendable, Hashable, CaseIterable {
    /// "Nullify": deleting the source clears the inverse.
    case nullify = "Nullify"
    /// "Cascade": deleting the source deletes the destinations.
    case cascade = "Cascade"
    /// "Deny": the source cannot be deleted while destinations exist.
    case deny = "Deny"
    /// "No Action": nothing happens to the destinations.
    case noAction = "No Action"
  }

  /// How a relationship and its inverse combine (see `CoreDataModel.cardinality(of:)`).
  public enum Cardinality: String, Sendable, Hashable {
    /// To-one without an inverse: a foreign-key column on the source.
    case toOne
    /// To-one whose inverse is to-one: foreign-key columns on both sides.
    case oneToOne
    /// To-one whose inverse is to-many: a foreign-key column on the source.
    case manyToOne
    /// To-many whose inverse is to-one: the inverse's foreign-key column on the destination.
    case oneToMany
    /// To-many whose inverse is to-many: a join table `Z_<n><NAME>`.
    case manyToMany
    /// To-many without an inverse (Core Data warns against it; storage not described publicly).
    case toManyWithoutInverse
  }

  /// The key.
  public var name: String
  /// The destination entity's name (`destinationEntity`).
  public var destination: String
  /// The inverse relationship's name (`inverseName`), if any.
  public var inverseName: String?
  /// The entity declaring the inverse (`inverseEntity`); nil means `destination`.
  public var inverseEntity: String?
  /// `toMany="YES"`.
  public var isToMany: Bool
  /// `ordered="YES"` (an ordered set; stored with a `Z_FOK_…` order column).
  public var isOrdered: Bool
  /// `optional="YES"`.
  public var isOptional: Bool
  /// `minCount`, if given.
  public var minCount: Int?
  /// `maxCount`, if given (`1` on to-ones).
  public var maxCount: Int?
  /// `deletionRule`.
  public var deletionRule: DeletionRule
  /// `transient="YES"`.
  public var isTransient: Bool
  /// The line of the `<relationship>` element, when read from a file.
  public var line: Int?

  /// Creates a relationship.
  public init(
    name: String, destination: String, inverseName: String? = nil, inverseEntity: String? = nil,
    isToMany: Bool = false, isOrdered: Bool = false, isOptional: Bool = true, minCount: Int? = nil,
    maxCount: Int? = nil, deletionRule: DeletionRule = .nullify, isTransient: Bool = false, line: Int? = nil
  ) {
    self.name = name
    self.destination = destination
    self.inverseName = inverseName
    self.inverseEntity = inverseEntity
    self.isToMany = isToMany
    self.isOrdered = isOrdered
    self.isOptional = isOptional
    self.minCount = minCount
    self.maxCount = maxCount
    self.deletionRule = deletionRule
    self.isTransient = isTransient
    self.line = line
  }
}
