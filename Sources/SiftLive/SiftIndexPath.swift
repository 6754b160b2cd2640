import SiftSyntax

/// A position in sectioned results: section index and row within the section (UIKit's
/// `IndexPath(row:section:)`, named apart from Foundation's).
///
/// ```swift
/// let path = SiftIndexPath(section: 0, item: 3)
/// print(path)   // [0, 3]
/// ```
public struct SiftIndexPath: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The section index.
  public var section: Int
  /// The row (item) within the section.
  public var item: Int

  /// Creates an index path.
  ///
  /// ```swift
  /// SiftIndexPath(section: 1, item: 0)
  /// ```
  public init(section: Int, item: Int) {
    self.section = section
    self.item = item
  }

  /// Section first, then item.
  public static func < (a: SiftIndexPath, b: SiftIndexPath) -> Bool {
    (a.section, a.item) < (b.section, b.item)
  }

  /// `[section, item]`, as the `sift watch` contract writes it.
  public var description: String { "[\(section), \(item)]" }
}

/// One section of live results (`NSFetchedResultsSectionInfo`): its name, the section key's
/// value and the objects' ids in order.
///
/// ```swift
/// for section in live.sections { print(section.name, section.ids) }
/// ```
public struct SiftLiveSection<ID: Hashable>: Equatable {
  /// The section key's value as text (`NSFetchedResultsSectionInfo.name`): a string as is, nil
  /// as "", a number or boolean as its digits ("1" for true); "" without a section key path.
  public var name: String
  /// The section key's value (nil without a section key path).
  public var value: SiftValue
  /// The ids of the section's objects, in the results' order.
  public var ids: [ID]

  /// Creates a section.
  ///
  /// ```swift
  /// SiftLiveSection(name: "Oslo", value: .string("Oslo"), ids: [3, 9])
  /// ```
  public init(name: String, value: SiftValue, ids: [ID]) {
    self.name = name
    self.value = value
    self.ids = ids
  }
}
