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
    /// Compiling to SQL.
    case sql
    /// Refused by a `SiftQueryPolicy` (a key, an operator or a limit), or over its time limit.
    case policy
  }

  /// The stage.
  public var stage: Stage
  /// The problem.
  public var diagnostic: SiftDiagnostic
  /// The predicate text the diagnostic's range points into.
  public var source: String

  /// Creates an error.
  public init(stage: Stage, diagnostic: SiftDiagnostic, source: String) {
    self.stage = stage
    self.diagnostic = diagnostic
    self.source = source
  }

  /// Line and column of the start of the diagnostic's range.
  public var location: SiftSourcePosition {
    SiftSourcePosition(offset: diagnostic.range.start, in: source)
  }

  /// The rendered diagnostic (plain text, no colors).
  public var description: String {
    SiftDiagnosticRenderer().render(diagnostic, in: source)
  }
}
