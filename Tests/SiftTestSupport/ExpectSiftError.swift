import SiftSyntax
import Testing

/// Expects `body` to throw a `SiftError` whose id is `id` — the project's contract, which a
/// bare `#expect(throws: SiftError.self)` does not check — and, when given, whose stage is
/// `stage` and whose diagnostic starts at UTF-8 offset `offset` of its source. Records an issue
/// at the caller otherwise, and returns the error (nil when there was none) for further checks.
///
/// ```swift
/// expectSiftError(id: "expected-expression", stage: .parse, at: 7) { try SiftPredicate(format: "name ==") }
/// ```
@discardableResult
public func expectSiftError<R>(
  id: String, stage: SiftError.Stage? = nil, at offset: Int? = nil, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> SiftError? {
  let outcome: Result<R, any Error>
  do { outcome = .success(try body()) } catch { outcome = .failure(error) }
  return check(outcome, id: id, stage: stage, offset: offset, comment, sourceLocation)
}

/// `expectSiftError(id:stage:at:_:_:)` for a body that awaits.
@discardableResult
public func expectSiftError<R>(
  id: String, stage: SiftError.Stage? = nil, at offset: Int? = nil, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> R
) async -> SiftError? {
  let outcome: Result<R, any Error>
  do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
  return check(outcome, id: id, stage: stage, offset: offset, comment, sourceLocation)
}

private func check<R>(
  _ outcome: Result<R, any Error>, id: String, stage: SiftError.Stage?, offset: Int?, _ comment: Comment?,
  _ sourceLocation: SourceLocation
) -> SiftError? {
  let prefix = comment.map { "\($0): " } ?? ""
  switch outcome {
  case .success(let value):
    Issue.record("\(prefix)expected SiftError '\(id)', got \(value)", sourceLocation: sourceLocation)
    return nil
  case .failure(let error as SiftError):
    if error.id != id {
      Issue.record(
        "\(prefix)expected SiftError '\(id)', got '\(error.id)': \(error.message)", sourceLocation: sourceLocation)
    }
    if let stage, error.stage != stage {
      Issue.record("\(prefix)'\(id)': expected stage \(stage), got \(error.stage)", sourceLocation: sourceLocation)
    }
    if let offset, error.diagnostic.range.start != offset {
      Issue.record(
        "\(prefix)'\(id)': expected offset \(offset), got \(error.diagnostic.range.start)",
        sourceLocation: sourceLocation)
    }
    return error
  case .failure(let error):
    Issue.record(
      "\(prefix)expected SiftError '\(id)', got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
    return nil
  }
}
