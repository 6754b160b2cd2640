/// A problem found in a predicate, as data: a stable identifier, a message, a source range,
/// notes and fix-its. `SiftDiagnosticRenderer` turns it into text with a caret under the range.
///
/// ```swift
/// do { _ = try SiftPredicate(format: "name ==") }
/// catch let error as SiftError { print(error.diagnostic.id) }   // expected-expression
/// ```
public struct SiftDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// How serious a diagnostic is.
  public enum Severity: String, Sendable, Hashable {
    /// The predicate cannot be used.
    case error
    /// The predicate works but probably does not mean what was written.
    case warning
    /// Extra information attached to another diagnostic.
    case note
  }

  /// A secondary message pointing at another place ("to match this '('").
  public struct Note: Sendable, Hashable {
    /// The text.
    public var message: String
    /// Where it points; nil when it is general advice.
    public var range: SiftSourceRange?
    /// Creates a note.
    public init(_ message: String, at range: SiftSourceRange? = nil) {
      self.message = message
      self.range = range
    }
  }

  /// A suggested edit: replace `range` with `replacement`.
  public struct FixIt: Sendable, Hashable {
    /// What the edit does, e.g. "did you mean 'BEGINSWITH'?".
    public var message: String
    /// The text to replace.
    public var range: SiftSourceRange
    /// The new text.
    public var replacement: String
    /// Creates a fix-it.
    public init(_ message: String, range: SiftSourceRange, replacement: String) {
      self.message = message
      self.range = range
      self.replacement = replacement
    }
  }

  /// Stable identifier, kebab-case, e.g. `unterminated-string`. Safe to match on.
  public var id: String
  /// Error or warning.
  public var severity: Severity
  /// One-line message in lower case, without a trailing period.
  public var message: String
  /// The offending bytes.
  public var range: SiftSourceRange
  /// Further pointers.
  public var notes: [Note]
  /// Suggested edits.
  public var fixIts: [FixIt]

  /// Creates a diagnostic.
  public init(
    id: String, severity: Severity = .error, message: String, range: SiftSourceRange,
    notes: [Note] = [], fixIts: [FixIt] = []
  ) {
    self.id = id
    self.severity = severity
    self.message = message
    self.range = range
    self.notes = notes
    self.fixIts = fixIts
  }

  /// `error: message` without source context (see `SiftDiagnosticRenderer` for the full form).
  public var description: String { "\(severity.rawValue): \(message)" }
}

/// The error every front door of Sift throws: one diagnostic plus the source it refers to.
/// Its `description` is the rendered diagnostic with the source line and a caret.
///
/// ```swift
/// do { _ = try SiftPredicate(format: "(a == 1") }
/// catch { print(error) }
/// // error: expected ')' to close '('
/// //  --> 1:8
/// // 1 | (a == 1
/// //   |        ^
/// ```
public struct SiftError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which stage reported the problem; matches the `stage` field of `sift batch`.
  public enum Stage: String, Sendable, Hashable {
    /// Lexing or parsing.
    case parse
    /// Binding `%@`/`%K` arguments or `$VARIABLES`.
    case arguments
    /// Evaluating against a record.
    case evaluate
    /// Compiling to SQL, or running it (SQLite, PostgreSQL: opening, connecting, executing).
    case sql
    /// Reading records: JSON text, date strategies, encoding Swift values as records.
    case data
    /// Reading a Core Data model or store.
    case model
    /// Decoding result rows into Swift values (`fetch(_:as:)`, `SiftRow.decode`).
    case decode
    /// Keeping fetched results current (live results, live tables).
    case live
    /// Converting Swift's `#Predicate` or `SortDescriptor` (`SiftPredicate(_:keys:)`).
    case convert
    /// Refused by a `SiftQueryPolicy` (a key, an operator or a limit), or over its time limit.
    case policy
  }

  /// The stage.
  public var stage: Stage
  /// The problem: a stable id (`unterminated-string`, `postgres-connection`, …), a message and
  /// the range of `source` it points at.
  public var diagnostic: SiftDiagnostic
  /// The text the diagnostic's range points into: the predicate, the SQL, or empty when the
  /// problem has no text of its own (a file, a connection).
  public var source: String
  /// The cause beneath Sift's words, when there is one: a `PostgresError` with the server's
  /// SQLSTATE, a `CoreDataModelError` with file and line, a Foundation I/O error, a caller's
  /// `Encodable` failing. Not compared by `==`.
  public var underlying: (any Error & Sendable)?

  /// Creates an error.
  public init(stage: Stage, diagnostic: SiftDiagnostic, source: String, underlying: (any Error & Sendable)? = nil) {
    self.stage = stage
    self.diagnostic = diagnostic
    self.source = source
    self.underlying = underlying
  }

  /// An error with no predicate text to point into (a file, a connection, a row).
  ///
  /// ```swift
  /// throw SiftError(stage: .data, id: "invalid-json", message: "venues.json:3:7: expected ','")
  /// ```
  public init(stage: Stage, id: String, message: String, underlying: (any Error & Sendable)? = nil) {
    self.init(
      stage: stage, diagnostic: SiftDiagnostic(id: id, message: message, range: .at(0)), source: "",
      underlying: underlying)
  }

  /// The stable identifier of the problem (`diagnostic.id`): safe to match on.
  public var id: String { diagnostic.id }
  /// The one-line message (`diagnostic.message`).
  public var message: String { diagnostic.message }

  /// Two errors are equal when their stage, diagnostic and source text are.
  public static func == (a: SiftError, b: SiftError) -> Bool {
    a.stage == b.stage && a.diagnostic == b.diagnostic && a.source == b.source
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(stage)
    hasher.combine(diagnostic)
    hasher.combine(source)
  }

  /// Line and column of the start of the diagnostic's range.
  public var location: SiftSourcePosition {
    SiftSourcePosition(offset: diagnostic.range.start, in: source)
  }

  /// The rendered diagnostic (plain text, no colors): with a caret under the spot when there
  /// is text to point into, else the message alone (it names its file, table or server).
  public var description: String {
    if source.isEmpty && diagnostic.range.start == diagnostic.range.end && diagnostic.notes.isEmpty
      && diagnostic.fixIts.isEmpty
    {
      return diagnostic.message
    }
    return SiftDiagnosticRenderer().render(diagnostic, in: source)
  }
}
