import CSQLite
import Foundation
import SiftSyntax

/// The conversions behind CAST between kinds and `FUNCTION(x, 'length')` (`SQLConversion`),
/// each calling the SiftSyntax rule memory runs. NULL in, NULL out.
///
/// | function | meaning |
/// | --- | --- |
/// | `sift_number_text(x)` | `SiftNumberText.text` (an integer in decimal) |
/// | `sift_text_number(s)` | `SiftNumberText.number`: an integer, a double or NULL |
/// | `sift_text_date(s)` | `SiftDateText.parse` as seconds since 2001; an error naming text that is no date |
/// | `sift_date_text(x)` | seconds since 2001 as `SiftJSON.formatDate` writes them |
/// | `sift_utf16_length(s)` | UTF-16 code units (`NSString.length`) |
extension SQLiteFunctions {
  static func registerConversions(_ add: (String, Int32, Function) -> Void) {
    add("sift_number_text", 1, numberTextFunction)
    add("sift_text_number", 1, textNumberFunction)
    add("sift_text_date", 1, textDateFunction)
    add("sift_date_text", 1, dateTextFunction)
    add("sift_utf16_length", 1, utf16LengthFunction)
  }

  static let numberTextFunction: Function = { ctx, _, argv in
    let a = value(argv, 0)
    switch sqlite3_value_type(a) {
    case SQLITE_NULL: sqlite3_result_null(ctx)
    case SQLITE_INTEGER: result(ctx, String(sqlite3_value_int64(a)))
    case SQLITE_FLOAT: result(ctx, SiftNumberText.text(sqlite3_value_double(a)))
    default: result(ctx, text(argv, 0) ?? "")
    }
  }

  static let textNumberFunction: Function = { ctx, _, argv in
    let a = value(argv, 0)
    switch sqlite3_value_type(a) {
    case SQLITE_NULL: sqlite3_result_null(ctx)
    case SQLITE_INTEGER: sqlite3_result_int64(ctx, sqlite3_value_int64(a))
    case SQLITE_FLOAT: sqlite3_result_double(ctx, sqlite3_value_double(a))
    default:
      switch SiftNumberText.number(text(argv, 0) ?? "") {
      case .int(let i)?: sqlite3_result_int64(ctx, i)
      case .double(let d)?: sqlite3_result_double(ctx, d)
      default: sqlite3_result_null(ctx)
      }
    }
  }

  static let textDateFunction: Function = { ctx, _, argv in
    guard let s = text(argv, 0) else { return sqlite3_result_null(ctx) }
    guard let d = SiftDateText.parse(s) else { return sqlite3_result_error(ctx, SiftDateText.notADate(s), -1) }
    sqlite3_result_double(ctx, d.timeIntervalSinceReferenceDate)
  }

  static let dateTextFunction: Function = { ctx, _, argv in
    guard let x = double(argv, 0) else { return sqlite3_result_null(ctx) }
    result(ctx, SiftJSON.formatDate(Date(timeIntervalSinceReferenceDate: x)))
  }

  static let utf16LengthFunction: Function = { ctx, _, argv in
    guard let s = text(argv, 0) else { return sqlite3_result_null(ctx) }
    sqlite3_result_int64(ctx, Int64(SiftSelector.utf16Length(s)))
  }
}
