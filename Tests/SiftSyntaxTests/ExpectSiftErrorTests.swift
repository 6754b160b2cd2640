import SiftSyntax
import SiftTestSupport
import Testing

/// `expectSiftError(id:stage:at:)` passes only on the error it names: a wrong id, stage or
/// position, another error type, or no error at all is an issue.
@Suite("expectSiftError checks the contract")
struct ExpectSiftErrorTests {
  struct Other: Error {}

  @Test func passesOnTheNamedError() {
    let error = expectSiftError(id: "expected-expression", stage: .parse, at: 7) {
      try SiftPredicate(format: "name ==")
    }
    #expect(error?.id == "expected-expression")
  }

  @Test func everyMismatchIsAnIssue() {
    withKnownIssue { expectSiftError(id: "unterminated-string") { try SiftPredicate(format: "name ==") } }
    withKnownIssue { expectSiftError(id: "expected-expression", stage: .sql) { try SiftPredicate(format: "name ==") } }
    withKnownIssue { expectSiftError(id: "expected-expression", at: 0) { try SiftPredicate(format: "name ==") } }
    withKnownIssue { expectSiftError(id: "expected-expression") { try SiftPredicate(format: "name == 1") } }
    withKnownIssue { expectSiftError(id: "expected-expression") { throw Other() } }
  }
}
