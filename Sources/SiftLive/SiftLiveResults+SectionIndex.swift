import SiftSyntax

/// The section index of `NSFetchedResultsController` (`sectionIndexTitles`,
/// `sectionIndexTitle(forSectionName:)`, `section(forSectionIndexTitle:at:)`), read from the
/// current sections (Grammar/notes/live.md, "Section index").
extension SiftLiveResults {
  /// The index title of a section name: its first character upper-cased (Unicode's full
  /// mapping, `ß` → `SS`), as Apple's default gives "the capitalized first letter of the
  /// section name"; nil for the empty name (a nil section key).
  ///
  /// ```swift
  /// SiftLiveResults<Int, [String: SiftValue]>.sectionIndexTitle(forSectionName: "oslo")   // "O"
  /// ```
  public static func sectionIndexTitle(forSectionName name: String) -> String? {
    name.first.map { String($0).uppercased() }
  }

  /// The titles of the section index (`sectionIndexTitles`): each section's index title, in
  /// section order, each title once (sections `Oslo` and `oslo` share `O`). Sections whose
  /// name is empty have none. Without a section key path: empty.
  ///
  /// ```swift
  /// live.sectionIndexTitles   // ["B", "O"] for sections Bergen, Oslo
  /// ```
  public var sectionIndexTitles: [String] {
    guard sectionKeyPath != nil else { return [] }
    var seen = Set<String>()
    var out: [String] = []
    for s in sections {
      guard let title = Self.sectionIndexTitle(forSectionName: s.name), seen.insert(title).inserted else { continue }
      out.append(title)
    }
    return out
  }

  /// The section a tap on the index jumps to (`section(forSectionIndexTitle:at:)`): the first
  /// section whose index title is `title`; when none has it, the first section of the title
  /// at `index` in `sectionIndexTitles`; nil when neither names a section.
  ///
  /// ```swift
  /// live.section(forSectionIndexTitle: "O", at: 1)   // 1
  /// ```
  public func section(forSectionIndexTitle title: String, at index: Int) -> Int? {
    guard sectionKeyPath != nil else { return nil }
    let names = sections.map(\.name)
    func first(_ t: String) -> Int? { names.firstIndex { Self.sectionIndexTitle(forSectionName: $0) == t } }
    if let s = first(title) { return s }
    let titles = sectionIndexTitles
    guard titles.indices.contains(index) else { return nil }
    return first(titles[index])
  }
}
