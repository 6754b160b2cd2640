/// Edit-distance suggestions for "did you mean …?" messages.
///
/// ```swift
/// Spelling.closest(to: "BEGINSWIT", in: ["BEGINSWITH", "ENDSWITH"])   // "BEGINSWITH"
/// ```
package enum Spelling {
  /// The candidate with the smallest Levenshtein distance to `word` (case-insensitive), if
  /// that distance is at most `maxDistance` and smaller than the word itself.
  package static func closest(to word: String, in candidates: [String], maxDistance: Int = 2) -> String? {
    let w = Array(word.lowercased().unicodeScalars)
    guard !w.isEmpty, w.count <= 64 else { return nil }
    var best: (String, Int)?
    for candidate in candidates {
      let c = Array(candidate.lowercased().unicodeScalars)
      guard abs(c.count - w.count) <= maxDistance else { continue }
      let d = distance(w, c)
      guard d <= maxDistance, d < w.count else { continue }
      if let current = best, current.1 <= d { continue }
      best = (candidate, d)
    }
    return best?.0
  }

  /// Levenshtein distance between two scalar arrays.
  static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var row = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      row[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &row)
    }
    return previous[b.count]
  }
}
