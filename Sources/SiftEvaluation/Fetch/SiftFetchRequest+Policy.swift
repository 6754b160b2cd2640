import SiftSyntax

extension SiftFetchRequest {
  /// Executes a client's request under a policy, in memory: the request is checked and
  /// made safe (`SiftQueryPolicy.applying(to:variables:)`: keys, denied constructs, size
  /// limits, `require` ANDed around the predicate with the server's `variables`, the limit
  /// capped at `limits.rows`), then run with `limits.milliseconds` as its time limit.
  ///
  /// ```swift
  /// let policy = try SiftQueryPolicy(json: policyText)
  /// let request = SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: clientFilter))
  /// let page = try request.execute(on: notes, policy: policy, variables: ["USER": 42])
  /// ```
  /// - Throws: a refusal (stage `.policy`); `time-limit` (stage `.policy`) when the query ran
  ///   out of time; or what `execute(on:)` throws.
  public func execute<R: SiftRecord>(
    on records: [R], policy: SiftQueryPolicy, variables: [String: SiftValue] = [:],
    options: EvaluationOptions = EvaluationOptions()
  ) throws(SiftError) -> SiftFetchResult {
    let safe = try policy.applying(to: self, variables: variables)
    var options = options
    if let ms = policy.limits.milliseconds { options.timeLimit = min(options.timeLimit ?? ms, ms) }
    do {
      return try safe.execute(on: records, variables: variables, options: options)
    } catch {
      throw error.asPolicyRefusal
    }
  }
}

extension SiftError {
  /// A `time-limit` error reported at stage `.policy` (the policy's limit was hit); others as they are.
  var asPolicyRefusal: SiftError {
    guard diagnostic.id == DiagnosticID.timeLimit.rawValue else { return self }
    var e = self
    e.stage = .policy
    return e
  }
}
