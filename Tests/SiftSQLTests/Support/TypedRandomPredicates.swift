import Foundation
import SiftSyntax

/// Random `Predicate<TypedDiffNote>` trees built at run time the way the `#Predicate` macro
/// builds them (`Predicate { variable in … }` over `PredicateExpressions` nodes): leaves of
/// every converted kind joined by `&&`, `||`, `!` and `? :`, constants drawn from a seed.
enum TypedRandomPredicates {
  typealias Note = TypedDiffNote
  typealias Test = any StandardPredicateExpression<Bool>
  typealias Root = PredicateExpressions.Variable<Note>

  /// One random predicate of at most `depth` levels of `&&`/`||`/`!`/`? :`.
  static func make(_ g: inout SeededRandom, depth: Int) -> Predicate<Note> {
    var rng = g
    let p = Predicate<Note> { v in tree(v, &rng, depth) }
    g = rng
    return p
  }

  static func tree(_ v: Root, _ g: inout SeededRandom, _ depth: Int) -> Test {
    if depth == 0 || g.chance(0.3) { return leaf(v, &g) }
    switch g.below(4) {
    case 0: return and(tree(v, &g, depth - 1), tree(v, &g, depth - 1))
    case 1: return or(tree(v, &g, depth - 1), tree(v, &g, depth - 1))
    case 2: return not(tree(v, &g, depth - 1))
    default: return conditional(tree(v, &g, depth - 1), tree(v, &g, depth - 1), tree(v, &g, depth - 1))
    }
  }

  static func and(_ a: some StandardPredicateExpression<Bool>, _ b: some StandardPredicateExpression<Bool>) -> Test {
    PredicateExpressions.Conjunction(lhs: a, rhs: b)
  }

  static func or(_ a: some StandardPredicateExpression<Bool>, _ b: some StandardPredicateExpression<Bool>) -> Test {
    PredicateExpressions.Disjunction(lhs: a, rhs: b)
  }

  static func not(_ a: some StandardPredicateExpression<Bool>) -> Test { PredicateExpressions.Negation(a) }

  static func conditional(
    _ t: some StandardPredicateExpression<Bool>, _ a: some StandardPredicateExpression<Bool>,
    _ b: some StandardPredicateExpression<Bool>
  ) -> Test {
    PredicateExpressions.Conditional(test: t, trueBranch: a, falseBranch: b)
  }

  static func key<T>(_ v: Root, _ k: any KeyPath<Note, T> & Sendable) -> PredicateExpressions.KeyPath<Root, T> {
    PredicateExpressions.KeyPath(root: v, keyPath: k)
  }

  static func order(_ g: inout SeededRandom) -> PredicateExpressions.ComparisonOperator {
    g.pick([.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual])
  }

  static func leaf(_ v: Root, _ g: inout SeededRandom) -> Test {
    typealias P = PredicateExpressions
    let word = g.pick(Note.words), r = g.int(in: -2...6), x = Double(g.int(in: -4...12)) / 2
    let day = Date(timeIntervalSinceReferenceDate: Double(g.int(in: 0...5) * 86_400))
    switch g.below(22) {
    case 0: return P.Comparison(lhs: key(v, \.rating), rhs: P.Value(r), op: order(&g))
    case 1: return P.Comparison(lhs: key(v, \.score), rhs: P.Value(x), op: order(&g))
    case 2: return P.Comparison(lhs: key(v, \.title), rhs: P.Value(word), op: order(&g))
    case 3: return P.Equal(lhs: key(v, \.title), rhs: P.Value(word))
    case 4: return key(v, \.pinned)
    case 5: return P.Equal(lhs: key(v, \.body), rhs: P.Value(g.chance(0.3) ? nil : word))
    case 6: return P.NotEqual(lhs: key(v, \.due), rhs: P.Value(g.chance(0.5) ? nil : day))
    case 7: return P.SequenceContains(sequence: key(v, \.tags), element: P.Value(word))
    case 8: return P.CollectionContainsCollection(base: key(v, \.title), other: P.Value(g.pick(["a", "b", "i", "Z"])))
    case 9: return P.SequenceStartsWith(base: key(v, \.title), prefix: P.Value(word))
    case 10:
      let due = P.NilCoalesce(lhs: key(v, \.due), rhs: P.Value(Date.distantPast))
      return P.Comparison(lhs: due, rhs: P.Value(day), op: order(&g))
    case 11:
      let sum = P.Arithmetic(lhs: key(v, \.rating), rhs: P.Value(r), op: g.pick([.add, .subtract, .multiply]))
      return P.Comparison(lhs: sum, rhs: P.Value(g.int(in: -4...8)), op: order(&g))
    case 12: return P.Equal(lhs: key(v, \.kind), rhs: P.Value(g.pick([Note.Kind.idea, .todo, .done])))
    case 13:
      return P.SequenceContainsWhere(key(v, \.tags)) { e in P.Comparison(lhs: e, rhs: P.Value(word), op: .greaterThan) }
    case 14: return P.SequenceAllSatisfy(key(v, \.tags)) { e in P.NotEqual(lhs: e, rhs: P.Value(word)) }
    case 15:
      let count = P.KeyPath(
        root: P.Filter(key(v, \.tags)) { e in P.SequenceStartsWith(base: e, prefix: P.Value("a")) },
        keyPath: \[String].count)
      return P.Comparison(lhs: count, rhs: P.Value(g.int(in: 0...2)), op: order(&g))
    case 16: return P.Equal(lhs: P.SequenceMaximum(elements: key(v, \.tags)), rhs: P.Value(g.chance(0.2) ? nil : word))
    case 17:
      // Divisors are non-zero constants: Swift traps on a zero divisor.
      let q = P.IntDivision(lhs: key(v, \.rating), rhs: P.Value(g.pick([-3, -2, 2, 3])))
      let m = P.IntRemainder(lhs: key(v, \.rating), rhs: P.Value(g.pick([-3, 2, 3])))
      return g.chance(0.5) ? P.Equal(lhs: q, rhs: P.Value(r / 3)) : P.Equal(lhs: m, rhs: P.Value(r % 3))
    case 18:
      let half = P.FloatDivision(lhs: P.UnaryMinus(key(v, \.score)), rhs: P.Value(g.pick([2.0, -4.0])))
      return P.Comparison(lhs: half, rhs: P.Value(x / 2), op: order(&g))
    case 19:
      let first = P.OptionalFlatMap(key(v, \.body)) { b in P.SequenceStartsWith(base: b, prefix: P.Value(word)) }
      return P.Equal(lhs: first, rhs: P.Value(g.chance(0.2) ? nil : g.chance(0.5)))
    case 20:
      return P.RangeExpressionContains(
        range: P.ClosedRange(lower: P.Value(r - 2), upper: P.Value(r)), element: key(v, \.rating))
    default:
      let size = P.KeyPath(root: key(v, \.tags), keyPath: \[String].count)
      return g.chance(0.5)
        ? P.KeyPath(root: key(v, \.tags), keyPath: \[String].isEmpty)
        : P.Comparison(lhs: size, rhs: P.Value(g.int(in: 0...3)), op: order(&g))
    }
  }
}
