import Foundation
import SiftSyntax

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
  /// What reading the file left out, one line each naming the file, line and attribute (a
  /// composite attribute, which Sift does not read yet); empty for a model built in code.
  ///
  /// ```swift
  /// for w in model.warnings { print("note: \(w)") }
  /// ```
  public internal(set) var warnings: [String] = []
  /// The configurations the file declares (`<configuration>`), in file order; choose one with
  /// `restricted(toConfiguration:)`.
  public internal(set) var configurations: [CoreDataConfiguration] = []
  private var entityIndex: [String: Int]

  /// Creates a model from already built parts and checks that names resolve (parents,
  /// destinations, inverses) and that the inheritance has no cycle.
  ///
  /// ```swift
  /// let book = CoreDataEntity(name: "Book", attributes: [CoreDataAttribute(name: "title", type: .string)])
  /// let model = try CoreDataModel(entities: [book])
  /// ```
  /// - Throws: `SiftError` (stage `.model`) naming the first problem.
  public init(
    entities: [CoreDataEntity], fetchRequests: [CoreDataFetchRequest] = [], file: String = "<model>",
    versionName: String? = nil
  ) throws(SiftError) {
    do throws(CoreDataModelError) {
      try self.init(checking: entities, fetchRequests: fetchRequests, file: file, versionName: versionName)
    } catch {
      throw SiftError.model(error)
    }
  }

  init(
    checking entities: [CoreDataEntity], fetchRequests: [CoreDataFetchRequest], file: String, versionName: String?
  ) throws(CoreDataModelError) {
    self.entities = entities
    self.fetchRequests = fetchRequests
    self.file = file
    self.versionName = versionName
    var index: [String: Int] = [:]
    for (i, e) in entities.enumerated() {
      if index[e.name] != nil {
        throw CoreDataModelError(
          file: file, line: e.line, element: "entity", message: "entity '\(e.name)' is defined twice")
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
}
