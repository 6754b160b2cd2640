import Foundation
import SiftSyntax
import SiftTestSupport
import Testing

@testable import SiftEvaluation

/// `request.fetch(from:)` over the caller's own `Encodable` values: the same answers as the
/// records `SiftRecordEncoder` makes of them, the original values back in the request's order.
@Suite struct FetchFromValuesTests {
  struct Place: Encodable, Equatable {
    var name: String
    var opened: Date?
    var rating: Int?
    var tags: [String]
    var owner: Owner?
    var id: UUID
    var big: UInt64
  }
  struct Owner: Encodable, Equatable { var city: String }

  static let places: [Place] = [
    Place(
      name: "a", opened: Date(timeIntervalSince1970: 100), rating: 3, tags: ["wifi"], owner: Owner(city: "Oslo"),
      id: UUID(), big: 1),
    Place(name: "b", opened: nil, rating: 5, tags: [], owner: nil, id: UUID(), big: UInt64.max),
    Place(
      name: "c", opened: Date(timeIntervalSince1970: 50), rating: nil, tags: ["wifi", "bar"],
      owner: Owner(city: "Paris"),
      id: UUID(), big: 7),
    Place(
      name: "d", opened: Date(timeIntervalSince1970: 300), rating: 1, tags: ["bar"], owner: nil, id: UUID(), big: 0),
  ]

  @Test(arguments: [
    ("TRUEPREDICATE", ""), ("opened > %@", "opened desc"), ("opened == nil", ""),
    ("rating == nil OR rating > 2", "name desc"),
    ("ANY tags == 'wifi'", "rating"), ("owner.city == 'Oslo'", ""), ("owner == nil", "name"),
    ("tags.@count >= 1", "opened"),
    ("big > 1e18", ""), ("name IN {'a', 'd'}", "opened desc"),
  ])
  func sameAnswersAsEncodedRecords(format: String, sort: String) throws {
    let request = SiftFetchRequest(
      entity: "Place",
      predicate: try SiftPredicate(
        format: format, arguments: format.contains("%@") ? [.date(Date(timeIntervalSince1970: 60))] : []),
      sortDescriptors: sort.isEmpty ? [] : try SiftSortDescriptor.parseList(sort))
    let general = try request.matchingIndices(in: try SiftRecordEncoder.records(Self.places)).map { Self.places[$0] }
    #expect(try request.fetch(from: Self.places) == general, "\(format)")
    #expect(try request.fetchCount(from: Self.places) == general.count)
    var paged = request
    paged.limit = 1
    paged.offset = 1
    #expect(try paged.fetch(from: Self.places) == Array(general.dropFirst().prefix(1)))
  }

  @Test func datesCompareAsDatesAndEmptyInputIsEmpty() throws {
    let request = SiftFetchRequest(
      entity: "Place",
      predicate: try SiftPredicate(format: "opened < %@", arguments: [.date(Date(timeIntervalSince1970: 200))]),
      sortDescriptors: [SiftSortDescriptor("opened")])
    #expect(try request.fetch(from: Self.places).map(\.name) == ["c", "a"])
    #expect(try request.fetch(from: [Place]()).isEmpty && (try request.fetchCount(from: [Place]())) == 0)
    expectSiftError(id: "not-encodable", stage: .data) { try request.fetch(from: [1, 2]) }
  }

  /// Values with the same keys share one layout (the batch path); a value with a nil optional
  /// goes the general way and keeps the key missing.
  @Test func batchLayout() throws {
    struct Plain: Encodable { var a: Int; var b: String; var c: Date }
    let plain = (0..<5).map { Plain(a: $0, b: "x\($0)", c: Date(timeIntervalSince1970: Double($0))) }
    let records = try SiftRecordBatchEncoder.records(plain)
    #expect(records.allSatisfy { $0.shape === records[0].shape })
    #expect(records.map(\.siftValue) == (try SiftRecordEncoder.records(plain)).map(\.siftValue))
    let mixed = try SiftRecordBatchEncoder.records(Self.places)
    #expect(mixed.map(\.siftValue) == (try SiftRecordEncoder.records(Self.places)).map(\.siftValue))
    #expect(mixed[1].value(forKey: "opened") == nil)
  }
}
