import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// `distanceToLocation:fromLocation:`: great-circle metres (haversine, mean radius 6,371,008.8 m).
@Suite struct LocationDistanceTests {
  static let paris: SiftValue = ["latitude": 48.8566, "longitude": 2.3522]
  static let london: SiftValue = ["latitude": 51.5074, "longitude": -0.1278]
  static let record: SiftValue = [
    "here": paris, "there": london, "pair": [51.5074, -0.1278], "half": ["latitude": 1], "nothing": nil,
    "text": "Paris", "badPair": [1], "far": ["latitude": 91, "longitude": 0],
  ]

  /// `(format, expected)` on `record`.
  static let answers: [(String, Bool)] = [
    ("distanceToLocation:fromLocation:(here, there) BETWEEN {343556.5, 343556.6}", true),
    ("distanceToLocation:fromLocation:(there, here) == distanceToLocation:fromLocation:(here, there)", true),
    ("distanceToLocation:fromLocation:(here, pair) == distanceToLocation:fromLocation:(here, there)", true),
    ("distanceToLocation:fromLocation:({0, 0}, {0, 1}) BETWEEN {111195.08, 111195.09}", true),
    ("distanceToLocation:fromLocation:({0, 0}, {0, 180}) BETWEEN {20015114.44, 20015114.45}", true),
    ("distanceToLocation:fromLocation:({90, 0}, {-90, 0}) BETWEEN {20015114.44, 20015114.45}", true),
    ("distanceToLocation:fromLocation:(here, here) == 0", true),
    ("distanceToLocation:fromLocation:(here, nothing) == nil", true),
    ("distanceToLocation:fromLocation:(half, here) == nil", true),
  ]
  @Test(arguments: answers) func metresAsCoreLocation(_ row: (String, Bool)) {
    #expect(evaluate(row.0, on: Self.record) == row.1, "\(row.0)")
  }

  /// `(format, error id)`.
  static let errors: [(String, String)] = [
    ("distanceToLocation:fromLocation:(here, text) > 0", "invalid-argument"),
    ("distanceToLocation:fromLocation:(badPair, here) > 0", "invalid-argument"),
    ("distanceToLocation:fromLocation:(far, here) > 0", "invalid-argument"),
    ("distanceToLocation:fromLocation:({'a', 'b'}, here) > 0", "invalid-argument"),
    ("distanceToLocation:fromLocation:(here) > 0", "wrong-argument-count"),
  ]
  @Test(arguments: errors) func errorsNameTheProblem(_ row: (String, String)) {
    #expect(evaluationError(row.0, on: Self.record)?.diagnostic.id == row.1, "\(row.0)")
  }
}
