import SiftSyntax

/// PostgreSQL's twins of the SiftSyntax rules behind CAST between kinds and
/// `FUNCTION(x, 'length')`, created in the setup's schema by `PostgreSQLDialect.setupSQL` (their
/// own block, after the other functions). Each gives memory's answer (Grammar/notes/sql.md,
/// "CAST and selectors"); NULL in, NULL out.
///
/// - `sift_number_text(x double precision)`: `SiftNumberText.text`. PostgreSQL ≥ 12 prints a
///   double's shortest round-trip digits, as Swift; whole numbers print through `bigint`,
///   infinities and NaN in Swift's words, and the one range where the two switch notation
///   differently (1e15 to 2^53) through `numeric`.
/// - `sift_text_number(s text)`: `SiftNumberText.number`, as a double precision (integer text
///   beyond 2^53 rounds).
/// - `sift_text_date(s text)`: `SiftDateParser.parse` as seconds since 2001, by the same
///   arithmetic; text that is no date raises SQLSTATE `22007`.
/// - `sift_utf16_length(s text)`: `NSString.length`: characters, plus one for each beyond the BMP.
///
/// ```swift
/// PostgresCastSQL.functions(schema: "sift").count   // 4
/// ```
enum PostgresCastSQL {
  /// The `CREATE OR REPLACE FUNCTION` statements, in schema `s` (already quoted if needed).
  static func functions(schema s: String) -> [String] {
    [numberText(s), textNumber(s), textDate(s), utf16Length(s)]
  }

  /// `SiftNumberText.spaces` as a PostgreSQL escape string literal, for `btrim`.
  static var spacesLiteral: String {
    "E'"
      + SiftNumberText.spaces.map { scalar -> String in
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      }.joined() + "'"
  }

  static func numberText(_ s: String) -> String {
    // extra_float_digits > 0 (1 is the default since PostgreSQL 12) prints the shortest text;
    // the SET keeps it so whatever the session says (≤ 0 rounds to 15 digits). It costs: over
    // 200,000 computed doubles 4.0 s against 2.3 s without the SET and 0.47 s for a plain
    // `::text` (PostgreSQL 15, this machine), paid only by predicates that CAST a double.
    #"""
    CREATE OR REPLACE FUNCTION \#(s).sift_number_text(x double precision) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET extra_float_digits = 1 AS $$
      SELECT CASE
        WHEN x = trunc(x) AND x >= '-9223372036854775808'::double precision
          AND x < '9223372036854775808'::double precision THEN x::bigint::text
        WHEN x = 'Infinity'::double precision THEN 'inf'
        WHEN x = '-Infinity'::double precision THEN '-inf'
        WHEN x = 'NaN'::double precision THEN 'nan'
        WHEN abs(x) >= 1e15 AND abs(x) < 9007199254740992 THEN x::text::numeric::text
        ELSE x::text END
    $$
    """#
  }

  static func textNumber(_ s: String) -> String {
    // Without an exponent of three digits and under 200 characters the value is well inside
    // the double range; only the rest pay for the exception block (a subtransaction).
    #"""
    CREATE OR REPLACE FUNCTION \#(s).sift_text_number(s text) RETURNS double precision
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
    DECLARE
      t text := btrim(s, \#(spacesLiteral));
      m text[];
      magnitude numeric;
    BEGIN
      IF t !~ '^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$' THEN RETURN NULL; END IF;
      IF length(t) < 200 AND t !~ '[eE][+-]?0*[1-9][0-9]{2}' THEN RETURN t::double precision; END IF;
      BEGIN
        RETURN t::double precision;
      EXCEPTION WHEN numeric_value_out_of_range THEN
        -- Beyond the double range: strtod (memory) gives ±infinity above it, ±0 below.
        m := regexp_match(t, '^([+-]?)0*([0-9]*)\.?([0-9]*)(?:[eE]([+-]?[0-9]+))?$');
        magnitude := coalesce(m[4]::numeric, 0) + CASE
          WHEN m[2] <> '' THEN length(m[2]) - 1
          ELSE -(length(m[3]) - length(ltrim(m[3], '0')) + 1) END;
        IF magnitude < 0 THEN
          RETURN CASE WHEN m[1] = '-' THEN '-0'::double precision ELSE 0 END;
        END IF;
        RETURN CASE WHEN m[1] = '-' THEN '-Infinity'::double precision ELSE 'Infinity'::double precision END;
      END;
    END
    $$
    """#
  }

  static func textDate(_ s: String) -> String {
    #"""
    CREATE OR REPLACE FUNCTION \#(s).sift_text_date(s text) RETURNS double precision
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
    DECLARE
      m text[] := regexp_match(s, '^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[T ]([0-9]{2}):([0-9]{2})'
        || '(?::([0-9]{2})(?:\.([0-9]+))?)?(?:Z|([+-])([0-9]{2}):?([0-9]{2})?)?)?$');
      y int; mo int; d int; h int := 0; mi int := 0; sec int := 0; off int := 0;
      frac double precision := 0; f text; month_days int; yy int; era int; yoe int; doe int; days bigint;
    BEGIN
      IF m IS NOT NULL THEN
        y := m[1]::int; mo := m[2]::int; d := m[3]::int;
        h := coalesce(m[4]::int, 0); mi := coalesce(m[5]::int, 0); sec := coalesce(m[6]::int, 0);
        IF m[9] IS NOT NULL THEN
          off := (CASE WHEN m[8] = '-' THEN -1 ELSE 1 END) * (m[9]::int * 3600 + coalesce(m[10]::int, 0) * 60);
        END IF;
      END IF;
      -- (plpgsql ends an IF's condition at its first THEN: the month's days first.)
      month_days := CASE WHEN mo = 2 AND y % 4 = 0 AND (y % 100 <> 0 OR y % 400 = 0) THEN 29
        WHEN mo = 2 THEN 28 WHEN mo IN (4, 6, 9, 11) THEN 30 ELSE 31 END;
      IF m IS NULL OR mo < 1 OR mo > 12 OR d < 1 OR d > month_days OR h >= 24 OR mi >= 60 OR sec >= 61
        OR coalesce(m[9]::int, 0) >= 24 OR coalesce(m[10]::int, 0) >= 60
      THEN
        RAISE EXCEPTION USING ERRCODE = '22007', MESSAGE = to_json(s)::text
          || ' is not a date: CAST(…, "NSDate") takes seconds since 2001 or ISO-8601 text such as 2024-03-01';
      END IF;
      IF m[7] IS NOT NULL THEN
        f := left(m[7], 18);
        frac := f::bigint::double precision / ('1e' || length(f))::double precision;
      END IF;
      -- Days since 1970 (Howard Hinnant's algorithm, as SiftJSON.daysFromCivil).
      yy := CASE WHEN mo <= 2 THEN y - 1 ELSE y END;
      era := (CASE WHEN yy >= 0 THEN yy ELSE yy - 399 END) / 400;
      yoe := yy - era * 400;
      doe := yoe * 365 + yoe / 4 - yoe / 100 + (153 * (mo + CASE WHEN mo > 2 THEN -3 ELSE 9 END) + 2) / 5 + d - 1;
      days := era::bigint * 146097 + doe - 719468;
      RETURN ((days * 86400 + h * 3600 + mi * 60 + sec - off)::double precision + frac) - 978307200;
    END
    $$
    """#
  }

  static func utf16Length(_ s: String) -> String {
    #"""
    CREATE OR REPLACE FUNCTION \#(s).sift_utf16_length(s text) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT length(s)::bigint + length(regexp_replace(s, '[^\U00010000-\U0010FFFF]', '', 'g'))
    $$
    """#
  }
}
