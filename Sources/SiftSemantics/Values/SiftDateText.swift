import Foundation

/// The ISO-8601 text a date may be typed as in `CAST("…", "NSDate")` (Sift's extension of
/// Apple's language, folded into a date constant when parsing or binding) and the text the
/// canonical printer writes for a date.
///
/// Accepted: `YYYY-MM-DD` (midnight UTC), or that followed by `T` (or a space) and
/// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fraction`, then `Z`, `±HH:MM` or nothing (UTC). The day
/// must exist in its month (`2023-02-29` is refused).
///
/// ```swift
/// SiftDateText.parse("2024-03-01T11:30:00+02:00")   // 2024-03-01 09:30 UTC
/// SiftDateText.parse("2024-02-30")                  // nil
/// ```
package enum SiftDateText {
  /// The date `text` names, or nil when it is not one of the accepted forms.
  public static func parse(_ text: String) -> Date? {
    // One rule for ISO-8601 text everywhere: `{"$date": …}`, --dates and CAST read alike.
    SiftJSON.parseDate(text)
  }

  /// `2024-03-01T09:30:00Z` (milliseconds when there are any) when that text parses back to
  /// exactly `date`; nil for dates it cannot name exactly (sub-millisecond parts, years
  /// outside 0000–9999), which print as seconds since 2001 instead.
  public static func exactText(_ date: Date) -> String? {
    let seconds = date.timeIntervalSinceReferenceDate
    guard seconds.isFinite else { return nil }
    let text = SiftJSON.formatDate(date)
    guard let back = parse(text), back.timeIntervalSinceReferenceDate == seconds else { return nil }
    return text
  }

  /// The message for text that is not a date in `CAST(text, "NSDate")` (evaluation and SQL
  /// say the same).
  ///
  /// ```swift
  /// SiftDateText.notADate("2024-13-01")   // "\"2024-13-01\" is not a date: CAST(…, \"NSDate\") takes …"
  /// ```
  public static func notADate(_ text: String) -> String {
    var quoted = ""
    SiftJSON.writeString(text, into: &quoted)
    return quoted + " is not a date: CAST(…, \"NSDate\") takes seconds since 2001 or ISO-8601 text such as "
      + "2024-03-01, 2024-03-01T09:30:00Z, 2024-03-01T09:30:00.250Z or 2024-03-01T11:30:00+02:00"
  }
}
