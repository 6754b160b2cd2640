import Foundation
import SiftCoreData
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax
import Testing

/// Every stored attribute type (AllTypes.xcdatamodel, AllTypes.sql) read from a store, with
/// the model and without it, selects the same objects as memory over the same values.
@Suite("Core Data store: every attribute type")
struct StoreAttributeTypeTests {
  static func date(_ secondsSince2001: Double) -> SiftValue {
    .date(Date(timeIntervalSinceReferenceDate: secondsSince2001))
  }
  static func data(_ bytes: [UInt8]) -> SiftValue { .data(Data(bytes)) }

  /// The three rows of AllTypes.sql as memory records (nil where the column is NULL).
  static let records: [SiftValue] = [
    [
      "boolean": true, "int16": 7, "int32": 70000, "int64": 7_000_000_000, "date": date(730_980_000.25), "decimal": 2.5,
      "double": 3.14159, "float": 0.5, "string": "Ünïcode ok", "uri": "https://example.com/a",
      "binary": data([0xDE, 0xAD, 0xBE, 0xEF]),
      "transformable": data(Array("bplist00".utf8)),
      "uuid": data([0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF]),
    ],
    [
      "boolean": false, "int16": .null, "int32": .null, "int64": 0, "date": .null, "decimal": .null, "double": 0.0,
      "float": .null,
      "string": "none", "uri": .null, "binary": .null, "transformable": .null, "uuid": .null,
    ],
    [
      "boolean": true, "int16": -32768, "int32": -2_147_483_648, "int64": .int(Int64.min), "date": date(-86400),
      "decimal": -0.001,
      "double": -1e300, "float": -1.0, "string": "", "uri": "file:///tmp/x", "binary": data([]), "transformable": .null,
      "uuid": data(Array(repeating: 0, count: 16)),
    ],
  ]

  static let predicates: [(String, [SiftValue])] = [
    ("boolean == YES", []), ("boolean == NO", []), ("int16 < 0", []), ("int16 == nil", []), ("int32 >= 70000", []),
    ("int64 == %@", [.int(Int64.min)]), ("int64 > 6999999999", []), ("date > %@", [date(730_980_000)]),
    ("date < %@", [date(0)]), ("date == nil", []), ("decimal > 1.5", []), ("decimal < 0", []),
    ("double BETWEEN {-1, 4}", []),
    ("double < -1e299", []), ("float == 0.5", []), ("float == nil", []), ("string BEGINSWITH[cd] 'unic'", []),
    ("string == ''", []),
    ("uri CONTAINS 'example'", []), ("uri == nil", []), ("binary == %@", [data([0xDE, 0xAD, 0xBE, 0xEF])]),
    ("binary == nil", []), ("transformable != nil", []), ("uuid == %@", [data(Array(repeating: 0, count: 16))]),
    ("uuid == nil", []), ("shout == 'NONE'", []), ("shout BEGINSWITH 'ÜN'", []), ("shout == string", []),
    ("shout ==[c] string AND shout != nil", []),
  ]

  @Test func everyTypeAnswersLikeMemory() throws {
    let model = try CoreDataModel(contentsOf: CoreDataFixtures.url("AllTypes.xcdatamodel"))
    let withModel = try OpenedStore(script: "AllTypes.sql", model: model)
    let inferred = try OpenedStore(script: "AllTypes.sql")
    let sample = try #require(withModel.store.schema.entity("Sample"))
    #expect(
      sample.attributes.map(\.name).sorted() == [
        "Z_PK", "binary", "boolean", "date", "decimal", "double", "float", "int16",
        "int32", "int64", "shout", "string", "transformable", "uri", "uuid",
      ])
    #expect(sample.attribute("boolean")?.type == .boolean && sample.attribute("uuid")?.type == .data)
    let bare = try #require(inferred.store.schema.entity("Sample"))
    #expect(bare.attribute("boolean")?.type == .integer && bare.attribute("decimal")?.type == .double)
    #expect(bare.attribute("date")?.dateEncoding == .referenceDateSeconds && bare.attribute("uuid")?.type == .data)
    // The derived attribute (shout = uppercase:(string)) computed in memory, as the store holds it.
    let raw = Self.records.compactMap { r -> [String: SiftValue]? in if case .dictionary(let d) = r { d } else { nil } }
    let derived = try model.addingDerivedValues(to: raw, entity: "Sample")
    #expect(derived.map { $0["shout"] } == ["ÜNÏCODE OK", "NONE", ""])
    let objects = try JSONRecords.records(from: .array(derived.map { .dictionary($0) }))
    for (format, args) in Self.predicates {
      let predicate = try SiftPredicate(format: format, arguments: args)
      let memory = try predicate.compile().matchingIndices(objects).map { Int64($0 + 1) }
      #expect(
        try withModel.keys(SiftFetchRequest(entity: "Sample", predicate: predicate)) == memory, "model: \(format)")
      #expect(
        try inferred.keys(SiftFetchRequest(entity: "Sample", predicate: predicate)) == memory, "inferred: \(format)")
    }
  }
}
