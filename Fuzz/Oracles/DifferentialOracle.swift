import Foundation
import SiftEvaluation
import SiftSQL
import SiftSQLite
import SiftSyntax

/// The differential oracle: in-memory evaluation and SQLite agree on `FuzzData` — both give
/// the same matching record indices, or both fail (an evaluation error in memory, a compile
/// or run error in SQL).
///
/// ```swift
/// DifferentialOracle.check("ANY parts.price > 2.5")   // nil
/// ```
public enum DifferentialOracle {
  /// One engine's answer.
  public enum Outcome: Sendable, Hashable, CustomStringConvertible {
    /// The matching record indices, ascending.
    case matches([Int])
    /// The error id and message.
    case failed(String)
    /// The SQL compiler refused the predicate (error id and message): a construct SQL cannot
    /// express, or a type error SQL finds statically in the schema where memory, dynamically
    /// typed, meets only nil (`SELF.@count`, `1.x`, `name + missing`, unknown keys).
    case refused(String)

    /// "matches [0, 2]", "error: id: message" or "refused: id: message".
    public var description: String {
      switch self {
      case .matches(let m): return "matches \(m)"
      case .failed(let e): return "error: \(e)"
      case .refused(let e): return "refused: \(e)"
      }
    }

    /// Same matches, both failed, or one side refused to compile: a refusal never gives a
    /// wrong answer, so it disagrees with nothing.
    public func agrees(with other: Outcome) -> Bool {
      switch (self, other) {
      case (.matches(let a), .matches(let b)): return a == b
      case (.failed, .failed), (.refused, _), (_, .refused): return true
      default: return false
      }
    }
  }

  /// Nil when the oracle holds for `text`.
  public static func check(_ text: String) -> FuzzFailure? {
    guard let p = PreparedInput.predicate(text), let schema = FuzzData.schema else { return nil }
    let memory = memoryOutcome(p)
    let sql = sqliteOutcome(p, schema: schema)
    if memory.agrees(with: sql) { return nil }
    // Documented gap: SQL stores and compares NFC text; memory's string operators do not
    // normalize. An NFC spelling of the predicate that agrees is that gap, not a bug.
    let nfc = p.predicateFormat.precomposedStringWithCanonicalMapping
    if nfc != p.predicateFormat, let q = try? SiftPredicate.parse(nfc), memoryOutcome(q).agrees(with: sql) {
      return nil
    }
    // Documented gap: SQLite reads a stored -0.0 back as +0.0 (FuzzData's record 2 has
    // x = -0.0), so `1 / x` is +infinity there. Memory on the records as SQLite holds them
    // agreeing is that gap, not a bug.
    if memoryOutcome(p, FuzzData.objectsAsSQLiteStoresThem).agrees(with: sql) { return nil }
    var message = "memory \(memory) but SQLite \(sql) (predicate \(p.predicateFormat))"
    if let st = try? SQLCompiler(dialect: SQLiteDialect(), schema: schema)
      .compileMatchingIndices(p, entity: FuzzData.entity)
    {
      message += "\n  SQL: \(st.sql)\n  bindings: \(st.bindings.map(\.description).joined(separator: ", "))"
    }
    return FuzzFailure(oracle: "differential", message: message, input: text)
  }

  /// What in-memory evaluation says (on `FuzzData.objects` unless told otherwise).
  public static func memoryOutcome(_ p: SiftPredicate, _ objects: [SiftObject] = FuzzData.objects) -> Outcome {
    do {
      return .matches(try p.compile().matchingIndices(objects))
    } catch {
      return .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
    }
  }

  /// What SQLite says.
  public static func sqliteOutcome(_ p: SiftPredicate, schema: SQLSchema) -> Outcome {
    guard case .success(let db) = FuzzData.sqlite else { return .failed("no database") }
    let statement: SQLStatement
    do {
      statement = try SQLCompiler(dialect: SQLiteDialect(), schema: schema)
        .compileMatchingIndices(p, entity: FuzzData.entity)
    } catch {
      return .refused("\(error.diagnostic.id): \(error.diagnostic.message)")
    }
    do {
      let rows = try db.withDatabase { try $0.execute(statement) }
      return .matches(rows.compactMap { $0.first?.intValue.map { Int(truncatingIfNeeded: $0) } })
    } catch let error as SiftError {
      return .failed("\(error.diagnostic.id): \(error.diagnostic.message)")
    } catch {
      return .failed("\(error)")
    }
  }
}
