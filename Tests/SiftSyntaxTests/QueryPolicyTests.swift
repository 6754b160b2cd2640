import Foundation
import SiftTestSupport
import Testing

@testable import SiftSyntax

/// The contract policy of issue 23, as the Filters from untrusted clients article shows it
/// (SiftSyntax.docc/UntrustedFilters.md).
let contractPolicyJSON = #"""
  {"entity": "note",
   "keys": ["title", "created_at", "pinned", "tags", "author.display_name", "tag.label"],
   "sortKeys": ["title", "created_at"],
   "deny": ["MATCHES", "SUBQUERY", "FUNCTION", "CAST"],
   "require": "owner_id == $USER",
   "limits": {"nodes": 200, "depth": 16, "inList": 1000, "stringBytes": 10000,
              "rows": 1000, "milliseconds": 2000}}
  """#

@Suite("Query policy")
struct QueryPolicyTests {
  let policy: SiftQueryPolicy

  init() throws { policy = try SiftQueryPolicy(json: contractPolicyJSON) }

  @Test func readsTheContract() throws {
    #expect(policy.entity == "note")
    #expect(policy.keys.contains("author.display_name"))
    #expect(policy.sortKeys == ["title", "created_at"])
    #expect(policy.deny == ["MATCHES", "SUBQUERY", "FUNCTION", "CAST"])
    #expect(
      policy.limits
        == SiftQueryPolicy.Limits(
          nodes: 200, depth: 16, inList: 1000, stringBytes: 10000, rows: 1000, milliseconds: 2000))
    let decoded = try JSONDecoder().decode(SiftQueryPolicy.self, from: Data(contractPolicyJSON.utf8))
    #expect(decoded == policy)
  }

  /// (client format, arguments, refusal id or nil, the refused text in the client's format)
  static let cases: [(String, [SiftValue], String?, String?)] = [
    ("title BEGINSWITH 'a'", [], nil, nil),
    ("ANY tags == 'x' AND tags.@count > 2", [], nil, nil),
    ("author.display_name CONTAINS[c] 'bo' AND pinned == 1", [], nil, nil),
    ("%K == 'x'", ["title"], nil, nil),
    ("author.password_hash BEGINSWITH 'a'", [], "key-not-allowed", "author.password_hash"),
    ("%K BEGINSWITH 'a'", ["author.password_hash"], "key-not-allowed", "%K"),
    ("author.%K BEGINSWITH 'a'", ["password_hash"], "key-not-allowed", "author.%K"),
    ("title == 'x' OR owner_id == 3", [], "key-not-allowed", "owner_id"),
    ("SELF == 'x'", [], "key-not-allowed", "SELF"),
    ("SELF.owner_id == 3", [], "key-not-allowed", "SELF.owner_id"),
    ("author['password_hash'] == 'x'", [], "key-not-allowed", "author['password_hash']"),
    ("author == nil", [], "key-not-allowed", "author"),
    ("{author}[0].password_hash == 'x'", [], "key-not-allowed", "author"),
    ("tags[title] == 'x'", [], "key-not-allowed", "title"),
    ("title MATCHES 'a.*'", [], "operator-not-allowed", "MATCHES"),
    ("SUBQUERY(tags, $t, $t == 'x').@count > 0", [], "operator-not-allowed", "SUBQUERY(tags, $t, $t == 'x')"),
    ("FUNCTION(title, 'x') == 1", [], "operator-not-allowed", "FUNCTION(title, 'x')"),
    ("CAST(created_at, 'NSNumber') > 0", [], "operator-not-allowed", "CAST(created_at, 'NSNumber')"),
    ("title == $SECRET", [], "variable-not-allowed", "$SECRET"),
    ("title IN %@", [SiftValue.array((0..<1001).map { .int(Int64($0)) })], "list-too-long", "%@"),
    ("title == %@", [.string(String(repeating: "x", count: 10_001))], "string-too-long", "%@"),
    (
      "title == " + String(repeating: "(", count: 0) + "'x' AND "
        + (0..<70).map { _ in "pinned == 1" }.joined(separator: " AND "), [],
      "too-many-nodes", "pinned"
    ),
    (
      String(repeating: "NOT (", count: 16) + "pinned == 1" + String(repeating: ")", count: 16), [], "too-deep",
      "(pinned == 1)"
    ),
  ]

  @Test(arguments: cases.indices)
  func refusals(_ i: Int) throws {
    let (format, args, id, text) = Self.cases[i]
    let predicate = try SiftPredicate(format: format, arguments: args)
    do {
      try policy.check(predicate)
      #expect(id == nil, "\(format) was accepted")
    } catch {
      #expect(error.stage == .policy)
      #expect(error.diagnostic.id == id, "\(format): \(error)")
      if let id { #expect(SiftQueryPolicy.refusalIDs.contains(id)) }
      if let text {
        let bytes = Array(format.utf8)
        let r = error.diagnostic.range
        let shown = String(decoding: bytes[min(r.start, bytes.count)..<min(r.end, bytes.count)], as: UTF8.self)
        #expect(shown == text, "\(format): points at '\(shown)'")
      }
    }
  }

  @Test func unboundArgumentsAreRefused() throws {
    // `%K` bound later could name any key: the check needs the bound tree.
    let template = try SiftPredicate.parse("title == 'x' OR %K == 1")
    do {
      try policy.check(template)
      Issue.record("accepted")
    } catch {
      #expect(error.diagnostic.id == "unbound-argument")
      #expect(error.diagnostic.range == SiftSourceRange(start: 16, end: 18))
    }
  }

  @Test func subqueryVariablesResolveToTheirCollection() throws {
    let open = try SiftQueryPolicy(keys: ["tags", "tags.label"])
    try open.check(try SiftPredicate(format: "SUBQUERY(tags, $t, $t.label == 'x').@count > 0"))
    expectSiftError(id: "key-not-allowed", stage: .policy, at: 19) {
      try open.check(try SiftPredicate(format: "SUBQUERY(tags, $t, $t.secret == 'x').@count > 0"))
    }
    expectSiftError(id: "key-not-allowed", stage: .policy, at: 21) {
      try open.check(try SiftPredicate(format: "SUBQUERY({tags}, $t, $t.secret == 'x').@count > 0"))
    }
    try open.check(try SiftPredicate(format: "tags.@sum.label > 0 AND ALL tags.label == 'x'"))
  }

  @Test func selfOnlyWhenListed() throws {
    let values = try SiftQueryPolicy(keys: ["SELF"])
    try values.check(try SiftPredicate(format: "SELF BEGINSWITH 'D'"))
    expectSiftError(id: "key-not-allowed", stage: .policy, at: 0) {
      try values.check(try SiftPredicate(format: "SELF.secret == 1"))
    }
  }

  @Test func requireIsAndedAroundTheClient() throws {
    let client = try SiftPredicate(format: "pinned == 1 OR title == 'x'")
    let effective = try policy.applying(to: client, variables: ["USER": 7])
    #expect(effective.predicateFormat == #"owner_id == 7 AND (pinned == 1 OR title == "x")"#)
    do {
      _ = try policy.applying(to: client)
      Issue.record("expected unbound-variable")
    } catch {
      #expect(error.diagnostic.id == "unbound-variable")
      #expect(error.stage == .policy)
    }
  }

  @Test func requestsAreCappedAndSortKeysChecked() throws {
    var request = SiftFetchRequest(entity: "note", predicate: try SiftPredicate(format: "pinned == 1"), limit: 5000)
    var safe = try policy.applying(to: request, variables: ["USER": 1])
    #expect(safe.limit == 1000)
    request.limit = 10
    safe = try policy.applying(to: request, variables: ["USER": 1])
    #expect(safe.limit == 10)
    request.predicate = nil
    safe = try policy.applying(to: request, variables: ["USER": 1])
    #expect(safe.predicate?.predicateFormat == "owner_id == 1")
    request.sortDescriptors = [SiftSortDescriptor("pinned")]
    expectSiftError(id: "sort-key-not-allowed", stage: .policy, at: 0) {
      try policy.applying(to: request, variables: ["USER": 1])
    }
    request.sortDescriptors = [SiftSortDescriptor("title")]
    request.resultType = .properties(["title", "owner_id"])
    do {
      _ = try policy.applying(to: request, variables: ["USER": 1])
      Issue.record("expected key-not-allowed")
    } catch {
      #expect(error.diagnostic.id == "key-not-allowed")
    }
  }

  @Test(arguments: [
    (#"{"keys": ["a"], "deny": ["MATCH"]}"#, "invalid-policy"), (#"{"deny": []}"#, "invalid-policy"),
    (#"{"keys": ["a"], "limits": {"rowz": 1}}"#, "invalid-policy"),
    (#"{"keys": ["a"], "require": "a =="}"#, "expected-expression"),
    (#"{"keys": ["a"], "extra": 1}"#, "invalid-policy"),
    ("[1]", "invalid-policy"),
  ])
  func invalidPolicies(_ json: String, _ id: String) {
    expectSiftError(id: id, stage: .policy) { try SiftQueryPolicy(json: json) }
  }

  @Test func denyNamesAreCanonical() throws {
    let p = try SiftQueryPolicy(keys: ["a"], deny: ["matches", "=", "aggregates", "modulus:by:", "**"])
    #expect(p.deny == ["MATCHES", "==", "AGGREGATES", "MODULUS", "**"])
    expectSiftError(id: "operator-not-allowed", stage: .policy, at: 0) {
      try p.check(try SiftPredicate(format: "a.@count > 1"))
    }
    expectSiftError(id: "operator-not-allowed", stage: .policy, at: 0) {
      try p.check(try SiftPredicate(format: "a ** 2 > 1"))
    }
    expectSiftError(id: "operator-not-allowed", stage: .policy, at: 0) {
      try p.check(try SiftPredicate(format: "modulus:by:(a, 2) != 1"))
    }
  }

  /// Set operators are denied by their keyword, not by `ARITHMETIC`.
  @Test func setOperatorsAreDeniedByKeyword() throws {
    let arithmetic = try SiftQueryPolicy(keys: ["a"], deny: ["arithmetic"])
    try arithmetic.check(try SiftPredicate(format: "a IN {1} UNION {2}"))
    let p = try SiftQueryPolicy(keys: ["a"], deny: ["union"])
    #expect(p.deny == ["UNION"])
    try p.check(try SiftPredicate(format: "a IN {1} MINUS {2}"))
    expectSiftError(id: "operator-not-allowed", stage: .policy, at: 5) {
      try p.check(try SiftPredicate(format: "a IN {1} UNION {2}"))
    }
  }
}
