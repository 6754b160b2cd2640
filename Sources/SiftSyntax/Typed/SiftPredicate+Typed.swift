import Foundation

extension SiftPredicate {
  /// Converts a Swift `#Predicate` into Sift's tree (what `NSPredicate(_:)` does on Darwin), so
  /// it runs wherever a format-string predicate runs: in memory, on SQLite, PostgreSQL and Core
  /// Data stores. Key paths name stored attributes (`\.location?.city` is `location.city`,
  /// through `keys`), captured values are bound constants, and `predicateFormat` prints it as a
  /// format string that parses back to the same predicate. The "Typed predicates" article lists
  /// what converts.
  ///
  /// ```swift
  /// let minimum = 3
  /// let p = try SiftPredicate(#Predicate<Note> { $0.rating >= minimum && $0.title.contains("Swift") })
  /// p.predicateFormat   // rating >= 3 AND title CONTAINS "Swift"
  /// ```
  /// - Throws: `SiftError` at stage `.convert`: `unconvertible-expression` for an operation no
  ///   store can answer (a regex, a cast, a force unwrap, a subscript…), `unconvertible-key-path`
  ///   for a computed property, `unconvertible-value` for a captured value with no `SiftValue`.
  public init<Root>(_ predicate: Predicate<Root>, keys: SiftKeyStrategy = .exact) throws(SiftError) {
    var converter = TypedConverter(keys: keys, root: Root.self)
    let root = try converter.predicate(predicate.expression)
    self.init(root: root)
    typed = SiftTypedKeyPathsBox(converter.keyPaths)
  }
}

extension SiftSortDescriptor {
  /// Converts a Swift `SortDescriptor` (`NSSortDescriptor(_:)` on Darwin): its key path,
  /// direction and, for strings, its comparator. Nil sorts first when ascending, as Foundation's
  /// `SortDescriptor` does.
  ///
  /// ```swift
  /// let d = try SiftSortDescriptor(SortDescriptor(\Note.rating, order: .reverse))
  /// d.description   // rating desc
  /// ```
  /// - Throws: `SiftError` at stage `.convert`, id `unconvertible-sort`, for a descriptor without
  ///   a key path or with a string comparator other than `.lexical`; `unconvertible-key-path`
  ///   for a computed property.
  public init<Root>(_ descriptor: SortDescriptor<Root>, keys: SiftKeyStrategy = .exact) throws(SiftError) {
    guard let keyPath = descriptor.keyPath else {
      throw TypedConverter.refusal(.unconvertibleSort, "cannot convert a SortDescriptor without a key path")
    }
    if let comparator = descriptor.stringComparator,
      String.StandardComparator(comparator, order: .forward) != String.StandardComparator.lexical
    {
      throw TypedConverter.refusal(
        .unconvertibleSort, "cannot convert the sort on \(keyPath): only the .lexical string comparator converts")
    }
    let names = try TypedValues.names(of: keyPath).map(keys.storedName)
    self.init(names.joined(separator: "."), ascending: descriptor.order == .forward)
    let keyPaths = SiftTypedKeyPaths(root: Root.self)
    if names.count == 1 {
      keyPaths.add(names[0], keyPath)
    } else {
      keyPaths.markIncomplete()
    }
    typed = SiftTypedKeyPathsBox(keyPaths)
  }
}

extension SiftFetchRequest {
  /// A fetch request from Swift's own predicate and sort descriptors, converted as
  /// `SiftPredicate(_:keys:)` and `SiftSortDescriptor(_:keys:)` do; it runs wherever every
  /// request runs (`request.fetch(from: notes)`, `db.fetch(request, as: Note.self)`).
  ///
  /// ```swift
  /// let request = try SiftFetchRequest(
  ///   entity: "note", predicate: #Predicate<Note> { $0.pinned }, sortBy: [SortDescriptor(\.title)], limit: 20)
  /// ```
  /// - Throws: `SiftError` at stage `.convert`, as the two conversions.
  public init<Root>(
    entity: String, predicate: Predicate<Root>?, sortBy: [SortDescriptor<Root>] = [], limit: Int? = nil,
    offset: Int? = nil, keys: SiftKeyStrategy = .exact
  ) throws(SiftError) {
    var sorts: [SiftSortDescriptor] = []
    for d in sortBy { sorts.append(try SiftSortDescriptor(d, keys: keys)) }
    self.init(
      entity: entity, predicate: try predicate.map { (p) throws(SiftError) in try SiftPredicate(p, keys: keys) },
      sortDescriptors: sorts, limit: limit, offset: offset)
  }
}
