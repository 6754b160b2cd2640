import Foundation
import SiftSyntax

@testable import SiftEvaluation

/// Directory of the shared conformance sample.
let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("Fixtures/conformance")

/// A small record exercising every kind of value.
let sample: SiftValue = [
  "name": "Crème Brûlée Café", "city": "Straße", "greek": "ΣΊΣΥΦΟΣ", "n": 5, "d": 2.5,
  "big": .int(9_007_199_254_740_993),
  "flag": true, "off": false, "nothing": nil, "tags": ["wifi", "vegan", "Late"], "nums": [1, 2, 3, 4],
  "empty": [], "when": .date(Date(timeIntervalSinceReferenceDate: 1000)),
  "loc": ["city": "Zürich", "zip": "8001"],
  "menu": [
    ["item": "taco", "price": 4, "vegan": true], ["item": "pie", "price": 12.5, "vegan": false],
    ["item": "taco", "price": 6, "vegan": false],
  ],
  "nested": [[1, 2], [3], []], "max": .int(Int64.max), "min": .int(Int64.min), "zero": 0,
]

/// Evaluates `format` against `record`: true/false, or nil when anything throws.
func evaluate(
  _ format: String, _ args: [SiftValue] = [], on record: SiftValue = sample,
  variables: [String: SiftValue] = [:], options: EvaluationOptions = EvaluationOptions()
) -> Bool? {
  do {
    return try SiftPredicate(format: format, arguments: args).compile(options).matches(record, variables: variables)
  } catch {
    return nil
  }
}

/// Evaluates `format`, returning the thrown error (or nil when it did not throw).
func evaluationError(
  _ format: String, _ args: [SiftValue] = [], on record: SiftValue = sample,
  variables: [String: SiftValue] = [:], options: EvaluationOptions = EvaluationOptions()
) -> SiftError? {
  do {
    _ = try SiftPredicate(format: format, arguments: args).compile(options).matches(record, variables: variables)
    return nil
  } catch {
    return error
  }
}
