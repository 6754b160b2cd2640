import Foundation
import Testing

@testable import SiftSemantics
@testable import SiftSyntax

/// The committed `TextFoldingData.swift` is exactly what `FoldTableGenerator` computes from
/// Foundation now, and `FoldTable` decodes it to exactly the generator's tables.
///
/// `SIFT_RECORD_FOLDING=1 swift test --filter TextFoldingDataTests` rewrites the file instead.
@Suite("Text folding data")
struct TextFoldingDataTests {
  /// The generator's three tables, computed once (Foundation takes seconds per table).
  static let generated: [(entries: [UInt32], bytes: [UInt8])] = {
    let results = Results(count: FoldTableGenerator.optionSets.count)
    DispatchQueue.concurrentPerform(iterations: FoldTableGenerator.optionSets.count) { i in
      results.set(i, FoldTableGenerator.table(FoldTableGenerator.optionSets[i].options))
    }
    return results.tables.map { $0 ?? ([], []) }
  }()

  /// Tables computed on several threads.
  final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var tables: [(entries: [UInt32], bytes: [UInt8])?]
    init(count: Int) { tables = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ table: (entries: [UInt32], bytes: [UInt8])) {
      lock.lock()
      tables[i] = table
      lock.unlock()
    }
  }

  static var recording: Bool { ProcessInfo.processInfo.environment["SIFT_RECORD_FOLDING"] == "1" }

  @Test func committedFileIsWhatTheGeneratorWrites() throws {
    let expected = try #require(FoldTableGenerator.source(TextFoldingDataTests.generated))
    if TextFoldingDataTests.recording {
      try expected.write(to: FoldTableGenerator.dataFile, atomically: true, encoding: .utf8)
    }
    let committed = try String(contentsOf: FoldTableGenerator.dataFile, encoding: .utf8)
    // (Bool first: Swift Testing would diff the two 36 KB texts on failure, quadratically.)
    let same = committed == expected
    #expect(
      same,
      "TextFoldingData.swift is stale: SIFT_RECORD_FOLDING=1 swift test --filter TextFoldingDataTests")
  }

  static let indices = Array(FoldTableGenerator.optionSets.indices)

  /// The tables built at first use are the generator's, entry for entry and byte for byte.
  @Test(arguments: indices)
  func decodedTableEqualsGenerated(index: Int) throws {
    let options = FoldTableGenerator.optionSets[index].options
    let table = try #require(FoldTable.table(for: options))
    let generated = TextFoldingDataTests.generated[index]
    #expect(table.caseless == options.contains(.caseInsensitive))
    #expect(table.entries.count == 0x10000)
    let differing = (0..<0x10000).filter { table.entries[$0] != generated.entries[$0] }
    #expect(differing.isEmpty, "entries differ at \(differing.prefix(10).map { String($0, radix: 16) })")
    let sameBytes = table.bytes == generated.bytes
    #expect(sameBytes, "fold bytes differ")
    // The tables are not trivially empty or trivially full.
    let stable = table.entries.filter { $0 != 0 }.count
    #expect(stable > 40_000 && stable < 0xFF80, "\(stable) stable scalars")
  }

  /// Decoding re-encodes to the same text (the format round-trips).
  @Test(arguments: indices)
  func dataRoundTrips(index: Int) throws {
    let name = FoldTableGenerator.optionSets[index].name
    let data = [TextFoldingData.caseFold, TextFoldingData.diacriticFold, TextFoldingData.bothFold][index]
    let table = try #require(FoldTable.decodeData(data), "\(name)")
    let encoded = try #require(FoldTableGenerator.encode(table.entries, table.bytes))
    let lines = data.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let same = FoldTableGenerator.wrap(encoded) == lines
    #expect(same, "\(name) does not re-encode to itself")
  }

  /// Small hand-written inputs: what each token means, and malformed text refused.
  @Test(
    arguments: [
      // Covers U+0080…U+FFFF exactly: 0x80 identity, 0x81 → "a", 0x82 → "ss", rest without entry.
      ("=1 61 73,73 -ff7d", true),
      ("=1\n  61 73,73\n  -ff7d", true),
      ("-ff80", true),
      ("=ff80", false),  // would give surrogates entries
      ("-ff7f", false),  // stops short of U+FFFF
      ("-ff81", false),  // runs past U+FFFF
      ("-0 -ff80", false),
      ("=1 61 -ff7e x", false),
      ("=1 61, -ff7e", false),
      ("=1 d800 -ff7e", false),  // a surrogate is not a scalar
      ("=1 1234567 -ff7e", false),
      ("", false),
    ] as [(String, Bool)])
  func decodeSmallInputs(data: String, valid: Bool) throws {
    let decoded = FoldTable.decodeData(data)
    #expect((decoded != nil) == valid)
    guard let decoded, data.hasPrefix("=1") else { return }
    #expect(decoded.entries[0x80] == 0 << 8 | 2)
    #expect(decoded.entries[0x81] == 2 << 8 | 1)
    #expect(decoded.entries[0x82] == 3 << 8 | 2)
    #expect(decoded.entries[0x83] == 0)
    #expect(decoded.bytes == [0xC2, 0x80, 0x61, 0x73, 0x73])
  }

  /// A table whose data does not decode has no entries: everything goes to Foundation.
  @Test func undecodableDataFallsBackToFoundation() {
    let table = FoldTable(caseless: true, data: "nonsense")
    #expect(table.entries.allSatisfy { $0 == 0 })
    #expect(table.fold("Straße") == nil)
  }
}
