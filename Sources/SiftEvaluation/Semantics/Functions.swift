import Foundation
import SiftSyntax

/// The NSExpression built-in functions.
///
/// - Statistics (`sum: count: min: max: average: median: mode: stddev:`) take an array
///   (`not-a-collection` otherwise; nil gives nil); see `Aggregates` for nil and empty rules.
/// - Arithmetic (`add:to:` … `modulus:by:`, bitwise functions) follow `Arithmetic`.
/// - `sqrt: log: ln: exp: raise:toPower:` compute in `Double` (IEEE: `sqrt(-1)` is NaN,
///   `ln(0)` is -inf). `ceiling: floor: trunc: abs:` keep integers as integers
///   (`abs(Int64.min)` becomes a double).
/// - `random` is in [0, 1); `random:` is a random element of an array (nil when empty);
///   `randomn:` gives an integer in [0, n) and needs n > 0.
/// - `now` is the time of the call. `uppercase: lowercase:` need a string.
/// - `noindex:` returns its argument.
enum Functions {
  static func call(_ f: BuiltinFunction, _ args: [EvalValue], at r: SiftSourceRange) throws(EvalFailure) -> EvalValue {
    func arg(_ i: Int) -> EvalValue { i < args.count ? args[i] : .null }
    func list(_ what: String) throws(EvalFailure) -> EvalList? {
      let v = arg(0)
      if v.isNull { return nil }
      guard let l = v.list else { throw EvalDiagnostics.needsCollection(what, v, at: r) }
      return l
    }
    func number(_ v: EvalValue) throws(EvalFailure) -> Number? {
      if v.isNull { return nil }
      guard let n = v.number else { throw EvalDiagnostics.needsNumber("\(f.selector)", v, at: r) }
      return n
    }
    func real(_ body: (Double) -> Double) throws(EvalFailure) -> EvalValue {
      guard let n = try number(arg(0)) else { return .null }
      return .double(body(Arithmetic.double(n)))
    }
    func rounding(_ rule: FloatingPointRoundingRule) throws(EvalFailure) -> EvalValue {
      guard let n = try number(arg(0)) else { return .null }
      switch n {
      case .int(let i): return .int(i)
      case .double(let d): return .double(d.rounded(rule))
      }
    }

    switch f {
    case .sum: return try list("sum:").map { l throws(EvalFailure) in try Aggregates.sum(l, at: r) } ?? .null
    case .count: return try list("count:").map { .int(Int64($0.count)) } ?? .null
    case .min:
      return try list("min:").map { l throws(EvalFailure) in try Aggregates.extreme(l, max: false, at: r) } ?? .null
    case .max:
      return try list("max:").map { l throws(EvalFailure) in try Aggregates.extreme(l, max: true, at: r) } ?? .null
    case .average:
      return try list("average:").map { l throws(EvalFailure) in try Aggregates.average(l, at: r) } ?? .null
    case .median: return try list("median:").map { l throws(EvalFailure) in try Aggregates.median(l, at: r) } ?? .null
    case .mode: return try list("mode:").map { Aggregates.mode($0) } ?? .null
    case .stddev: return try list("stddev:").map { l throws(EvalFailure) in try Aggregates.stddev(l, at: r) } ?? .null
    case .add: return try Arithmetic.binary(.add, arg(0), arg(1), at: r)
    case .subtract: return try Arithmetic.binary(.subtract, arg(0), arg(1), at: r)
    case .multiply: return try Arithmetic.binary(.multiply, arg(0), arg(1), at: r)
    case .divide: return try Arithmetic.binary(.divide, arg(0), arg(1), at: r)
    case .modulus: return try Arithmetic.modulus(arg(0), arg(1), at: r)
    case .raise: return try Arithmetic.binary(.power, arg(0), arg(1), at: r)
    case .bitwiseAnd: return try Arithmetic.binary(.bitwiseAnd, arg(0), arg(1), at: r)
    case .bitwiseOr: return try Arithmetic.binary(.bitwiseOr, arg(0), arg(1), at: r)
    case .bitwiseXor: return try Arithmetic.binary(.bitwiseXor, arg(0), arg(1), at: r)
    case .leftShift: return try Arithmetic.binary(.leftShift, arg(0), arg(1), at: r)
    case .rightShift: return try Arithmetic.binary(.rightShift, arg(0), arg(1), at: r)
    case .onesComplement: return try Arithmetic.bitwiseNot(arg(0), at: r)
    case .sqrt: return try real { $0.squareRoot() }
    case .log: return try real { Foundation.log10($0) }
    case .ln: return try real { Foundation.log($0) }
    case .exp: return try real { Foundation.exp($0) }
    case .ceiling: return try rounding(.up)
    case .floor: return try rounding(.down)
    case .trunc: return try rounding(.towardZero)
    case .abs:
      guard let n = try number(arg(0)) else { return .null }
      switch n {
      case .int(let i): return NumberRules.absoluteValue(i).map { EvalValue.int($0) } ?? .double(-Double(i))
      case .double(let d): return .double(Swift.abs(d))
      }
    case .random: return .double(Double.random(in: 0..<1))
    case .randomElement:
      guard let l = try list("random:") else { return .null }
      let count = l.count
      guard count > 0 else { return .null }
      return l[Int.random(in: 0..<count)]
    case .randomn:
      guard let n = try number(arg(0)) else { return .null }
      let limit: Int64
      switch n {
      case .int(let i): limit = i
      case .double(let d): limit = Int64(exactly: d.rounded(.down)) ?? 0
      }
      guard limit > 0 else {
        throw EvalDiagnostics.needsPositiveBound(f.selector, at: r)
      }
      return .int(Int64.random(in: 0..<limit))
    case .now: return .date(Date())
    case .uppercase, .lowercase:
      let v = arg(0)
      if v.isNull { return .null }
      guard case .string(let s) = v else { throw EvalDiagnostics.needsString(f.selector, v, at: r) }
      return .string(f == .uppercase ? s.uppercased() : s.lowercased())
    case .noindex: return arg(0)
    case .distanceToLocation: return try Geo.distance(arg(0), arg(1), at: r)
    }
  }
}

/// `distanceToLocation:fromLocation:(a, b)`: great-circle metres between two locations.
///
/// A location is a dictionary (or record) with numeric `latitude` and `longitude` in degrees,
/// or a two-element array `{latitude, longitude}`. Nil (or a nil coordinate) gives nil; anything
/// else is `invalid-argument`. Apple does not document Core Location's earth model; Sift uses
/// the haversine formula over the IUGG mean radius, 6,371,008.8 m (answers within about 0.5 %
/// of an ellipsoidal distance).
enum Geo {
  static let earthRadius = 6_371_008.8

  static func distance(_ a: EvalValue, _ b: EvalValue, at r: SiftSourceRange) throws(EvalFailure) -> EvalValue {
    guard let p = try coordinate(a, at: r), let q = try coordinate(b, at: r) else { return .null }
    let rad = Double.pi / 180
    let (lat1, lat2) = (p.lat * rad, q.lat * rad)
    let dLat = (q.lat - p.lat) * rad
    let dLon = (q.lon - p.lon) * rad
    let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
    return .double(2 * earthRadius * asin(Swift.min(1, h.squareRoot())))
  }

  static func coordinate(_ v: EvalValue, at r: SiftSourceRange) throws(EvalFailure) -> (lat: Double, lon: Double)? {
    if v.isNull { return nil }
    let lat: EvalValue
    let lon: EvalValue
    if let l = v.list {
      guard l.count == 2 else { throw notALocation(v, at: r) }
      (lat, lon) = (l[0], l[1])
    } else {
      switch v {
      case .dict, .object, .record:
        lat = try Compiler.subscripted(v, .string("latitude"), at: r)
        lon = try Compiler.subscripted(v, .string("longitude"), at: r)
      default: throw notALocation(v, at: r)
      }
    }
    if lat.isNull || lon.isNull { return nil }
    guard let la = lat.number, let lo = lon.number else { throw notALocation(v, at: r) }
    let (x, y) = (Arithmetic.double(la), Arithmetic.double(lo))
    guard (-90...90).contains(x), (-180...180).contains(y) else { throw notALocation(v, at: r) }
    return (x, y)
  }

  static func notALocation(_ v: EvalValue, at r: SiftSourceRange) -> EvalFailure {
    EvalFailure(
      .invalidArgument,
      "distanceToLocation:fromLocation: needs a location ({\"latitude\": …, \"longitude\": …} in degrees, "
        + "or {latitude, longitude}), but this is \(EvalDiagnostics.article(v.kindName))", at: r)
  }
}

/// `CAST(value, "Type")`.
///
/// - `NSDate`: a number is seconds since 2001-01-01 (reference date); a date stays; an ISO 8601
///   string is parsed (`invalid-cast` when it is not one).
/// - `NSNumber`/`NSDecimalNumber`: numbers stay (booleans become 1/0); a string is parsed as
///   a decimal integer or double (`SiftNumberText.number`: surrounding spaces allowed; not a
///   decimal number → nil); a date becomes seconds since the reference date.
/// - `NSString`: strings stay; integers print in decimal, doubles without a trailing `.0` when
///   integral (`3`) and otherwise shortest (`SiftNumberText.text`), booleans as `1`/`0`, dates
///   as ISO 8601 (`SiftJSON.formatDate`: seconds
///   since 1970 outside the years 0000–9999), collections as JSON.
/// - `NSArray`: an array stays; anything else is `invalid-cast`.
/// - nil casts to nil.
enum Cast {
  static func apply(_ v: EvalValue, _ type: CastType, at r: SiftSourceRange) throws(EvalFailure) -> EvalValue {
    if v.isNull { return .null }
    switch type {
    case .date:
      switch v {
      case .date: return v
      case .string(let s):
        guard let d = SiftDateText.parse(s) else { throw EvalDiagnostics.notADate(s, at: r) }
        return .date(d)
      default:
        guard let n = v.number else { throw EvalDiagnostics.castFailed(v, to: type, at: r) }
        return .date(Date(timeIntervalSinceReferenceDate: Arithmetic.double(n)))
      }
    case .number, .decimalNumber:
      switch v {
      case .int, .double: return v
      case .bool(let b): return .int(b ? 1 : 0)
      case .date(let d): return .double(d.timeIntervalSinceReferenceDate)
      case .string(let s): return parseNumber(s)
      default: throw EvalDiagnostics.castFailed(v, to: type, at: r)
      }
    case .string:
      switch v {
      case .string: return v
      case .int(let i): return .string(String(i))
      case .bool(let b): return .string(b ? "1" : "0")
      case .double(let d): return .string(SiftNumberText.text(d))
      case .date(let d): return .string(SiftJSON.formatDate(d))
      default: return .string(SiftJSON.serialize(v.siftValue()))
      }
    case .array:
      guard v.list != nil else { throw EvalDiagnostics.castFailed(v, to: type, at: r) }
      return v
    }
  }

  static func parseNumber(_ text: String) -> EvalValue {
    SiftNumberText.number(text).map { EvalValue($0) } ?? .null
  }
}
