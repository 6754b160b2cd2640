import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// `JSONObjectReader` reads arrays of objects straight into `SiftObject`s. It must never
/// differ from the general path (`SiftJSON.parse`, then `JSONRecords.records(from:)`): on any
/// input it either gives exactly those records or answers nil, and it answers nil whenever the
/// general path reports an error — which `JSONRecords.load` then reports with line and column.
@Suite struct JSONObjectReaderTests {
  /// The general path's records (as values), or nil when it fails.
  static func general(_ bytes: [UInt8]) -> [SiftValue]? {
    guard let v = try? SiftJSON.parse(bytes: bytes), let objects = try? JSONRecords.records(from: v) else { return nil }
    return objects.map(\.siftValue)
  }

  static func check(_ bytes: [UInt8], _ label: @autoclosure () -> String) {
    let fast = JSONObjectReader.records(bytes)?.map(\.siftValue)
    let want = general(bytes)
    if let fast { #expect(fast == want, "\(label())") }
    if want == nil { #expect(fast == nil, "accepted what the general reader rejects: \(label())") }
  }

  @Test(
    "typing, layouts, escapes and the inputs left to the general reader",
    arguments: [
      (#"[{"b": 1, "a": -0, "c": 1.0, "d": 1e2, "e": -9223372036854775808, "f": 9223372036854775808}]"#, true),
      (#"[{"a": 01}, {"a": 2}]"#, true),
      (
        #"{"when": {"$date": "2024-03-01T00:00:00Z"}, "n": {"$date": 5}, "m": {"$date": 1.5}, "x": {"$data": "AAE="}}"#,
        true
      ),
      (#"[{"d": {"$date": true}}, {"d": {"$data": 3}}, {"d": {"$date": "2024-01-01", "other": 1}}]"#, true),
      (#"[{"s": "a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00\ud800x\udc00"}]"#, true),
      (#"[{"a": 1, "b": 2}, {"b": 3, "a": 4}, {"a": 5, "b": 6}, {"a": {"b": {"c": [1, {"a": 2}]}}}, {}]"#, true),
      ("\u{FEFF}[ {\"a\" :\t1 } ,\r\n {\"a\":2}]  \n", true),
      (#"[{"é": 1, "e\u0301": 2}]"#, false),  // the same key twice (canonically): last wins there
      (#"[{"a": 1, "a": 2}]"#, false),
      (#"[{"d": {"$date": "yesterday"}}]"#, false),
      (#"[{"a": 1}, 2]"#, false),
      ("{\"a\": 1}\n{\"a\": 2}\n", false),
      (#"[{"a": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}]"#, false),  // deeper than the reader goes
      ("[{\"a\": \"x\u{01}\"}]", false), (#"[{"a": 1,}]"#, false), (#"[{"a": tru}]"#, false), (#"[{"a": -}]"#, false),
      (#"[{"a": 1.}]"#, false), (#"[{"a": 1e}]"#, false), (#"[{"a": "\x"}]"#, false), (#"[{"a": "\u12"}]"#, false),
      ("[", false), ("", false), ("[{}", false), (#"[{"a" 1}]"#, false), ("[{}] x", false), ("\"a\"", false),
    ])
  func cases(text: String, read: Bool) {
    let bytes = Array(text.utf8)
    Self.check(bytes, text)
    #expect((JSONObjectReader.records(bytes) != nil) == read, "\(text)")
  }

  @Test("empty inputs: an empty array has no records, an empty document none either way")
  func empty() {
    #expect(JSONObjectReader.records(Array("[]".utf8))?.count == 0)
    #expect(JSONObjectReader.records(Array(" [ ] ".utf8))?.count == 0)
    #expect(JSONObjectReader.records(Array("   ".utf8)) == nil)
  }

  /// Random documents, then the same documents broken at random (bytes dropped, changed,
  /// inserted, cut short): never a different answer, never a crash.
  @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
  func randomAndBrokenDocuments(seed: UInt64) {
    var g = JSONTextGenerator(rng: SeededRandom(seed: seed))
    var read = 0
    for n in 0..<150 {
      let text = g.document()
      let bytes = Array(text.utf8)
      Self.check(bytes, "seed \(seed) #\(n): \(text)")
      if JSONObjectReader.records(bytes) != nil { read += 1 }
      for m in 0..<6 {
        let broken = g.mutate(bytes)
        Self.check(broken, "seed \(seed) #\(n) mutation \(m): \(String(decoding: broken, as: UTF8.self))")
      }
    }
    #expect(read > 75, "most generated documents are arrays of objects the reader reads")
  }

  @Test(
    "bad JSON is reported with its line and column",
    arguments: [
      ("[{\"a\": 1},\n {\"a\": }]", "2:8"),
      ("[{\"a\": 1}\n\n  {\"b\": 2}]", "3:3"),
      ("[{\"a\": \"open}]", "1:15"),
    ])
  func errorsHavePositions(text: String, position: String) {
    do {
      _ = try JSONRecords.load(bytes: Array(text.utf8))
      Issue.record("no error for \(text)")
    } catch {
      #expect("\(error)".contains(position), "\(error)")
    }
  }
}

/// Random JSON text for the reader's tests: mostly arrays of objects sharing key orders, with
/// escapes, odd number forms, special objects, nesting, duplicate keys and whitespace.
struct JSONTextGenerator {
  var rng: SeededRandom
  static let keys = ["a", "b", "name", "tags", "é", "e\u{301}", "$date", "$data", "x y", "\\\"q"]
  static let numbers = [
    "0", "-0", "7", "-12", "01", "1.5", "-2.25e3", "1E+2", "1e-7", "9223372036854775807",
    "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890", "0.1",
  ]
  static let strings = [
    #""""#, #""wifi""#, #""caf\u00e9""#, #""\ud83d\ude00""#, #""\ud800""#, #""tab\tnew\nline""#,
    #""q\"uote\\""#, "\"ünïcödé\"", #""2024-03-01T00:00:00Z""#, #""AAE=""#, #""\/""#,
  ]

  mutating func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &rng)] }
  mutating func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &rng) == 0 }
  mutating func space() -> String { chance(3) ? pick([" ", "\n", "\t", "\r\n", "  "]) : "" }

  mutating func value(_ depth: Int) -> String {
    switch Int.random(in: 0..<(depth > 3 ? 5 : 8), using: &rng) {
    case 0: return pick(Self.numbers)
    case 1: return pick(Self.strings)
    case 2: return pick(["true", "false", "null"])
    case 3:
      return pick([
        #"{"$date": "2024-03-01T12:30:00.5+01:00"}"#, #"{"$date": 86400}"#, #"{"$data": "AAE="}"#, #"{"$date": 1.5}"#,
      ])
    case 4: return pick(Self.numbers)
    case 5:
      return "["
        + (0..<Int.random(in: 0...3, using: &rng)).map { _ in space() + value(depth + 1) }.joined(separator: ",") + "]"
    default: return object(depth + 1, keys: nil)
    }
  }

  mutating func object(_ depth: Int, keys: [String]?) -> String {
    let n = Int.random(in: 0...4, using: &rng)
    // Now and then a key twice (the general reader decides those).
    let ks =
      keys ?? (chance(5) ? (0..<n).map { _ in pick(Self.keys) } : Array(Self.keys.shuffled(using: &rng).prefix(n)))
    let members = ks.map { k in space() + "\"" + k + "\"" + space() + ":" + space() + value(depth) + space() }
    return "{" + members.joined(separator: ",") + "}"
  }

  mutating func document() -> String {
    if chance(10) { return object(1, keys: nil) }
    let shared = ["name", "a", "tags", "b"]
    let items = (0..<Int.random(in: 0...8, using: &rng)).map { _ in space() + object(1, keys: chance(3) ? nil : shared)
    }
    return space() + "[" + items.joined(separator: ",") + "]" + space()
  }

  mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
    var b = bytes
    guard !b.isEmpty else { return [pick(Array("[{\"".utf8))] }
    let at = Int.random(in: 0..<b.count, using: &rng)
    switch Int.random(in: 0..<4, using: &rng) {
    case 0: b.remove(at: at)
    case 1: b[at] = pick(Array("[]{}\",:\\ 0e.-tnu\u{01}".utf8) + [0xFF, 0xC3])
    case 2: b.insert(pick(Array("[]{}\",:\\ 0e.-".utf8)), at: at)
    default: b.removeSubrange(at...)
    }
    return b
  }
}
