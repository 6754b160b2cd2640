import Foundation
import Testing

@testable import SiftSyntax

/// The fuzzers' dictionary is generated (`Fuzz/make-dict`: every terminal of
/// Grammar/Predicate.ebnf plus `Fuzz/predicate-extras.dict`), so it never needs a hand edit.
/// These tests hold the chain together: the grammar spells every keyword, operator and
/// punctuation the lexer knows, and the script writes every terminal of the grammar.
@Suite("Fuzz dictionary from the grammar")
struct FuzzDictionaryTests {
  /// Reserved words no grammar rule uses (the lexer keeps them from being keys).
  static let reservedOnly: Set<Keyword> = [.fetch, .caseInsensitive, .ci]

  static func terminals() throws -> Set<String> {
    func collect(_ e: EBNFExpr, into out: inout Set<String>) {
      switch e {
      case .literal(let s): out.insert(s)
      case .charClass, .ref: break
      case .seq(let xs), .alt(let xs): for x in xs { collect(x, into: &out) }
      case .opt(let x), .star(let x), .plus(let x): collect(x, into: &out)
      }
    }
    var out: Set<String> = []
    for rule in try EBNFGrammar(Repo.text("Grammar/Predicate.ebnf")).rules.values { collect(rule, into: &out) }
    return out
  }

  /// Every spelling the lexer and the AST know, which the dictionary must hold.
  static var spellings: [String] {
    ComparisonOperator.allCases.map(\.keyword) + SiftQuantifier.allCases.map(\.keyword)
      + Keyword.allCases.filter { !reservedOnly.contains($0) }.map(\.spelling)
      + Punctuation.allCases.map(\.rawValue) + BinaryOperator.allCases.map(\.symbol)
      + UnaryOperator.allCases.map(\.symbol) + CollectionOperator.allCases.map(\.spelling)
  }

  @Test func theGrammarSpellsEveryKeywordAndOperator() throws {
    let terminals = try Self.terminals()
    let missing = Self.spellings.filter { !terminals.contains($0) }
    #expect(missing.isEmpty, "Grammar/Predicate.ebnf does not spell \(missing), so the fuzz dictionary lacks them")
    for k in Self.reservedOnly {
      #expect(!terminals.contains(k.spelling), "\(k.spelling) is used: drop it from reservedOnly")
    }
  }

  static let python: URL? = ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"].map(
    URL.init(fileURLWithPath:)
  )
  .first { FileManager.default.isExecutableFile(atPath: $0.path) }

  /// `Fuzz/make-dict` writes every terminal of the grammar (and every spelling above), each
  /// once, escaped as libFuzzer reads it.
  @Test(.enabled(if: python != nil, "needs python3, as Fuzz/make-dict does"))
  func makeDictWritesEveryTerminal() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("sift-dict-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [Repo.url("Fuzz/make-dict").path, out.path]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let entries = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
      .filter { !$0.hasPrefix("#") }.compactMap { line -> String? in
        guard let eq = line.firstIndex(of: "=") else { return nil }
        return Self.unescape(line[line.index(after: eq)...].dropFirst().dropLast())
      }
    #expect(Set(entries).count == entries.count, "an entry is written twice")
    let written = Set(entries)
    let missing = try Self.terminals().union(Self.spellings).filter { !written.contains($0) }
    #expect(missing.isEmpty, "make-dict left out \(missing.sorted())")
  }

  /// A libFuzzer dictionary value: `\\`, `\"` and `\xHH` escapes over UTF-8 bytes.
  static func unescape(_ s: Substring) -> String {
    var bytes: [UInt8] = []
    var i = s.utf8.startIndex
    let u = s.utf8
    while i < u.endIndex {
      if u[i] == UInt8(ascii: "\\"), let next = u.index(i, offsetBy: 1, limitedBy: u.endIndex), next < u.endIndex {
        if u[next] == UInt8(ascii: "x"), let end = u.index(next, offsetBy: 3, limitedBy: u.endIndex),
          let b = UInt8(String(decoding: u[u.index(after: next)..<end], as: UTF8.self), radix: 16)
        {
          bytes.append(b)
          i = end
          continue
        }
        bytes.append(u[next])
        i = u.index(after: next)
        continue
      }
      bytes.append(u[i])
      i = u.index(after: i)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
