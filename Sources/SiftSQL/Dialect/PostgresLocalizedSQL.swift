/// The PostgreSQL part of the setup that orders `.localizedStandard` sorts as memory does
/// (`SiftSortOrder.localizedStandard`: Foundation's `localizedStandardCompare` of the strings'
/// NFKC forms, then code points; Grammar/notes/fetch.md, "Localized order on PostgreSQL").
///
/// Foundation compares with ICU (numeric, punctuation not ignorable) after its own walk over the
/// text, which adds what ICU's collation alone does not: a case level (`σ ς Σ`, `ǅ` before `Ǆ`)
/// and, for numbers of equal value, fewer digits first (`1` before `01`) when that is the first
/// difference met. A sort by `x` is five ORDER BY keys (`keys`), each compared only on a tie of
/// the ones before:
/// 1. the NFKC form under ICU root, numeric, accents but no case (`sift_localized_base`, level 2,
///    non-deterministic: equal strings tie);
/// 2. `sift_localized_events` of the NFKC form: for text with ASCII digits, the text with cased
///    letters as U+10FFFE and digits as U+10FFFF (lower or uncased before upper before a digit,
///    so a shorter digit run comes first), by code point; empty otherwise. First difference wins,
///    as in Foundation's walk;
/// 3. the NFKC form under ICU with a case level (`sift_localized_case`): case, then variants;
/// 4. the NFKC form, 5. the text itself, by code point.
///
/// ```swift
/// PostgresLocalizedSQL.statements(schema: "sift").count   // 4
/// ```
enum PostgresLocalizedSQL {
  /// The statements, for functions in schema `s` (written as it is: quoted already where it
  /// must be).
  static func statements(schema s: String) -> [String] {
    [
      // localizedStandardCompare is ICU with numeric ordering (file9 < file10); "und-x-icu" is not.
      // Kept for statements compiled by an earlier Sift (COLLATE sift.sift_localized); its case
      // mapping serves `[[:upper:]]` below.
      "CREATE COLLATION IF NOT EXISTS \(s).sift_localized (provider = icu, locale = 'und-u-kn-true')",
      "CREATE COLLATION IF NOT EXISTS \(s).sift_localized_base"
        + " (provider = icu, locale = 'und-u-kn-true-ks-level2', deterministic = false)",
      "CREATE COLLATION IF NOT EXISTS \(s).sift_localized_case"
        + " (provider = icu, locale = 'und-u-kn-true-kc-true', deterministic = false)",
      // One regular-expression pass and a translate, in C. Measured on the shared CI server,
      // 100,000 rows of text with digits sort in 3.9–4.7 s by all five keys (0.7–0.8 s by the ICU
      // collation alone; a character-by-character unnest took 37 s, a record-valued key function
      // 11 s); text without digits in about 1.6 s (0.3 s).
      """
      CREATE OR REPLACE FUNCTION \(s).sift_localized_events(t text) RETURNS text
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT CASE WHEN t !~ '[0-9]' THEN '' ELSE
          translate(regexp_replace(t COLLATE \(s).sift_localized, '[[:upper:]]', chr(1114110), 'g'),
            '0123456789', repeat(chr(1114111), 10)) END
      $$
      """,
    ]
  }

  /// The ORDER BY keys of a localized sort of `value` (SQL text), for functions in `schema`
  /// (unquoted name).
  ///
  /// ```swift
  /// PostgresLocalizedSQL.keys("t0.\"name\"", schema: "sift").count   // 5
  /// ```
  static func keys(_ value: String, schema: String) -> [String] {
    let quoted = "\"" + schema.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    let form = "normalize(" + value + ", NFKC)"
    return [
      form + " COLLATE " + quoted + ".\"sift_localized_base\"",
      PostgreSQLDialect.qualifier(schema) + ".sift_localized_events(" + form + ") COLLATE \"C\"",
      form + " COLLATE " + quoted + ".\"sift_localized_case\"",
      form + " COLLATE \"C\"",
      value + " COLLATE \"C\"",
    ]
  }
}
