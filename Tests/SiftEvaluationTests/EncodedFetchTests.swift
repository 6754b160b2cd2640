import Foundation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftEvaluation

/// `fetch(from:)` of a format-string request over `Encodable` values encodes each value into
/// one reused buffer, only the attributes the request reads, and tests it at once
/// (`encodedMatchingIndices`): the answers, errors and pages are those of the same request over
/// the values encoded as records (`execute(on:)`).
@Suite struct EncodedFetchTests {
  struct Place: Codable { var city: String }
  struct Note: Codable {
    var id: Int
    var title: String
    var rating: Int
    var pinned: Bool
    var at: Date
    var place: Place
    var tags: [String]
  }

  static let notes = (0..<120).map { i in
    Note(
      id: i, title: ["milk", "Bread", "é", "tea"][i % 4], rating: i % 6, pinned: i % 3 == 0,
      at: Date(timeIntervalSince1970: Double(i % 17) * 1000), place: Place(city: i % 2 == 0 ? "Oslo" : "Rome"),
      tags: i % 5 == 0 ? [] : ["a"])
  }

  /// The request over the values and over the values as records: same positions, same count.
  func expectSame<T: Encodable>(
    _ format: String, _ sorts: String, over values: [T], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for (limit, offset) in [(nil, nil), (7, 2), (1, 0), (500, 0)] as [(Int?, Int?)] {
      let request = SiftFetchRequest(
        entity: "Note", predicate: try SiftPredicate(format: format),
        sortDescriptors: try SiftSortDescriptor.parseList(sorts), limit: limit, offset: offset)
      let records = try SiftRecordEncoder.batchRecords(values)
      let expected = try request.matchingIndices(in: records)
      #expect(
        try request.encodedMatchingIndices(values, variables: [:], options: EvaluationOptions()) != nil,
        sourceLocation: sourceLocation)
      let got = try request.fetch(from: values)
      #expect(got.count == expected.count, "\(format)", sourceLocation: sourceLocation)
      let positions = try request.encodedMatchingIndices(values, variables: [:], options: EvaluationOptions())
      #expect(positions == expected, "\(format) \(sorts)", sourceLocation: sourceLocation)
    }
  }

  @Test func answersAreThoseOverRecords() throws {
    try expectSame("pinned == YES AND rating >= 3", "at desc", over: Self.notes)
    try expectSame("title BEGINSWITH[c] 'b' OR place.city == 'Oslo'", "title, id desc", over: Self.notes)
    try expectSame("ANY tags == 'a' AND at > CAST(5000, 'NSDate')", "rating desc, at", over: Self.notes)
    try expectSame("tags.@count == 0 OR NOT (rating BETWEEN {1, 4})", "id desc", over: Self.notes)
  }

  /// What the path does not take (SELF, a key path sort, a nil optional that leaves a key out)
  /// goes the records' way, with the same answers.
  @Test func otherRequestsGoTheRecordsWay() throws {
    let request = SiftFetchRequest(
      entity: "Note", predicate: try SiftPredicate(format: "SELF.rating > 2"),
      sortDescriptors: [SiftSortDescriptor("place.city")])
    #expect(try request.encodedMatchingIndices(Self.notes, variables: [:], options: EvaluationOptions()) == nil)
    let expected = try request.matchingIndices(in: try SiftRecordEncoder.batchRecords(Self.notes))
    #expect(try request.fetch(from: Self.notes).map(\.id) == expected.map { Self.notes[$0].id })

    struct Maybe: Codable { var id: Int; var rating: Int? }
    let maybes = (0..<20).map { Maybe(id: $0, rating: $0 % 3 == 0 ? nil : $0) }
    let optional = SiftFetchRequest(
      entity: "Maybe", predicate: try SiftPredicate(format: "rating == nil OR rating > 10"),
      sortDescriptors: [SiftSortDescriptor("rating", ascending: false)])
    let want = try optional.matchingIndices(in: try SiftRecordEncoder.batchRecords(maybes))
    #expect(try optional.fetch(from: maybes).map(\.id) == want.map { maybes[$0].id })
  }

  /// An error while evaluating names the value, as over records.
  @Test func errorsNameTheValue() throws {
    let request = SiftFetchRequest(entity: "Note", predicate: try SiftPredicate(format: "title + 1 > 2"))
    expectSiftError(id: "not-a-number", stage: .evaluate) { _ = try request.fetch(from: Self.notes) }
    let records = try SiftRecordEncoder.batchRecords(Self.notes)
    let viaRecords = Result { () throws(SiftError) in try request.matchingIndices(in: records) }
    let viaValues = Result { () throws(SiftError) in try request.fetch(from: Self.notes).count }
    guard case .failure(let a) = viaRecords, case .failure(let b) = viaValues else {
      Issue.record("both should fail")
      return
    }
    #expect(String(describing: a) == String(describing: b))
  }

  /// The reused container is let go: the slots it held are freed after the fetch.
  @Test func theSlotsAreFreed() throws {
    weak var kept: BatchSlots?
    do {
      let slots = try #require(try BatchSlots(first: Self.notes[0], reading: ["id"]))
      kept = slots
      #expect(try slots.fill(Self.notes[1]))
      slots.releaseContainer()
    }
    #expect(kept == nil)
  }
}
