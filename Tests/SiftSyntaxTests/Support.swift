import Foundation
import Testing

@testable import SiftSyntax

/// Paths of files in the repository, found from this source file.
enum Repo {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }
  static func text(_ relative: String) throws -> String {
    try String(contentsOf: url(relative), encoding: .utf8)
  }
  static func lines(_ relative: String) throws -> [String] {
    try text(relative).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }
}

/// Parses `source` and checks the round-trip invariant `parse(print(p)) == p`; returns the
/// canonical form.
@discardableResult
func assertParses(
  _ source: String, _ arguments: [SiftValue]? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws -> SiftPredicate {
  let p: SiftPredicate
  if let arguments {
    p = try SiftPredicate(format: source, arguments: arguments)
  } else {
    p = try SiftPredicate.parse(source)
  }
  assertRoundTrips(p, sourceLocation: sourceLocation)
  return p
}

/// `parse(print(p)) == p`.
func assertRoundTrips(_ p: SiftPredicate, sourceLocation: SourceLocation = #_sourceLocation) {
  let printed = p.predicateFormat
  do {
    let reparsed = try SiftPredicate.parse(printed)
    #expect(
      reparsed == p, "round trip changed the tree: \(printed) → \(reparsed.predicateFormat)",
      sourceLocation: sourceLocation)
    #expect(reparsed.predicateFormat == printed, "printing is not stable", sourceLocation: sourceLocation)
  } catch {
    Issue.record("canonical form does not re-parse: \(printed)\n\(error)", sourceLocation: sourceLocation)
  }
}

/// The parse (or argument) error for `source`, or nil if it parsed.
func parseError(_ source: String, _ arguments: [SiftValue]? = nil) -> SiftError? {
  do {
    if let arguments {
      _ = try SiftPredicate(format: source, arguments: arguments)
    } else {
      _ = try SiftPredicate.parse(source)
    }
    return nil
  } catch {
    return error
  }
}

/// Removes emoji location markers (1️⃣ 2️⃣ …) from `marked`; returns the clean text and the UTF-8
/// offset of each marker.
func extractMarkers(_ marked: String) -> (String, [String: Int]) {
  let markers = ["1️⃣", "2️⃣", "3️⃣", "4️⃣"]
  var clean = ""
  var offsets: [String: Int] = [:]
  var rest = Substring(marked)
  outer: while !rest.isEmpty {
    for m in markers where rest.hasPrefix(m) {
      offsets[m] = clean.utf8.count
      rest = rest.dropFirst(m.count)
      continue outer
    }
    clean.append(rest.removeFirst())
  }
  return (clean, offsets)
}
