/// The PostgreSQL part of the setup that orders `.localizedStandard` sorts as memory does
/// (`SiftSortOrder.localizedStandard`: Foundation's `localizedStandardCompare` of the strings'
/// NFKC forms, then code points; Grammar/notes/fetch.md, "Localized order").
///
/// Foundation compares with ICU (numeric, punctuation not ignorable) after its own walk over the
/// text, which adds what ICU's collation alone does not: a case level (`σ ς Σ`, `ǅ` before `Ǆ`)
/// and, for numbers of equal value, fewer digits first (`1` before `01`) when that is the first
/// difference met. `sift_localized_key(s)` is a composite whose fields the server compares in
/// turn, each with its own collation:
/// 1. `base` — NFKC form, ICU root, numeric, accents but no case (`sift_localized_base`, level 2,
///    non-deterministic: equal strings tie).
/// 2. `events` — `sift_localized_events`: for text with ASCII digits, one mark per character
///    (`a` lower or uncased, `b` cased other) and one per digit run (its length), in order;
///    empty otherwise. First difference wins, as in Foundation's walk.
/// 3. `variant` — NFKC form, ICU with a case level (`sift_localized_case`): case, then variants.
/// 4. `form`, 5. `raw` — the NFKC form, then the text itself, by code point.
///
/// ```swift
/// PostgresLocalizedSQL.statements(schema: "sift").count   // 6
/// ```
enum PostgresLocalizedSQL {
  /// The statements, for functions in schema `s` (written as it is: quoted already where it
  /// must be).
  static func statements(schema s: String) -> [String] {
    [
      // localizedStandardCompare is ICU with numeric ordering (file9 < file10); "und-x-icu" is not.
      // Kept for statements compiled by an earlier Sift (COLLATE sift.sift_localized).
      "CREATE COLLATION IF NOT EXISTS \(s).sift_localized (provider = icu, locale = 'und-u-kn-true')",
      "CREATE COLLATION IF NOT EXISTS \(s).sift_localized_base"
        + " (provider = icu, locale = 'und-u-kn-true-ks-level2', deterministic = false)",
      "CREATE COLLATION IF NOT EXISTS \(s).sift_localized_case"
        + " (provider = icu, locale = 'und-u-kn-true-kc-true', deterministic = false)",
      """
      CREATE OR REPLACE FUNCTION \(s).sift_localized_events(t text) RETURNS text
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT CASE WHEN t !~ '[0-9]' THEN '' ELSE (
          SELECT string_agg(
            CASE WHEN m[1] ~ '^[0-9]' THEN chr(256 + least(length(m[1]), 65536))
            ELSE (SELECT string_agg(CASE WHEN c = lower(c COLLATE \(s).sift_localized) THEN 'a' ELSE 'b' END, ''
                    ORDER BY k)
                  FROM unnest(string_to_array(m[1], NULL)) WITH ORDINALITY AS u(c, k)) END, '' ORDER BY n)
          FROM regexp_matches(t, '[0-9]+|[^0-9]+', 'g') WITH ORDINALITY AS r(m, n)) END
      $$
      """,
      // CREATE TYPE has no OR REPLACE: made once, kept (a user's index may use the key).
      """
      DO $$ BEGIN
        IF to_regtype(\(PostgresFoldingSQL.quote(s + ".sift_localized_key"))) IS NULL THEN
          CREATE TYPE \(s).sift_localized_key AS (
            base text COLLATE \(s).sift_localized_base, events text COLLATE "C",
            variant text COLLATE \(s).sift_localized_case, form text COLLATE "C", raw text COLLATE "C");
        END IF;
      END $$
      """,
      """
      CREATE OR REPLACE FUNCTION \(s).sift_localized_key(x text) RETURNS \(s).sift_localized_key
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT ROW(f, \(s).sift_localized_events(f), f, f, x)::\(s).sift_localized_key
        FROM (SELECT normalize(x, NFKC) AS f) AS n
      $$
      """,
    ]
  }
}
