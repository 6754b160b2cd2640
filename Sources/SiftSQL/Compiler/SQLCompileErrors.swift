import SiftSyntax

/// Diagnostics of the SQL stage. Each carries the source range of the offending node and an
/// id from the one list (`DiagnosticID`); a condition memory also meets has memory's id
/// (Grammar/notes/errors.md, "Same condition, same id").
enum SQLDiagnostics {
  static func error(_ id: DiagnosticID, _ message: String, _ range: SiftSourceRange, source: String) -> SiftError {
    SiftError(stage: .sql, diagnostic: SiftDiagnostic(id: id, message: message, range: range), source: source)
  }

  static func unknownKey(_ key: String, entity: SQLEntity, _ range: SiftSourceRange, source: String) -> SiftError {
    var message = "keypath '\(key)' not found in entity \(entity.name)"
    var fixIts: [SiftDiagnostic.FixIt] = []
    if let s = Spelling.closest(to: key, in: entity.keys) {
      message += "; did you mean '\(s)'?"
      if range.length == key.utf8.count {
        fixIts.append(.init("did you mean '\(s)'?", range: range, replacement: s))
      }
    }
    return SiftError(
      stage: .sql,
      diagnostic: SiftDiagnostic(id: .unknownKeyPath, message: message, range: range, fixIts: fixIts),
      source: source)
  }
}
