import Foundation
import Testing

@testable import SiftCLI
@testable import SiftSyntax

/// `sift batch --policy` and `sift check`: a client's case refused at stage `policy`, the
/// server's variables supplying `require`, the effective predicate printed.
@Suite("Query policy in the CLI")
struct PolicyCommandTests {
  static let policy = #"""
    {"entity": "note",
     "keys": ["title", "created_at", "pinned", "tags", "author.display_name", "tag.label"],
     "sortKeys": ["title", "created_at"],
     "deny": ["MATCHES", "SUBQUERY", "FUNCTION", "CAST"],
     "require": "owner_id == $USER",
     "limits": {"nodes": 200, "depth": 16, "inList": 1000, "stringBytes": 10000,
                "rows": 1000, "milliseconds": 2000}}
    """#
  static let notes = #"""
    [{"title": "alpha", "owner_id": 1, "pinned": true, "author": {"display_name": "Ann", "password_hash": "abc"}},
     {"title": "beta", "owner_id": 2, "pinned": false, "author": {"display_name": "Bob", "password_hash": "xyz"}},
     {"title": "gamma", "owner_id": 1, "pinned": false, "author": {"display_name": "Cy", "password_hash": "q"}}]
    """#

  static func file(_ text: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-policy-\(UUID().uuidString).json")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// (case line, expected stage or nil for ok, error id or matches)
  static let cases: [(String, String?, SiftValue)] = [
    (
      #"{"id": 1, "format": "title BEGINSWITH %@ OR pinned == 0", "args": ["a"], "variables": {"USER": 1}}"#, nil,
      [0, 2]
    ),
    (
      #"{"id": 2, "format": "author.password_hash BEGINSWITH 'a'", "variables": {"USER": 1}}"#, "policy",
      "key-not-allowed"
    ),
    (
      #"{"id": 3, "format": "%K BEGINSWITH 'a'", "args": ["author.password_hash"], "variables": {"USER": 1}}"#,
      "policy", "key-not-allowed"
    ),
    (#"{"id": 4, "format": "title MATCHES '.*'", "variables": {"USER": 1}}"#, "policy", "operator-not-allowed"),
    (#"{"id": 5, "format": "title == $USER", "variables": {"USER": 1}}"#, "policy", "variable-not-allowed"),
    (
      #"{"id": 6, "format": "pinned == 1", "variables": {"USER": 1}, "sort": "owner_id"}"#, "policy",
      "sort-key-not-allowed"
    ),
    (#"{"id": 7, "format": "title != nil", "variables": {"USER": 2}}"#, nil, [1]),
    (#"{"id": 8, "format": "title ==", "variables": {"USER": 2}}"#, "parse", "expected-expression"),
  ]

  @Test(arguments: cases.indices)
  func batchUnderAPolicy(_ i: Int) throws {
    let (line, stage, expected) = Self.cases[i]
    let data = try Self.file(Self.notes)
    let policy = try Self.file(Self.policy)
    defer {
      try? FileManager.default.removeItem(atPath: data)
      try? FileManager.default.removeItem(atPath: policy)
    }
    var context = BatchContext(lenient: false)
    context.data = try CommandInputs.data(data)
    context.policy = try CommandInputs.policy(policy)
    guard case .dictionary(let out) = context.process(line: line, lineNumber: 1) else {
      Issue.record("no result")
      return
    }
    if let stage {
      #expect(out["stage"] == .string(stage), "\(out)")
      guard case .dictionary(let error)? = out["error"] else { return }
      #expect(error["id"] == expected, "\(out)")
    } else {
      #expect(out["ok"] == true && out["matches"] == expected, "\(out)")
    }
  }

  @Test func checkPrintsTheEffectivePredicateOrRefuses() throws {
    let policy = try Self.file(Self.policy)
    defer { try? FileManager.default.removeItem(atPath: policy) }
    #expect(CheckCommand.run(["pinned == 1 OR title == 'x'", "--policy", policy, "--var", "USER=7"]) == .success)
    #expect(
      CheckCommand.run(["%K BEGINSWITH 'a'", "--arg", #""author.password_hash""#, "--policy", policy]) == .failure)
    #expect(CheckCommand.run(["title == 'x'"]) == .usage)
    #expect(SiftCommandLine.command(named: "check") != nil)
    #expect(HelpCommand.pages["check"] != nil)
  }
}
