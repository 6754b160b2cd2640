import SiftSyntax

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

  /// The substitution variables (`$NAME` → `NAME`) the predicate uses, sorted: its free
  /// variables (`SiftPredicate.variables`: not a SUBQUERY's own, not a `$` inside a string);
  /// none when the predicate does not parse.
  ///
  /// ```swift
  /// CoreDataFetchRequest(name: "a", entity: "Book", predicateString: "price < $MAX AND title == '$x'").variables   // ["MAX"]
  /// ```
  public var variables: [String] {
    guard let text = predicateString, let p = try? SiftPredicate.parse(text) else { return [] }
    return p.variables.sorted()
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
