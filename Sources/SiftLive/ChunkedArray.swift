/// An array kept in chunks of at most `maxChunk` elements, with each chunk's starting offset:
/// reading element i costs O(log(n / c)), inserting or removing one costs O(c + n / c) instead
/// of moving up to n elements. Live results keep their sorted objects in one, so that a
/// transaction touching k of a million objects does not move the million.
///
/// ```swift
/// var a = ChunkedArray([1, 2, 4])
/// a.insert(3, at: 2)
/// Array(a)   // [1, 2, 3, 4]
/// ```
struct ChunkedArray<Element>: RandomAccessCollection {
  static var maxChunk: Int { 512 }
  private(set) var chunks: [[Element]] = []
  /// `starts[k]`: the offset of `chunks[k][0]`.
  private(set) var starts: [Int] = []
  private(set) var count = 0

  init() {}

  init(_ elements: [Element]) {
    var i = 0
    while i < elements.count {
      let end = Swift.min(elements.count, i + Self.maxChunk / 2)
      chunks.append(Array(elements[i..<end]))
      starts.append(i)
      i = end
    }
    count = elements.count
  }

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  subscript(i: Int) -> Element {
    let (k, o) = locate(i)
    return chunks[k][o]
  }

  /// The chunk holding offset `i` and the offset within it (`i == count` gives the end of
  /// the last chunk).
  func locate(_ i: Int) -> (chunk: Int, offset: Int) {
    var lo = 0, hi = starts.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if starts[mid] <= i { lo = mid + 1 } else { hi = mid }
    }
    let k = Swift.max(0, lo - 1)
    return (k, i - (starts.isEmpty ? 0 : starts[k]))
  }

  mutating func insert(_ e: Element, at i: Int) {
    guard !chunks.isEmpty else {
      chunks = [[e]]
      starts = [0]
      count = 1
      return
    }
    let (k, o) = locate(i)
    chunks[k].insert(e, at: o)
    count += 1
    for j in (k + 1)..<starts.count { starts[j] += 1 }
    if chunks[k].count > Self.maxChunk {
      let half = chunks[k].count / 2
      let tail = Array(chunks[k][half...])
      chunks[k].removeSubrange(half...)
      chunks.insert(tail, at: k + 1)
      starts.insert(starts[k] + half, at: k + 1)
    }
  }

  @discardableResult
  mutating func remove(at i: Int) -> Element {
    let (k, o) = locate(i)
    let e = chunks[k].remove(at: o)
    count -= 1
    for j in (k + 1)..<starts.count { starts[j] -= 1 }
    if chunks[k].isEmpty {
      chunks.remove(at: k)
      starts.remove(at: k)
    }
    return e
  }

  /// Every element in order, chunk by chunk (no per-element search).
  func forEachElement(_ body: (Element) throws -> Void) rethrows {
    for c in chunks { for e in c { try body(e) } }
  }
}
