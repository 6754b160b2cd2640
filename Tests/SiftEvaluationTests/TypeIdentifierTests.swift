import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// `UTI-CONFORMS-TO` and `UTI-EQUALS` over Apple's public system-declared hierarchy.
@Suite struct TypeIdentifierTests {
  static let record: SiftValue = [
    "type": "public.png", "movie": "com.apple.quicktime-movie", "nothing": nil, "n": 5,
    "types": ["public.heic", "public.zip-archive"],
  ]

  /// `(format, expected)` on `record`.
  static let answers: [(String, Bool)] = [
    ("type UTI-CONFORMS-TO 'public.image'", true), ("type UTI-CONFORMS-TO 'public.data'", true),
    ("type UTI-CONFORMS-TO 'public.item'", true), ("type UTI-CONFORMS-TO 'public.content'", true),
    ("type UTI-CONFORMS-TO 'public.png'", true), ("type UTI-CONFORMS-TO 'public.jpeg'", false),
    ("type UTI-CONFORMS-TO 'public.text'", false), ("'public.image' UTI-CONFORMS-TO 'public.png'", false),
    ("movie UTI-CONFORMS-TO 'public.movie'", true), ("movie UTI-CONFORMS-TO 'public.audiovisual-content'", true),
    ("'public.utf8-plain-text' UTI-CONFORMS-TO 'public.text'", true),
    ("'public.swift-source' UTI-CONFORMS-TO 'public.plain-text'", true),
    ("'com.adobe.pdf' UTI-CONFORMS-TO 'public.data'", true), ("'public.folder' UTI-CONFORMS-TO 'public.item'", true),
    ("'public.folder' UTI-CONFORMS-TO 'public.data'", false), ("'com.example.x' UTI-CONFORMS-TO 'com.example.x'", true),
    ("'com.example.x' UTI-CONFORMS-TO 'public.item'", false), ("'PUBLIC.PNG' UTI-CONFORMS-TO 'public.image'", false),
    ("type UTI-EQUALS 'public.png'", true), ("type UTI-EQUALS 'public.image'", false),
    ("nothing UTI-CONFORMS-TO 'public.item'", false), ("nothing UTI-EQUALS 'public.png'", false),
    ("ANY types UTI-CONFORMS-TO 'public.image'", true), ("ALL types UTI-CONFORMS-TO 'public.image'", false),
    ("ANY types UTI-CONFORMS-TO 'public.archive'", true),
  ]
  @Test(arguments: answers) func conformsAsApple(_ row: (String, Bool)) {
    #expect(evaluate(row.0, on: Self.record) == row.1, "\(row.0)")
  }

  @Test func numbersAreNotIdentifiers() {
    #expect(evaluationError("n UTI-CONFORMS-TO 'public.item'", on: Self.record)?.diagnostic.id == "not-a-string")
    #expect(evaluationError("type UTI-EQUALS 5", on: Self.record)?.diagnostic.id == "not-a-string")
  }

  @Test func tableIsAcyclicAndConformingListsAreComplete() {
    for (t, parents) in SystemTypeIdentifiers.parents {
      for p in parents {
        #expect(SystemTypeIdentifiers.parents[p] != nil, "\(t) names \(p), not in the table")
        #expect(!SystemTypeIdentifiers.conforms(p, to: t), "cycle \(t) ↔ \(p)")
      }
    }
    let images = SystemTypeIdentifiers.conforming(to: "public.image")
    #expect(images.first == "public.image")
    #expect(Set(images).isSuperset(of: ["public.png", "public.jpeg", "public.heic", "com.compuserve.gif"]))
    #expect(!images.contains("public.text"))
  }
}
