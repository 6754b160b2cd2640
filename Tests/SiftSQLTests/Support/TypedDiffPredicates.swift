import Foundation
import SiftSyntax

/// The `#Predicate` shapes of the typed differential test, one per kind of expression the
/// converter reads, each with constants drawn from `g` (a macro cannot be generated at run
/// time; the captured constants are).
enum TypedDiffPredicates {
  typealias Note = TypedDiffNote
  typealias Shape = (String, Predicate<Note>)

  static func all(_ g: inout SeededRandom) -> [Shape] {
    comparisons(&g) + logic(&g) + optionals(&g) + text(&g) + collections(&g)
  }

  static func comparisons(_ g: inout SeededRandom) -> [Shape] {
    let r = g.int(in: -1...5), x = Double(g.int(in: -2...10)) / 2, s = g.pick(Note.words)
    let d = Date(timeIntervalSinceReferenceDate: Double(g.int(in: 0...5) * 86_400))
    let k = g.pick([Note.Kind.idea, .todo, .done])
    return [
      ("int ==", #Predicate<Note> { $0.rating == r }),
      ("int !=", #Predicate<Note> { $0.rating != r }),
      ("int <", #Predicate<Note> { $0.rating < r }),
      ("int >=", #Predicate<Note> { $0.rating >= r }),
      ("double >", #Predicate<Note> { $0.score > x }),
      ("double <=", #Predicate<Note> { $0.score <= x }),
      ("string ==", #Predicate<Note> { $0.title == s }),
      ("string <", #Predicate<Note> { $0.title < s }),
      ("string >=", #Predicate<Note> { $0.title >= s }),
      ("bool", #Predicate<Note> { $0.pinned }),
      ("enum ==", #Predicate<Note> { $0.kind == k }),
      ("enum !=", #Predicate<Note> { $0.kind != k }),
      ("add", #Predicate<Note> { $0.rating + r > 3 }),
      ("subtract", #Predicate<Note> { $0.rating - r < 0 }),
      ("multiply", #Predicate<Note> { $0.score * 2 >= x }),
      ("int /", #Predicate<Note> { $0.rating / 2 == 1 }),
      ("float /", #Predicate<Note> { $0.score / 4 < x }),
      ("remainder", #Predicate<Note> { $0.rating % 3 == 1 }),
      ("minus", #Predicate<Note> { -$0.rating > r }),
      ("range", #Predicate<Note> { (r..<(r + 3)).contains($0.rating) }),
      ("closed range", #Predicate<Note> { (r...(r + 2)).contains($0.rating) }),
      ("date optional", #Predicate<Note> { $0.due == d }),
    ]
  }

  static func logic(_ g: inout SeededRandom) -> [Shape] {
    let r = g.int(in: -1...5), s = g.pick(Note.words)
    return [
      ("and", #Predicate<Note> { $0.pinned && $0.rating > r }),
      ("or", #Predicate<Note> { $0.rating < r || $0.title == s }),
      ("not", #Predicate<Note> { !$0.pinned }),
      ("not and", #Predicate<Note> { !($0.pinned && $0.rating == r) }),
      ("conditional", #Predicate<Note> { ($0.pinned ? $0.rating : 0) > r }),
      ("conditional test", #Predicate<Note> { $0.pinned ? $0.rating > r : $0.title == s }),
      ("bool ==", #Predicate<Note> { ($0.rating > r) == $0.pinned }),
      ("true", #Predicate<Note> { _ in true }),
    ]
  }

  static func optionals(_ g: inout SeededRandom) -> [Shape] {
    let s = g.pick(Note.words), d = Date(timeIntervalSinceReferenceDate: Double(g.int(in: 0...5) * 86_400))
    let past = Date.distantPast
    return [
      ("nil", #Predicate<Note> { $0.body == nil }),
      ("not nil", #Predicate<Note> { $0.due != nil }),
      ("optional ==", #Predicate<Note> { $0.body == s }),
      ("optional !=", #Predicate<Note> { $0.body != s }),
      ("coalesce", #Predicate<Note> { ($0.body ?? "milk") == s }),
      ("coalesce date", #Predicate<Note> { ($0.due ?? past) > d }),
      ("flatMap", #Predicate<Note> { $0.body.flatMap { $0.starts(with: "a") } == true }),
    ]
  }

  static func text(_ g: inout SeededRandom) -> [Shape] {
    let s = g.pick(Note.words), t = g.pick(["a", "b", "i", "x", "Z"]), pair = [s, "milk"]
    return [
      ("contains", #Predicate<Note> { $0.title.contains(t) }),
      ("starts", #Predicate<Note> { $0.title.starts(with: s) }),
      ("optional contains", #Predicate<Note> { ($0.body ?? "").contains(t) }),
      ("empty text", #Predicate<Note> { $0.title.isEmpty }),
      ("empty needle", #Predicate<Note> { $0.title.starts(with: "") || $0.title.contains("") }),
      ("needle from a key path", #Predicate<Note> { $0.title.contains($0.body ?? "") }),
      ("captured contains", #Predicate<Note> { pair.contains($0.title) }),
    ]
  }

  static func collections(_ g: inout SeededRandom) -> [Shape] {
    let s = g.pick(Note.words), n = g.int(in: 0...2)
    return [
      ("tags contains", #Predicate<Note> { $0.tags.contains(s) }),
      ("tags count", #Predicate<Note> { $0.tags.count > n }),
      ("tags empty", #Predicate<Note> { $0.tags.isEmpty }),
      ("contains where", #Predicate<Note> { $0.tags.contains { $0 == s } }),
      ("contains where starts", #Predicate<Note> { $0.tags.contains { $0.starts(with: "a") } }),
      ("all satisfy", #Predicate<Note> { $0.tags.allSatisfy { $0 != s } }),
      ("all satisfy or", #Predicate<Note> { $0.tags.allSatisfy { $0 == "a" || $0 == "b" } }),
      ("filter count", #Predicate<Note> { $0.tags.filter { $0 > s }.count >= n }),
      ("max", #Predicate<Note> { $0.tags.max() == s }),
      ("min", #Predicate<Note> { $0.tags.min() == s }),
      ("first", #Predicate<Note> { $0.tags.first == s }),
    ]
  }
}
