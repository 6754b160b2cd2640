import Foundation
import SiftTestSupport
import Testing

@testable import SiftSyntax

/// Plain Swift values at the front doors, and `%K` wherever a key may stand.
@Suite("Swift values as arguments")
struct SwiftArgumentTests {
  enum Status: String { case open, done }
  enum Level: Int, SiftValueConvertible { case low = 1, high = 3 }
  struct Money: SiftValueConvertible {
    var cents: Int
    var siftValue: SiftValue { .double(Double(cents) / 100) }
  }
  struct Opaque {}

  static let date = Date(timeIntervalSince1970: 1_700_000_000)
  static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

  /// Each Swift value, passed as a variable (not a literal), and the SiftValue it binds.
  static var conversions: [(String, Any?, SiftValue)] {
    [
      ("String", "Buy milk" as String, .string("Buy milk")),
      ("Substring", "Buy milk".prefix(3), .string("Buy")),
      ("Character", Character("x"), .string("x")),
      ("Int", 7 as Int, .int(7)),
      ("Int8", Int8(-8), .int(-8)),
      ("Int16", Int16(16), .int(16)),
      ("Int32", Int32(32), .int(32)),
      ("Int64", Int64.min, .int(.min)),
      ("UInt8", UInt8(255), .int(255)),
      ("UInt16", UInt16(16), .int(16)),
      ("UInt32", UInt32.max, .int(Int64(UInt32.max))),
      ("UInt", UInt(5), .int(5)),
      ("UInt64 small", UInt64(9), .int(9)),
      ("UInt64 huge", UInt64.max, .double(Double(UInt64.max))),
      ("Double", 2.5, .double(2.5)),
      ("Float", Float(0.1), .double(0.1)),
      ("Decimal whole", Decimal(42), .int(42)),
      ("Decimal fraction", Decimal(string: "12.75")!, .double(12.75)),
      ("Bool", true, .bool(true)),
      ("Date", date, .date(date)),
      ("Data", Data([1, 2]), .data(Data([1, 2]))),
      ("UUID", uuid, .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")),
      ("URL", URL(string: "https://example.com/a?b=1")!, .string("https://example.com/a?b=1")),
      ("[String]", ["a", "b"], .array(["a", "b"])),
      ("Set<Int>", Set([3]), .array([3])),
      ("[String: Int]", ["k": 1], .dictionary(["k": 1])),
      ("String? some", Optional("x"), .string("x")),
      ("String? none", Optional<String>.none, .null),
      ("nil", nil, .null),
      ("NSNull", NSNull(), .null),
      ("RawRepresentable", Status.open, .string("open")),
      ("RawRepresentable?", Optional(Status.done), .string("done")),
      ("[RawRepresentable]", [Status.open, .done], .array(["open", "done"])),
      ("SiftValueConvertible enum", Level.high, .int(3)),
      ("SiftValueConvertible struct", Money(cents: 250), .double(2.5)),
      ("SiftValue", SiftValue.string("v"), .string("v")),
      ("[Any]", ["a", 1, true] as [Any], .array(["a", 1, true])),
      (
        "[String: Any]", ["d": date, "n": Optional<Int>.none as Any] as [String: Any],
        .dictionary(["d": .date(date), "n": .null])
      ),
    ]
  }

  @Test func eachValueConverts() throws {
    for (name, swift, expected) in Self.conversions {
      #expect(SiftValue(converting: swift) == expected, "\(name)")
      let p = try SiftPredicate(format: "x == %@", arguments: [swift])
      #expect(p == (try SiftPredicate(format: "x == %@", arguments: [expected])), "\(name)")
    }
  }

  /// The call sites of the issue compile and bind as their `SiftValue` spellings do.
  @Test func variablesCompileAndBind() throws {
    let title = "Buy milk"
    let price = 2.5
    let pinned = true
    let due: Date? = nil
    let tags = ["home", "urgent"]
    let p = try SiftPredicate(
      format: "title == %@ AND price < %@ AND pinned == %@ AND due == %@ AND ANY tags IN %@ AND at > %@",
      title, price, pinned, due, tags, Self.date)
    let q = try SiftPredicate(
      format: "title == %@ AND price < %@ AND pinned == %@ AND due == %@ AND ANY tags IN %@ AND at > %@",
      .string(title), .double(price), .bool(pinned), .null, ["home", "urgent"], .date(Self.date))
    #expect(p == q)
    #expect(SiftValue(title) == .string(title))
    #expect(SiftValue(tags) == ["home", "urgent"])
    #expect(try SiftPredicate(format: "status == %@", Status.open).predicateFormat == #"status == "open""#)
    // The SiftValue spellings keep working: implicit members, nil, mixed literals.
    #expect(
      try SiftPredicate(format: "a == %@ AND b == %@", .string("x"), nil).predicateFormat == #"a == "x" AND b == nil"#)
    #expect(try SiftPredicate(format: "a IN %@", [1, "a"]).predicateFormat == #"a IN {1, "a"}"#)
  }

  @Test func bindingSubstitutingAndBuilders() throws {
    let since = Self.date
    let template = try SiftPredicate.parse("at >= %@ AND status == %@")
    #expect(try template.binding([since, Status.open]) == (try template.binding([.date(since), "open"])))
    let name: String? = "Red bar"
    let p = try SiftPredicate(format: "name == $NAME AND n == $N").substituting(["NAME": name, "N": UInt8(3)])
    #expect(p.predicateFormat == #"name == "Red bar" AND n == 3"#)
    let built = try SiftPredicate.comparison("at", .greaterThanOrEqual, since)
    #expect(built == (try SiftPredicate.comparison("at", .greaterThanOrEqual, SiftValue.date(since))))
    let e = try SiftExpression(format: "price * %@", Decimal(2))
    #expect(e.expressionFormat == "price * 2")
  }

  /// A value with no SiftValue is an arguments error at its specifier, naming the type.
  @Test func unsupportedValueIsAnErrorAtItsSpecifier() throws {
    let error = expectSiftError(id: "unsupported-argument-type", stage: .arguments, at: 17) {
      try SiftPredicate(format: "a == %@ AND b == %@", "ok", Opaque())
    }
    #expect(error?.stage == .arguments)
    #expect(error?.diagnostic.id == "unsupported-argument-type")
    #expect(error?.diagnostic.message.contains("argument 2 is Opaque") == true)
    #expect(error?.diagnostic.range == SiftSourceRange(start: 17, end: 19))
    // A syntax error still comes first.
    let syntax = expectSiftError(id: "expected-expression", stage: .parse, at: 5) {
      try SiftPredicate(format: "a == ", Opaque())
    }
    #expect(syntax?.stage == .parse)
    let variable = expectSiftError(id: "unsupported-argument-type", stage: .arguments, at: 0) {
      try SiftPredicate(format: "a == $X").substituting(["X": Opaque()])
    }
    #expect(variable?.diagnostic.message.contains("$X is Opaque") == true)
  }

  /// `%K` after a dot, in both binding routes, against the spelled-out key path.
  @Test(arguments: [
    (
      "ANY %K.%K == %@", ["recipientsRaw.teamRaw", "keyRaw", "frc7332"] as [SiftValue],
      #"ANY recipientsRaw.teamRaw.keyRaw == "frc7332""#
    ),
    ("a.%K == 1", ["b.c"], "a.b.c == 1"),
    ("a.%K.d == 1", ["b"], "a.b.d == 1"),
    ("a[%K] == 1", ["b"], "a.b == 1"),
    ("a.%K == 1", ["SELF"], "a == 1"),
    ("SELF.%K == 1", ["b"], "b == 1"),
    (
      "SUBQUERY(items, $i, $i.%K > %@).@count > 0", ["price", 5],
      "SUBQUERY(items, $i, $i.price > 5).@count > 0"
    ),
    ("%K.@count > 2", ["tags"], "tags.@count > 2"),
    ("a.%K.@sum.x > 2", ["b"], "a.b.@sum.x > 2"),
  ])
  func keyArgumentAfterDot(_ format: String, _ args: [SiftValue], _ expected: String) throws {
    let bound = try SiftPredicate(format: format, arguments: args)
    #expect(bound.predicateFormat == expected)
    #expect(bound == (try SiftPredicate(format: expected)))
    let later = try SiftPredicate.parse(format).binding(args)
    #expect(later == bound)
    // The unbound template prints and parses back to itself.
    let template = try SiftPredicate.parse(format)
    #expect(try SiftPredicate.parse(template.predicateFormat) == template)
  }

  @Test func keyArgumentErrors() throws {
    let wrongKind = expectSiftError(id: "wrong-argument-kind", stage: .arguments, at: 2) {
      try SiftPredicate(format: "a.%K == 1", 5)
    }
    #expect(wrongKind?.diagnostic.id == "wrong-argument-kind")
    #expect(wrongKind?.diagnostic.range == SiftSourceRange(start: 2, end: 4))
    let notKey = expectSiftError(id: "expected-key", stage: .parse, at: 2) {
      try SiftPredicate(format: "a.%@ == 1", "b")
    }
    #expect(notKey?.diagnostic.id == "expected-key")
  }
}
