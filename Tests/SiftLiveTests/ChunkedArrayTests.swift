import SiftSyntax
import Testing

@testable import SiftLive

/// ChunkedArray against Array: random inserts and removes (chunks split past 512 and vanish
/// when empty), reads at every offset.
@Suite struct ChunkedArrayTests {
  @Test(arguments: UInt64(1)...UInt64(4)) func behavesLikeAnArray(_ seed: UInt64) {
    var rng = SeededRandom(seed: seed)
    var plain = (0..<rng.below(1500)).map { $0 }
    var chunked = ChunkedArray(plain)
    for step in 0..<4000 {
      if plain.isEmpty || rng.chance(0.55) {
        let i = rng.below(plain.count + 1)
        plain.insert(step, at: i)
        chunked.insert(step, at: i)
      } else {
        let i = rng.below(plain.count)
        #expect(plain.remove(at: i) == chunked.remove(at: i), "seed \(seed) step \(step)")
      }
      if step % 500 == 0 {
        #expect(Array(chunked) == plain, "seed \(seed) step \(step)")
      }
    }
    #expect(chunked.count == plain.count)
    #expect(Array(chunked) == plain)
    var flat: [Int] = []
    chunked.forEachElement { flat.append($0) }
    #expect(flat == plain)
    #expect(chunked.chunks.allSatisfy { !$0.isEmpty && $0.count <= ChunkedArray<Int>.maxChunk })
  }

  @Test func emptiesAndRefills() {
    var a = ChunkedArray<Int>()
    a.insert(1, at: 0)
    a.remove(at: 0)
    #expect(a.isEmpty && a.chunks.isEmpty)
    a.insert(2, at: 0)
    a.insert(1, at: 0)
    #expect(Array(a) == [1, 2])
  }
}
