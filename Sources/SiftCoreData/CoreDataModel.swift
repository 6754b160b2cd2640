import Foundation

/// A Core Data managed object model read from an `.xcdatamodeld` bundle, an `.xcdatamodel`
/// folder or its `contents` XML: entities with their attributes and relationships, and the
/// model's fetch request templates. A plain value; nothing here needs Apple's Core Data.
///
/// ```swift
/// let model = try CoreDataModel(contentsOf: URL(fileURLWithPath: "Library.xcdatamodeld"))
/// model.entity("Novel")?.parentName              // "Book"
/// model.fetchRequest("BooksByAuthor")?.variables // ["AUTHOR"]
/// ```
public struct CoreDataModel: Sendable, Hashable {
  /// Entities in the order the file declares them.
  public private(set) var entities: [CoreDataEntity]
  /// Fetch request templates (`<fetchRequest>` elements of the model), in file order.
  public private(set) var fetchRequests: [CoreDataFetchRequest]
  /// The file the model was read from (the `contents` XML), or a caller-given name.
  public var file: String
  /// The version folder read from a bundle (`Model 2.xcdatamodel`), nil for a lone file.
  public var versionName: String?
  private var entityIndex: [String: Int]

  /// Creates a model from already built parts and checks that names resolve (parents,
  /// destinations, inverses) and that the inheritance has no cycle.
  ///
  /// ```swift
  /// let book = CoreDataEntity(name: "Book", attributes: [CoreDataAttribute(name: "title", type: .string)])
  /// let model = try CoreDataModel(entities: [book])
  /// ```
  /// - Throws: `CoreDataModelError` naming the first problem.
  public init(
    entities: [CoreDataEntity], fetchRequests: [CoreDataFetchRequest] = [], file: String = "<model>",
    versionName: String? = nil
  ) throws(CoreDataModelError) {
    self.entities = entities
    self.fetchRequests = fetchRequests
    self.file = file
    self.versionName = versionName
    var index: [String: Int] = [:]
    for (i, e) in entities.enumerated() {
      if index[e.name] != nil {
        throw CoreDataModelError(file: file, line: e.line, element: "entity", message: "entity '\(e.name)' is defined twice")
      }
      index[e.name] = i
    }
    self.entityIndex = index
    try validate()
  }

  /// The entity named `name`.
  ///
  /// ```swift
  /// model.entity("Book")?.isAbstract   // false
  /// ```
  public func entity(_ name: String) -> CoreDataEntity? { entityIndex[name].map { entities[$0] } }

  /// The fetch request template named `name`.
  ///
  /// ```swift
  /// model.fetchRequest("RecentBooks")?.predicateString   // "published > $SINCE"
  /// ```
  public func fetchRequest(_ name: String) -> CoreDataFetchRequest? { fetchRequests.first { $0.name == name } }

  /// Names of the entities without a parent, in file order.
  ///
  /// ```swift
  /// model.rootEntityNames   // ["Author", "Item", "Tag"]
  /// ```
  public var rootEntityNames: [String] { entities.filter { $0.parentName == nil }.map(\.name) }

  /// The root of `name`'s hierarchy (itself when it has no parent); nil for an unknown name.
  ///
  /// ```swift
  /// model.rootEntity(of: "Novel")?.name   // "Item"
  /// ```
  public func rootEntity(of name: String) -> CoreDataEntity? {
    guard var e = entity(name) else { return nil }
    while let p = e.parentName, let parent = entity(p) { e = parent }
    return e
  }

  /// `name` and its ancestors, nearest first.
  ///
  /// ```swift
  /// model.lineage(of: "Novel").map(\.name)   // ["Novel", "Book", "Item"]
  /// ```
  public func lineage(of name: String) -> [CoreDataEntity] {
    var out: [CoreDataEntity] = []
    var next = entity(name)
    while let e = next {
      out.append(e)
      next = e.parentName.flatMap { entity($0) }
    }
    return out
  }

  /// The direct sub-entities of `name`, sorted by name.
  ///
  /// ```swift
  /// model.subentityNames(of: "Book")   // ["Comic", "Novel"]
  /// ```
  public func subentityNames(of name: String) -> [String] {
    entities.filter { $0.parentName == name }.map(\.name).sorted()
  }

  /// `name` and every entity below it, depth first, siblings by name.
  ///
  /// ```swift
  /// model.hierarchy(of: "Book")   // ["Book", "Comic", "Novel"]
  /// ```
  public func hierarchy(of name: String) -> [String] {
    guard entity(name) != nil else { return [] }
    return [name] + subentityNames(of: name).flatMap { hierarchy(of: $0) }
  }

  /// Every attribute `name` has, inherited ones first (root's first), then its own.
  ///
  /// ```swift
  /// model.allAttributes(of: "Novel").map(\.name)   // ["title", "pages", "genre"]
  /// ```
  public func allAttributes(of name: String) -> [CoreDataAttribute] {
    lineage(of: name).reversed().flatMap(\.attributes)
  }

  /// Every relationship `name` has, inherited ones first.
  ///
  /// ```swift
  /// model.allRelationships(of: "Novel").map(\.name)   // ["authors"]
  /// ```
  public func allRelationships(of name: String) -> [CoreDataRelationship] {
    lineage(of: name).reversed().flatMap(\.relationships)
  }

  /// The relationship `relationship.inverseName` on its destination (or an ancestor of the
  /// destination), if the relationship has an inverse.
  ///
  /// ```swift
  /// model.inverse(of: model.entity("Book")!.relationships[0])?.name   // "books"
  /// ```
  public func inverse(of relationship: CoreDataRelationship) -> CoreDataRelationship? {
    guard let inv = relationship.inverseName else { return nil }
    let owner = relationship.inverseEntity ?? relationship.destination
    return allRelationships(of: owner).first { $0.name == inv }
  }

  /// How `relationship` is stored, which depends on its inverse.
  ///
  /// ```swift
  /// model.cardinality(of: tags)   // .manyToMany
  /// ```
  public func cardinality(of relationship: CoreDataRelationship) -> CoreDataRelationship.Cardinality {
    let inverse = self.inverse(of: relationship)
    switch (relationship.isToMany, inverse?.isToMany) {
    case (false, nil): return .toOne
    case (false, false?): return .oneToOne
    case (false, true?): return .manyToOne
    case (true, false?): return .oneToMany
    case (true, true?): return .manyToMany
    case (true, nil): return .toManyWithoutInverse
    }
  }

  /// Entity numbers as Core Data assigns them in `Z_PRIMARYKEY.Z_ENT`, as observed in real
  /// stores (Grammar/notes/coredata.md): root entities by name, each followed by its
  /// descendants depth first, siblings by name, counting from 1. A real store's numbers should
  /// be read from its `Z_PRIMARYKEY` table instead; this is for stores built from the model.
  ///
  /// ```swift
  /// model.entityNumbers()   // ["Author": 1, "Item": 2, "Book": 3, "Comic": 4, "Novel": 5, "Tag": 6]
  /// ```
  public func entityNumbers() -> [String: Int] {
    var out: [String: Int] = [:]
    var n = 0
    for root in rootEntityNames.sorted() {
      for name in hierarchy(of: root) {
        n += 1
        out[name] = n
      }
    }
    return out
  }

  private func fail(_ line: Int?, _ element: String, _ message: String) -> CoreDataModelError {
    CoreDataModelError(file: file, line: line, element: element, message: message)
  }

  private func validate() throws(CoreDataModelError) {
    for e in entities {
      if let p = e.parentName, entity(p) == nil {
        throw fail(e.line, "entity", "entity '\(e.name)' has unknown parentEntity '\(p)'")
      }
      var seen = Set<String>()
      var cursor: CoreDataEntity? = e
      while let c = cursor {
        if !seen.insert(c.name).inserted {
          throw fail(e.line, "entity", "entity '\(e.name)' inherits from itself (cycle through '\(c.name)')")
        }
        cursor = c.parentName.flatMap { entity($0) }
      }
    }
    for e in entities {
      var keys = Set<String>()
      for a in allAttributes(of: e.name) where !keys.insert(a.name).inserted {
        throw fail(a.line, "attribute", "property '\(a.name)' is defined twice in entity '\(e.name)' (or its ancestors)")
      }
      for r in allRelationships(of: e.name) {
        if !keys.insert(r.name).inserted {
          throw fail(r.line, "relationship", "property '\(r.name)' is defined twice in entity '\(e.name)' (or its ancestors)")
        }
      }
      for r in e.relationships {
        guard entity(r.destination) != nil else {
          throw fail(r.line, "relationship", "relationship \(e.name).\(r.name) has unknown destinationEntity '\(r.destination)'")
        }
        if let ie = r.inverseEntity, entity(ie) == nil {
          throw fail(r.line, "relationship", "relationship \(e.name).\(r.name) has unknown inverseEntity '\(ie)'")
        }
        if let inv = r.inverseName, inverse(of: r) == nil {
          throw fail(
            r.line, "relationship",
            "relationship \(e.name).\(r.name) names inverse '\(inv)', which \(r.inverseEntity ?? r.destination) does not have")
        }
      }
      for f in e.fetchedProperties where entity(f.request.entity) == nil {
        throw fail(f.line, "fetchedProperty", "fetched property \(e.name).\(f.name) fetches unknown entity '\(f.request.entity)'")
      }
      let allNames = Set(allAttributes(of: e.name).map(\.name) + allRelationships(of: e.name).map(\.name))
      for i in e.fetchIndexes {
        for el in i.elements {
          if case .property(let p) = el.target, !allNames.contains(p) {
            throw fail(i.line, "fetchIndexElement", "fetch index \(e.name).\(i.name) names unknown property '\(p)'")
          }
        }
      }
      for u in e.uniquenessConstraints {
        for p in u where !allNames.contains(p) {
          throw fail(e.line, "constraint", "uniqueness constraint of \(e.name) names unknown property '\(p)'")
        }
      }
    }
    for f in fetchRequests where entity(f.entity) == nil {
      throw fail(f.line, "fetchRequest", "fetch request '\(f.name)' fetches unknown entity '\(f.entity)'")
    }
  }
}

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

/// The attribute types of the model file's `attributeType`, spelled as Xcode writes them.
///
/// ```swift
/// CoreDataAttributeType(rawValue: "Integer 64")   // .integer64
/// ```
public enum CoreDataAttributeType: String, Sendable, Hashable, CaseIterable {
  case integer16 = "Integer 16"
  case integer32 = "Integer 32"
  case integer64 = "Integer 64"
  case decimal = "Decimal"
  case double = "Double"
  case float = "Float"
  case string = "String"
  case boolean = "Boolean"
  case date = "Date"
  case binary = "Binary"
  case uuid = "UUID"
  case uri = "URI"
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
  /// `derived="YES"`: computed by Core Data from `derivationExpression`, stored in the store but
  /// not by the app. Sift treats it as not stored (see `isStored`).
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

  /// Whether the attribute has a column Sift reads: not transient and not derived.
  public var isStored: Bool { !isTransient && !isDerived }
}

/// A relationship of an entity.
///
/// ```swift
/// let tags = CoreDataRelationship(name: "tags", destination: "Tag", inverseName: "items", isToMany: true)
/// ```
public struct CoreDataRelationship: Sendable, Hashable {
  /// What happens to the destination when the source is deleted.
  public enum DeletionRule: String, Sendable, Hashable, CaseIterable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
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

/// A fetch request: a model-level template (`<fetchRequest>` under `<model>`) or the request
/// of a fetched property. `predicateString` is NSPredicate format text; `$NAME` tokens are
/// substitution variables.
///
/// ```swift
/// let r = CoreDataFetchRequest(name: "ByAuthor", entity: "Book", predicateString: "ANY authors.name == $NAME")
/// r.variables   // ["NAME"]
/// ```
public struct CoreDataFetchRequest: Sendable, Hashable {
  /// The template name.
  public var name: String
  /// The fetched entity.
  public var entity: String
  /// The predicate in format syntax; nil or empty fetches everything.
  public var predicateString: String?
  /// `fetchLimit`, if given and non-zero.
  public var fetchLimit: Int?
  /// Every other attribute of the element as written (`fetchBatchSize`, `resultType`,
  /// `includeSubentities`, …).
  public var options: [String: String]
  /// The line of the `<fetchRequest>` element, when read from a file.
  public var line: Int?

  /// Creates a fetch request.
  public init(
    name: String, entity: String, predicateString: String? = nil, fetchLimit: Int? = nil,
    options: [String: String] = [:], line: Int? = nil
  ) {
    self.name = name
    self.entity = entity
    self.predicateString = predicateString
    self.fetchLimit = fetchLimit
    self.options = options
    self.line = line
  }

  /// The substitution variables (`$NAME` → `NAME`) the predicate uses, sorted. A `$` inside
  /// a quoted string is not a variable.
  ///
  /// ```swift
  /// CoreDataFetchRequest(name: "a", entity: "Book", predicateString: "price < $MAX AND title == '$x'").variables   // ["MAX"]
  /// ```
  public var variables: [String] {
    guard let text = predicateString else { return [] }
    var out = Set<String>()
    var quote: Character? = nil
    var i = text.startIndex
    while i < text.endIndex {
      let c = text[i]
      if let q = quote {
        if c == "\\" {
          i = text.index(after: i)
          if i < text.endIndex { i = text.index(after: i) }
          continue
        }
        if c == q { quote = nil }
      } else if c == "\"" || c == "'" {
        quote = c
      } else if c == "$" {
        var j = text.index(after: i)
        var name = ""
        while j < text.endIndex, text[j].isLetter || text[j].isNumber || text[j] == "_" {
          name.append(text[j])
          j = text.index(after: j)
        }
        if !name.isEmpty { out.insert(name) }
        i = j
        continue
      }
      i = text.index(after: i)
    }
    return out.sorted()
  }
}

/// A fetched property: a named fetch request evaluated per object (`$FETCH_SOURCE` is the
/// object, `$FETCHED_PROPERTY` the property). Not stored in the store.
///
/// ```swift
/// let p = CoreDataFetchedProperty(name: "sameAuthor",
///   request: CoreDataFetchRequest(name: "fetchedPropertyFetchRequest", entity: "Book",
///                                 predicateString: "ANY authors IN $FETCH_SOURCE.authors"))
/// ```
public struct CoreDataFetchedProperty: Sendable, Hashable {
  /// The key.
  public var name: String
  /// The request (its `entity` is the fetched entity).
  public var request: CoreDataFetchRequest
  /// The line of the `<fetchedProperty>` element, when read from a file.
  public var line: Int?

  /// Creates a fetched property.
  public init(name: String, request: CoreDataFetchRequest, line: Int? = nil) {
    self.name = name
    self.request = request
    self.line = line
  }
}

/// A fetch index (`<fetchIndex>`): an index Core Data creates over one or more properties or
/// expressions.
///
/// ```swift
/// let byTitle = CoreDataFetchIndex(name: "byTitle", elements: [.init(target: .property("title"))])
/// ```
public struct CoreDataFetchIndex: Sendable, Hashable {
  /// One indexed property or expression.
  public struct Element: Sendable, Hashable {
    /// What is indexed.
    public enum Target: Sendable, Hashable {
      /// A property by name (`property="title"`).
      case property(String)
      /// An expression (`expression="…"`).
      case expression(String)
    }
    /// What is indexed.
    public var target: Target
    /// `type` (`Binary` or `R-Tree`).
    public var indexType: String
    /// `order="ascending"` (the default) or descending.
    public var ascending: Bool

    /// Creates an element.
    public init(target: Target, indexType: String = "Binary", ascending: Bool = true) {
      self.target = target
      self.indexType = indexType
      self.ascending = ascending
    }
  }

  /// The index name.
  public var name: String
  /// Its elements, in order.
  public var elements: [Element]
  /// The line of the `<fetchIndex>` element, when read from a file.
  public var line: Int?

  /// Creates a fetch index.
  public init(name: String, elements: [Element], line: Int? = nil) {
    self.name = name
    self.elements = elements
    self.line = line
  }
}
