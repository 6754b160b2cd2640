import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax
import Testing

@testable import SiftColumnar

/// `sift eval --count` loads only the top-level keys its predicate reads
/// (`SiftMatcher.columnarKeys`) and steps over the other values (`ColumnarJSONParser.skipValue`):
/// the keys are exactly those the kernels read, the count is the count over every key, and a
/// skipped value the general way refuses makes the projected load refuse too.
@Suite struct ColumnarProjectionTests {
  static let keyCases: [(format: String, keys: Set<String>?)] = [
    ("distance BETWEEN {1, 5}", ["distance"]),
    ("location.city == 'Oslo' OR rating > 4", ["location", "rating"]),
    ("'wifi' IN tags", ["tags"]),
    ("tags.@count > 2 AND NOT (city == 'Tokyo')", ["tags", "city"]),
    ("ANY tags == 'x' AND name BEGINSWITH[c] 'b'", ["tags", "name"]),
    ("TRUEPREDICATE", []),
    ("SELF.name == 'x'", ["name"]),
    // Planning over no records: LIKE reads `name` (over real records it may still fall back).
    ("name LIKE 'b*'", ["name"]),
    ("a == b", nil),
    ("name == SELF", nil),
    ("SUBQUERY(tags, $t, $t == 'x').@count > 0", nil),
  ]

  @Test(arguments: keyCases)
  func keysAreTheKernelsKeys(_ c: (format: String, keys: Set<String>?)) throws {
    #expect(try SiftPredicate(format: c.format).compile().columnarKeys() == c.keys, "\(c.format)")
  }

  @Test func variablesAreSubstitutedFirst() throws {
    let m = try SiftPredicate(format: "rating > $least").compile()
    #expect(m.columnarKeys() == nil)
    #expect(m.columnarKeys(variables: ["least": 3]) == ["rating"])
  }

  /// Records whose keys hold every kind of value (nested, escaped, empty); `other` and `more`
  /// mix kinds the columnar loader does not store (so a predicate reading them goes the general way).
  static func records(seed: UInt64, count: Int) -> [UInt8] {
    var rng = SeededRandom(seed: seed)
    let strings = [#""plain""#, #""esc\"aped\\ \u00e9""#, #""Ñandú""#, #""""#, "null"]
    let values = [
      "1", "-2.5", "3e2", "true", "false", "null", "[]", "{}", #"[1, "two", [3, {"four": 4}]]"#,
      #"{"x": {"y": [null, 1.25e-3]}, "z": "\n\t"}"#,
    ]
    var lines: [String] = []
    for i in 0..<count {
      var members = [
        #""id": \#(i)"#, #""name": \#(rng.pick(strings))"#, #""n": \#(rng.int(in: -3...9))"#,
        #""tags": [\#(rng.pick(strings)), \#(rng.pick(strings))]"#,
        #""loc": {"city": \#(rng.pick(strings)), "deep": \#(rng.pick(["1", "2.5", "null"]))}"#,
        #""other": \#(rng.pick(values))"#, #""more": \#(rng.pick(values))"#,
      ]
      if rng.chance(0.3) { members.removeLast() }
      if rng.chance(0.3) { members.swapAt(0, members.count - 1) }
      lines.append("{" + members.joined(separator: rng.pick([", ", ","])) + "}")
    }
    return Array(lines.joined(separator: "\n").utf8)
  }

  static let formats = [
    "n BETWEEN {0, 4}", "name == 'plain' OR n > 7", "ANY tags == 'Ñandú'", "loc.city BEGINSWITH[c] 'ñ'",
    "tags.@count == 2 AND NOT name == nil", "TRUEPREDICATE", "other == 1",
  ]

  @Test(arguments: [1 as UInt64, 2, 3])
  func countsMatchTheWholeRecords(seed: UInt64) throws {
    let bytes = Self.records(seed: seed, count: 300)
    let rows = try JSONRecords.load(bytes: bytes)
    var projectedLoads = 0
    defer { #expect(projectedLoads == Self.formats.count - 1) }
    for format in Self.formats {
      let m = try SiftPredicate(format: format).compile()
      let keys = try #require(m.columnarKeys(), "\(format)")
      guard let projected = SiftColumnarRecords.direct(bytes, keeping: keys) else {
        #expect(keys.contains("other"), "only the mixed keys stop the loader: \(format)")
        continue
      }
      projectedLoads += 1
      #expect(projected.count == rows.count)
      #expect(
        projected.root.fieldOrder.sorted()
          == keys.intersection(["id", "name", "n", "tags", "loc", "other", "more"]).sorted())
      #expect(try m.count(projected) == m.matchingIndices(rows).count, "\(format)")
    }
  }

  /// A skipped value the general way refuses: the projected load refuses it too. A few it
  /// accepts are left to it as well (`$` keys, escaped keys: the general way may convert them).
  static let skippedValues: [(value: String, generalRefuses: Bool)] = [
    (#""bad \q escape""#, true), ("\"raw \u{01} control\"", true), (#""cut \u12""#, true), (#""open"#, true),
    ("1.", true), ("-", true), ("1e", true), ("1e+", true), ("tru", true), ("nul", true), ("[1,]", true),
    (#"{"a": 1,}"#, true), (#"{"a" 1}"#, true), (#"{a: 1}"#, true), ("[1 2]", true), ("{", true), ("]", true),
    (#"{"$date": "nonsense"}"#, true), (#"{"$data": "%%%"}"#, true),
    (#"{"$date": 0}"#, false), (#"{"\u0024date": "x"}"#, true), (#"{"\u0041": 1}"#, false),
    (String(repeating: "[", count: 60) + String(repeating: "]", count: 60), false),
    ("01", false), ("-0.0e-0", false), ("123456789012345678901234567890", false), (#""\u00e9\ud83d\ude00""#, false),
  ]

  @Test(arguments: skippedValues)
  func refusedSkippedValuesAreRefused(_ c: (value: String, generalRefuses: Bool)) throws {
    let bytes = Array(#"{"keep": 1, "skip": 2}"#.utf8) + [0x0A] + Array(#"{"keep": 2, "skip": \#(c.value)}"#.utf8)
    let general = try? JSONRecords.load(bytes: bytes)
    #expect((general == nil) == c.generalRefuses, "\(c.value)")
    let projected = SiftColumnarRecords.direct(bytes, keeping: ["keep"])
    if general == nil { #expect(projected == nil, "\(c.value)") }
    if let projected {
      #expect(projected.count == 2)
      #expect(projected.root.fieldOrder == ["keep"])
    }
  }

  /// A top-level date key the predicate does not name gets no column, but each value is
  /// checked as a date while it is stepped over; a nested date key's record key is read.
  @Test func dateKeysAreCheckedOrRead() throws {
    let good = Array(#"{"n": 1, "at": "2024-01-02T03:04:05Z", "o": {"at": 5}}"#.utf8)
    let bad = Array(#"{"n": 1, "at": "yesterday"}"#.utf8)
    let dates = SiftJSONDates(keys: ["at": .iso8601, "o.at": .seconds])
    #expect(SiftColumnarRecords.direct(good, dates: dates, keeping: ["n"])?.root.fieldOrder.sorted() == ["n", "o"])
    #expect(SiftColumnarRecords.direct(good, dates: dates, keeping: ["at"])?.root.fieldOrder.sorted() == ["at", "o"])
    #expect(SiftColumnarRecords.direct(bad, dates: dates, keeping: ["n"]) == nil)
  }

  /// Values of a date key stepped over, in each format: whatever the general way refuses, the
  /// projected load refuses too; what it leaves to the general way (escapes, exponents, deep
  /// nesting) has `projectedReads` false.
  static let skippedDates: [(value: String, format: SiftJSONDates.Format, generalRefuses: Bool, projectedReads: Bool)] =
    [
      (#""2024-01-02T03:04:05Z""#, .iso8601, false, true), (#""2024-01-02""#, .iso8601, false, true),
      (#""2024-01-02 03:04:05.25+05:30""#, .iso8601, false, true), ("null", .iso8601, false, true),
      (#"["2024-01-02", null, ["2024-02-29T00:00:00Z"]]"#, .iso8601, false, true), ("[]", .iso8601, false, true),
      (#""2023-02-29""#, .iso8601, true, false), (#""yesterday""#, .iso8601, true, false),
      (#""""#, .iso8601, true, false),
      ("5", .iso8601, true, false), ("true", .iso8601, true, false), (#"{"a": 1}"#, .iso8601, true, false),
      (#"["2024-01-02", 7]"#, .iso8601, true, false), (#""2024-01-0\u0032""#, .iso8601, false, false),
      (#""2024-01-02"#, .iso8601, true, false), (#"["2024-01-02""#, .iso8601, true, false),
      ("1700000000", .seconds, false, true), ("-1.5", .seconds, false, true),
      ("1700000000123", .milliseconds, false, true),
      ("[1, null, 2.5]", .seconds, false, true), ("null", .milliseconds, false, true), ("1e3", .seconds, false, false),
      (#""1700000000""#, .seconds, true, false), ("false", .seconds, true, false),
      (#"[1, "x"]"#, .milliseconds, true, false),
      ("1.", .seconds, true, false), ("-", .seconds, true, false), (#"{"$date": 1}"#, .seconds, false, false),
      (String(repeating: "[", count: 60) + String(repeating: "]", count: 60), .seconds, false, false),
    ]

  @Test(arguments: skippedDates)
  func skippedDatesAreChecked(
    _ c: (value: String, format: SiftJSONDates.Format, generalRefuses: Bool, projectedReads: Bool)
  ) throws {
    let bytes = Array(#"{"keep": 1, "at": null}"#.utf8) + [0x0A] + Array(#"{"keep": 2, "at": \#(c.value)}"#.utf8)
    let dates = SiftJSONDates(keys: ["at": c.format])
    let general = try? JSONRecords.load(bytes: bytes, dates: dates)
    #expect((general == nil) == c.generalRefuses, "\(c.value)")
    let projected = SiftColumnarRecords.direct(bytes, dates: dates, keeping: ["keep"])
    #expect((projected != nil) == c.projectedReads, "\(c.value)")
    if let projected {
      #expect(projected.count == 2)
      #expect(projected.root.fieldOrder == ["keep"])
    }
  }

  /// Seeded byte mutations of JSON Lines (a JSON character put in, a byte dropped or changed):
  /// whenever the general way refuses the text, the projected load refuses it too; whenever the
  /// projected load reads it, it reads the general way's records and the kept keys' values.
  @Test(arguments: [11 as UInt64, 12, 13, 14])
  func mutatedTextNeverReadsWhatTheGeneralWayRefuses(seed: UInt64) throws {
    var rng = SeededRandom(seed: seed)
    let alphabet = Array(#"{}[]",:\ 0123456789.eE+-truefalsn$u"#.utf8) + [0x0A, 0x01, 0xC3]
    try Self.checkMutations(
      of: Self.records(seed: seed, count: 6), alphabet: alphabet, edits: 1...3, runs: 400, keeping: ["n", "loc"],
      &rng)
  }

  /// The same with date keys the predicate does not read: seeded mutations of their text (digits,
  /// separators, quotes, exponents) never make the projected load read what the general way,
  /// with the same `--dates`, refuses.
  @Test(arguments: [21 as UInt64, 22, 23])
  func mutatedDatesNeverReadWhatTheGeneralWayRefuses(seed: UInt64) throws {
    var rng = SeededRandom(seed: seed)
    var lines: [String] = []
    for i in 0..<6 {
      let at = rng.pick([
        #""2024-02-29T23:59:59Z""#, #""2023-12-31""#, "null", #"["2024-01-02 03:04:05.5+01:00", null]"#,
      ])
      let ms = rng.pick(["1700000000123", "-12.5", "null", "[1, [2, null]]"])
      lines.append(#"{"n": \#(i), "at": \#(at), "ms": \#(ms)}"#)
    }
    let alphabet = Array(#"0123456789-+:.TZeE"[]{},\ n"#.utf8) + [0x0A]
    try Self.checkMutations(
      of: Array(lines.joined(separator: "\n").utf8), alphabet: alphabet, edits: 1...2, runs: 600, keeping: ["n"],
      dates: SiftJSONDates(keys: ["at": .iso8601, "ms": .milliseconds]), &rng)
  }

  /// Loads `runs` mutations of `base` (each a few one-byte edits: a byte of `alphabet` put in,
  /// a byte dropped or changed) keeping only `keeping`, and checks each against the general way
  /// with the same `dates`; both outcomes must happen (else the check passed vacuously).
  static func checkMutations(
    of base: [UInt8], alphabet: [UInt8], edits: ClosedRange<Int>, runs: Int, keeping: Set<String>,
    dates: SiftJSONDates = .none, _ rng: inout SeededRandom
  ) throws {
    var refused = 0
    var read = 0
    for _ in 0..<runs {
      var bytes = base
      for _ in 0..<rng.int(in: edits) {
        let at = rng.int(in: 0...(bytes.count - 1))
        switch rng.int(in: 0...2) {
        case 0: bytes.insert(rng.pick(alphabet), at: at)
        case 1: bytes.remove(at: at)
        default: bytes[at] = rng.pick(alphabet)
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let general = try? JSONRecords.values(bytes: bytes, dates: dates)
      guard let projected = SiftColumnarRecords.direct(bytes, dates: dates, keeping: keeping) else {
        refused += 1
        continue
      }
      read += 1
      let records = try #require(general, "projected read what the general way refuses: \(text)")
      #expect(projected.count == records.count)
      for (i, record) in records.enumerated() {
        guard case .dictionary(let d) = record else {
          Issue.record("record \(i) is no object")
          continue
        }
        for key in keeping { #expect(projected.value(forKey: key, at: i) == d[key], "\(text)") }
      }
    }
    #expect(refused > 20 && read > 20, "refused \(refused), read \(read)")
  }
}
