import Foundation
import SiftSyntax
@testable import SiftEvaluation

/// Directory of the shared conformance sample.
let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("Fixtures/conformance")
