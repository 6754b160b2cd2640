import SiftSyntax
import Testing

@testable import SiftSQL

/// The compiler's prepared lookups: the member table in front of each entity's dictionary,
/// and the placeholder bytes asked of the dialect once per compiler.
@Suite("SQL compiler lookups")
struct SQLCompilerLookupTests {
  /// Members numbered by their `toOne` target, so a lookup's answer can be told apart.
  static func table(_ keys: [String]) -> SQLMemberTable {
    let fk = SQLColumnRef("fk", dialect: SQLiteDialect())
    var members: [String: SQLEntityRef.Member] = [:]
    for (i, k) in keys.enumerated() { members[k] = .toOne(target: i, foreignKey: fk) }
    return SQLMemberTable(members)
  }

  static func number(_ m: SQLEntityRef.Member?) -> Int? {
    guard case .toOne(let target, _)? = m else { return nil }
    return target
  }

  /// The same text held in its own heap storage (not inline), as text built piece by piece
  /// into a reserved string is.
  static func heapCopy(_ s: String) -> String {
    var out = String()
    out.reserveCapacity(64)
    out.append(contentsOf: s)
    return out
  }

  static let keys = [
    "id", "name", "distance", "priceCategory", "fifteen_bytes__", "sixteen_bytes___", "a-much-longer-attribute-name",
    "café", "Ünïcödé", "x", "ab", "ba", "tags", "location", "menu", "createdAt", "a\"b", "",
  ]

  /// Every key is found however its text was made: a literal, decoded bytes, a substring,
  /// a copy in heap storage (the table misses and the dictionary answers).
  @Test func findsEveryKeyHoweverItsTextWasMade() {
    let t = Self.table(Self.keys)
    for (i, k) in Self.keys.enumerated() {
      let spellings = [
        k, String(decoding: Array(k.utf8), as: UTF8.self), String(Substring(k)), Self.heapCopy(k),
        String(("<" + k + ">").dropFirst().dropLast()),
      ]
      for s in spellings { #expect(Self.number(t[s]) == i, "\(k)") }
    }
  }

  /// Unknown keys are not found, including near misses and keys of other entities.
  @Test func unknownKeysAreNotFound() {
    let t = Self.table(Self.keys)
    for k in ["Name", "nam", "names", "idd", "sixteen_bytes__", "fifteen_bytes___", "cafe", "y", " ", "a\"c"] {
      #expect(t[k] == nil, "\(k)")
      #expect(t[Self.heapCopy(k)] == nil, "\(k)")
    }
  }

  /// Many keys (the table grows past its first size) against random probes: the table
  /// answers exactly as a dictionary does.
  @Test func agreesWithADictionaryOnRandomKeys() {
    var rng = SeededRandom(seed: 7)
    let alphabet = Array("abcXYZ_é0")
    func word() -> String { String((0..<Int(rng.next() % 20)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }) }
    var keys: [String] = []
    var seen = Set<String>()
    while keys.count < 300 {
      let w = word()
      if seen.insert(w).inserted { keys.append(w) }
    }
    let t = Self.table(keys)
    let index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
    for _ in 0..<3000 {
      let probe = rng.next() % 2 == 0 ? keys[Int(rng.next() % UInt64(keys.count))] : word()
      #expect(Self.number(t[probe]) == index[probe], "\(probe)")
    }
  }

  /// Kept placeholder bytes are the dialect's own, before and after the kept range.
  @Test func placeholderBytesAreTheDialects() {
    for dialect in [SQLiteDialect(), PostgreSQLDialect()] as [any SQLDialect] {
      let p = SQLPlaceholders(dialect)
      var buffer = [UInt8](repeating: 0, count: 16)
      for n in [1, 2, 9, 10, 63, 64, 65, 99, 100, 12_345] {
        let end = buffer.withUnsafeMutableBufferPointer { b in
          b.baseAddress.flatMap { p.write(n, to: $0, at: 3, limit: b.count) }
        }
        let written = end.map { Array(buffer[3..<$0]) }
        #expect(written == Array(dialect.placeholder(n).utf8), "\(dialect.name) \(n)")
      }
    }
  }

  /// A placeholder that does not fit in the room left is refused, not cut.
  @Test func placeholderThatDoesNotFitIsRefused() {
    let p = SQLPlaceholders(PostgreSQLDialect())
    var buffer = [UInt8](repeating: 0, count: 4)
    let results = buffer.withUnsafeMutableBufferPointer { b -> [Int?] in
      guard let base = b.baseAddress else { return [] }
      return [p.write(7, to: base, at: 2, limit: 4), p.write(12, to: base, at: 2, limit: 4), p.write(1234, to: base, at: 0, limit: 4)]
    }
    #expect(results == [4, nil, nil])
  }
}
