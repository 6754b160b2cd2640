import Foundation
import SiftEvaluation
import SiftSyntax

/// The standard evaluation set, each with a hand-written closure and a Foundation `#Predicate`
/// computing the same answer.
enum EvalBenchCases {
  static func all() throws -> [EvalBenchCase] {
    let regex = try NSRegularExpression(pattern: "\\A(?:(Blue|Red) .*)\\z")
    nonisolated(unsafe) let wholeRegex = try Regex("^(?:(Blue|Red) .*)$")
    let classRegex = try NSRegularExpression(pattern: "\\A(?:[A-Z][a-z]+ .*)\\z")
    nonisolated(unsafe) let wholeClassRegex = try Regex("^(?:[A-Z][a-z]+ .*)$")
    func icu(_ r: NSRegularExpression, _ s: String?) -> Bool {
      guard let s else { return false }
      return r.firstMatch(in: s, range: NSRange(s.startIndex..<s.endIndex, in: s)) != nil
    }
    func string(_ d: [String: SiftValue], _ k: String) -> String? {
      if case .string(let s)? = d[k] { return s }
      return nil
    }
    func string(_ o: SiftObject, _ k: String) -> String? {
      if case .string(let s)? = o.value(forKey: k) { return s }
      return nil
    }
    func array(_ o: SiftObject, _ k: String) -> [SiftValue]? {
      if case .array(let a)? = o.value(forKey: k) { return a }
      return nil
    }
    func number(_ v: SiftValue?) -> Double? {
      switch v {
      case .int(let i)?: return Double(i)
      case .double(let x)?: return x
      default: return nil
      }
    }
    func countVeganUnder10(_ menu: [SiftValue]) -> Int {
      var n = 0
      for m in menu {
        guard case .dictionary(let item) = m, case .bool(true)? = item["vegan"] else { continue }
        if (number(item["price"]) ?? .infinity) < 10 { n += 1 }
      }
      return n
    }
    return [
      EvalBenchCase(
        name: "equality", format: "priceCategory == \"$$\"",
        closure: { string($0, "priceCategory") == "$$" },
        objectClosure: { string($0, "priceCategory") == "$$" },
        foundation: #Predicate<BenchVenue> { $0.priceCategory == "$$" }),
      EvalBenchCase(
        name: "range", format: "tipCount >= 100 AND tipCount <= 300",
        closure: { d in
          guard case .int(let t)? = d["tipCount"] else { return false }
          return t >= 100 && t <= 300
        },
        objectClosure: { o in
          guard case .int(let t)? = o.value(forKey: "tipCount") else { return false }
          return t >= 100 && t <= 300
        },
        foundation: #Predicate<BenchVenue> { $0.tipCount >= 100 && $0.tipCount <= 300 }),
      EvalBenchCase(
        name: "compound_beginswith_c", format: "name BEGINSWITH[c] \"blue\" AND distance < 10",
        closure: { d in
          guard let n = string(d, "name"), n.lowercased().hasPrefix("blue") else { return false }
          return (number(d["distance"]) ?? .infinity) < 10
        },
        objectClosure: { o in
          guard let n = string(o, "name"), n.lowercased().hasPrefix("blue") else { return false }
          return (number(o.value(forKey: "distance")) ?? .infinity) < 10
        },
        foundation: #Predicate<BenchVenue> { $0.nameLower.starts(with: "blue") && $0.distance < 10 }),
      EvalBenchCase(
        name: "any_tags", format: "ANY tags == \"wifi\"",
        closure: { d in
          guard case .array(let tags)? = d["tags"] else { return false }
          return tags.contains(.string("wifi"))
        },
        objectClosure: { o in array(o, "tags")?.contains(.string("wifi")) ?? false },
        foundation: #Predicate<BenchVenue> { $0.tags.contains("wifi") }),
      EvalBenchCase(
        name: "menu_count", format: "menu.@count > 3",
        closure: { d in
          guard case .array(let menu)? = d["menu"] else { return false }
          return menu.count > 3
        },
        objectClosure: { o in (array(o, "menu")?.count ?? 0) > 3 },
        foundation: #Predicate<BenchVenue> { $0.menu.count > 3 }),
      EvalBenchCase(
        name: "subquery", format: "SUBQUERY(menu, $m, $m.vegan == YES AND $m.price < 10).@count > 0",
        // SUBQUERY(…).@count counts every element that passes (an error on any element counts),
        // so each baseline tests every element too: the closures count without allocating, as
        // Sift does; #Predicate has no counting loop, so it filters and counts.
        closure: { d in
          guard case .array(let menu)? = d["menu"] else { return false }
          return countVeganUnder10(menu) > 0
        },
        objectClosure: { o in
          guard let menu = array(o, "menu") else { return false }
          return countVeganUnder10(menu) > 0
        },
        foundation: #Predicate<BenchVenue> { $0.menu.filter { $0.vegan && $0.price < 10 }.count > 0 }),
      EvalBenchCase(
        name: "matches", format: "name MATCHES \"(Blue|Red) .*\"",
        closure: { d in
          guard let n = string(d, "name") else { return false }
          return regex.firstMatch(in: n, range: NSRange(n.startIndex..<n.endIndex, in: n)) != nil
        },
        objectClosure: { o in
          guard let n = string(o, "name") else { return false }
          return regex.firstMatch(in: n, range: NSRange(n.startIndex..<n.endIndex, in: n)) != nil
        },
        foundation: #Predicate<BenchVenue> { $0.name.contains(wholeRegex) }),
      // A class and a `+` (outside what `SimpleRegex` took; the automaton's fast path since).
      EvalBenchCase(
        name: "matches_class", format: "name MATCHES \"[A-Z][a-z]+ .*\"",
        closure: { d in icu(classRegex, string(d, "name")) },
        objectClosure: { o in icu(classRegex, string(o, "name")) },
        foundation: #Predicate<BenchVenue> { $0.name.contains(wholeClassRegex) }),
    ]
  }
}
