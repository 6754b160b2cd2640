import SiftSyntax
import Testing

/// `SiftNumberText`: the text CAST gives a number and the number it reads from text, the one
/// rule memory and SQL share (Grammar/notes/evaluation.md, "CAST").
@Suite("Number text (CAST between numbers and strings)")
struct NumberTextTests {
  @Test(arguments: [
    ("42", SiftValue.int(42)), (" 2.50 ", .double(2.5)), ("\t7\u{3000}", .int(7)), ("+.5e1", .double(5)),
    ("5.", .double(5)), ("-0", .int(0)), ("9223372036854775807", .int(.max)),
    ("9223372036854775808", .double(9_223_372_036_854_775_808)), ("1e400", .double(.infinity)),
    ("-1e400", .double(-.infinity)), ("1E2", .double(100)), ("007", .int(7)),
  ])
  func readsDecimalText(_ text: String, _ expected: SiftValue) {
    #expect(SiftNumberText.number(text) == expected, "\(text)")
  }

  @Test(arguments: ["", " ", "abc", "0x10", "inf", "nan", "Infinity", "1,5", "1e", ".", "+", "1 2", "١٢", "\n5"])
  func refusesOtherText(_ text: String) {
    #expect(SiftNumberText.number(text) == nil, "\(text)")
  }

  @Test func belowTheDoubleRangeIsSignedZero() {
    guard case .double(let d)? = SiftNumberText.number("-1e-400") else {
      Issue.record("not a double")
      return
    }
    #expect(d == 0 && d.sign == .minus)
  }

  @Test(arguments: [
    (3.0, "3"), (-0.0, "0"), (0.1, "0.1"), (1e-05, "1e-05"), (1e20, "1e+20"),
    (1_234_567_890_123_456.5, "1234567890123456.5"),
    (0.30000000000000004, "0.30000000000000004"), (.infinity, "inf"), (-.infinity, "-inf"), (.nan, "nan"),
    (-Double.nan, "nan"), (9_007_199_254_740_992, "9007199254740992"),
  ])
  func printsDoubles(_ d: Double, _ expected: String) {
    #expect(SiftNumberText.text(d) == expected, "\(d)")
  }
}
