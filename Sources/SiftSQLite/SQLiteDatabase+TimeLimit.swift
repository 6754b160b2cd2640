import CSQLite
import Dispatch
import SiftSQL
import SiftSyntax

extension SQLiteDatabase {
  /// `execute(_:)` with a wall-clock limit: SQLite's progress handler reads the clock every
  /// 1,000 virtual-machine steps and interrupts the statement once `milliseconds` have
  /// passed, and `sift_matches`/`regexp` read it while matching one value (the handler does
  /// not run inside a function); the error is `time-limit` (stage `.policy`) and the
  /// connection stays usable.
  ///
  /// ```swift
  /// let rows = try db.execute(statement, timeLimit: 2000)
  /// ```
  public func execute(_ statement: SQLStatement, timeLimit milliseconds: Int) throws(SiftError) -> [[SQLValue]] {
    guard let handle = connectionHandle else { return try execute(statement) }
    let clock = DeadlineClock(milliseconds: milliseconds)
    let box = Unmanaged.passRetained(clock)
    sqlite3_progress_handler(
      handle, 1000,
      { context in
        guard let context else { return 0 }
        return Unmanaged<DeadlineClock>.fromOpaque(context).takeUnretainedValue().expired ? 1 : 0
      }, box.toOpaque())
    // ... and `sift_matches`/`regexp` read the same deadline while they match one value.
    matchClock.deadline = clock.deadline
    matchClock.milliseconds = milliseconds
    defer {
      sqlite3_progress_handler(handle, 0, nil, nil)
      box.release()
      matchClock.deadline = 0
    }
    do {
      return try rows(statement) { (_: Int) throws(SiftError) in
        if clock.expired { throw clock.error }
      }
    } catch {
      if clock.fired || clock.expired { throw clock.error }
      throw error
    }
  }

  /// Runs a client's request under a policy: checked and made safe
  /// (`SiftQueryPolicy.applying(to:variables:)`), compiled by `compiler`, and run with the
  /// policy's time limit.
  ///
  /// ```swift
  /// let rows = try db.execute(request, policy: policy, variables: ["USER": 42], compiler: compiler)
  /// ```
  /// - Throws: a refusal or `time-limit` (stage `.policy`), or what compiling and running throw.
  public func execute(
    _ request: SiftFetchRequest, policy: SiftQueryPolicy, variables: [String: SiftValue] = [:], compiler: SQLCompiler
  ) throws(SiftError) -> [[SQLValue]] {
    let statement = try compiler.compile(try policy.applying(to: request, variables: variables))
    guard let ms = policy.limits.milliseconds else { return try execute(statement) }
    return try execute(statement, timeLimit: ms)
  }
}

/// A deadline read from SQLite's progress handler (on the statement's thread).
final class DeadlineClock {
  let deadline: UInt64
  let milliseconds: Int
  /// Set once the handler has asked SQLite to stop.
  var fired = false

  init(milliseconds: Int) {
    self.milliseconds = milliseconds
    deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, milliseconds)) &* 1_000_000
  }

  var expired: Bool {
    if DispatchTime.now().uptimeNanoseconds > deadline { fired = true }
    return fired
  }

  var error: SiftError {
    .queryTimeLimit(milliseconds: milliseconds)
  }
}

/// The deadline `sift_matches` and `regexp` read while they match: one per connection, held
/// by the functions' registrations; `execute(_:timeLimit:)` sets it for its statement (0: none).
final class SQLiteMatchClock: @unchecked Sendable {
  // Used on the connection's thread only (a connection is not shared between threads).
  var deadline: UInt64 = 0
  var milliseconds = 0
}
