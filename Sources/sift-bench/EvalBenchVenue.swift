import Foundation
import SiftEvaluation
import SiftSyntax

/// The conformance venues as typed structs, for Foundation's `#Predicate` baseline.
struct BenchVenue: Decodable {
  struct Location: Decodable {
    var city: String?
    var distance: Double
    var zip: String
  }
  struct MenuItem: Decodable {
    var item: String
    var price: Double
    var vegan: Bool
  }
  var id: Int
  var name: String
  /// `name` folded to lower case ahead of time: Foundation's `#Predicate` on Linux has no
  /// case-insensitive prefix test, so the BEGINSWITH[c] baseline reads this field.
  var nameLower: String = ""
  var priceCategory: String?
  var specialCount: Int
  var distance: Double
  var tipCount: Int
  var favorite: Bool
  var createdAt: Int
  var rating: Double?
  var phone: String?
  var tags: [String]
  var scores: [Int]
  var location: Location
  var menu: [MenuItem]
  var code: String

  enum CodingKeys: String, CodingKey {
    case id, name, priceCategory, specialCount, distance, tipCount, favorite, createdAt, rating, phone, tags,
      scores, location, menu, code
  }

  static func load(_ url: URL) throws -> [BenchVenue] {
    var venues = try JSONDecoder().decode([BenchVenue].self, from: Data(contentsOf: url))
    for i in venues.indices { venues[i].nameLower = venues[i].name.lowercased() }
    return venues
  }
}

/// One standard evaluation benchmark: the Sift predicate and its baselines.
struct EvalBenchCase {
  var name: String
  var format: String
  /// Hand-written Swift over the same `SiftValue` dictionaries Sift is also run on.
  var closure: ([String: SiftValue]) -> Bool
  /// Hand-written Swift over the same `SiftObject` records (read through their public API,
  /// `value(forKey:)`) that Sift's fast column runs on.
  var objectClosure: (SiftObject) -> Bool
  /// Foundation's `#Predicate` over `BenchVenue`; nil where it has no equivalent.
  var foundation: Predicate<BenchVenue>?
}
