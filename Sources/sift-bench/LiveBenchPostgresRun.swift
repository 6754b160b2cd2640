import Foundation
import SiftEvaluation
import SiftLive
import SiftLivePostgres
import SiftPostgres
import SiftSQL
import SiftSyntax

/// A table of `rows` rows (`id` primary key, `rating` 0…9,999 indexed, `name`, `seq`) in a
/// schema of its own, with a uniquely named publication and slot; `close()` drops all of it.
final class LivePGTable {
  let conninfo: String
  let db: PostgresDatabase
  let writer: PostgresDatabase
  let name: PostgresLiveTableName
  let table: String
  let slot: String
  let rows: Int
  /// Runs so far: each run's sequence numbers start at `runs × 10⁸`, so a row a run leaves
  /// as the previous one did still shows a new sequence number.
  private var runs = 0
  private let setup: PostgresLiveSetup

  init(conninfo: String, rows: Int) throws {
    self.conninfo = conninfo
    self.rows = rows
    db = try PostgresDatabase(conninfo: conninfo, schema: .temporary(prefix: "sift_bench_live"))
    writer = try PostgresDatabase(conninfo: conninfo)
    let schema = db.schemaName ?? "public"
    name = PostgresLiveTableName(schema: schema, name: "venue")
    table = PostgresDatabase.quoteIdentifier(schema) + ".venue"
    slot = "sift_bench_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    setup = PostgresLiveSetup(name: slot, tables: [(schema, "venue")])
    do {
      try fill(rows, schema: schema)
    } catch {
      writer.close()
      db.close()
      throw error
    }
  }

  private func fill(_ rows: Int, schema: String) throws {
    try db.run(
      """
      CREATE TABLE venue (id int8 PRIMARY KEY, rating int8 NOT NULL, name text NOT NULL, seq int8 NOT NULL);
      INSERT INTO venue SELECT g, (g::int8 * 7919) % 10000, 'v' || (g % 977), 0 FROM generate_series(0, \(rows - 1)) g;
      CREATE INDEX ON venue (rating);
      ANALYZE venue
      """)
    _ = try setup.apply(on: db)
  }

  func close() {
    _ = try? setup.drop(on: db)
    writer.close()
    db.close()
  }

  /// Rows by id from `sql` (`id, rating, name, seq`).
  static func fetchRows(_ db: PostgresDatabase, _ sql: String, _ values: [SQLValue]) throws -> [Int64: SiftObject] {
    var out: [Int64: SiftObject] = [:]
    for row in try db.execute(SQLStatement(sql: sql, bindings: values)) {
      guard row.count == 4, case .integer(let id) = row[0], case .integer(let rating) = row[1],
        case .text(let name) = row[2], case .integer(let seq) = row[3]
      else { continue }
      out[id] = SiftObject(["id": .int(id), "rating": .int(rating), "name": .string(name), "seq": .int(seq)])
    }
    return out
  }

  /// The writer commits `rate` single-row updates a second for `seconds`; the reader takes what
  /// `source` reports and brings every watcher up to date. `insidePredicate`: updates keep the
  /// row inside the first watcher's `rating < 100` (so polling's re-run sees each one).
  func run(
    source: PostgresLiveChangeSource, watchers: [LivePGWatcher], rate: Double, seconds: Double, insidePredicate: Bool
  ) throws -> LivePGStats {
    let clock = LivePGClock(count: min(Int(rate * seconds) + 1, 99_999_999))
    let base = nextBase()
    try source.start(database: db, conninfo: conninfo)
    defer { source.stop() }
    var seen: [Int64: Int64] = [:]
    for w in watchers {
      for (id, row) in try w.reload(db) { seen[id] = Self.seq(row) }
    }
    let pids = try backendPIDs(source)
    let cpu0 = pids.map(Self.cpuTicks).reduce(0, +)
    let targets = insidePredicate ? Array(try Self.fetchRows(db, watchers[0].sql, []).keys).sorted() : []
    let done = startWriter(clock: clock, targets: targets, rate: rate, insidePredicate: insidePredicate, base: base)
    var stats = LivePGStats()
    var writerDone = false
    while true {
      if !writerDone, done.wait(timeout: .now()) == .success { writerDone = true }
      if writerDone && clock.delivered >= clock.sentCount - 1 { break }
      if writerDone, clock.sinceLastSent > 10 { break }  // lost commits: reported as backlog
      let changes = try source.changes(database: db, timeout: 0.2)
      guard !changes.isEmpty else { continue }
      var changed: [Int64: SiftObject?] = [:]
      var rerun = false
      for change in changes {
        switch change {
        case .unknown: rerun = true
        case .rows(_, let keys):
          let ids = keys.compactMap { Int64($0) }
          guard !ids.isEmpty else { continue }
          let list = ids.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
          let found = try Self.fetchRows(
            db, "SELECT id, rating, name, seq FROM \(table) WHERE id IN (\(list))", ids.map { .integer($0) })
          for id in ids { changed[id] = found[id] }
        }
      }
      if rerun {
        for w in watchers {
          let rows = try w.reload(db)
          for (id, row) in rows where seen[id] != Self.seq(row) { changed[id] = row }
        }
      } else {
        for w in watchers where try w.apply(changed) != nil { stats.changeSets += 1 }
      }
      for (id, row) in changed {
        guard let s = row.flatMap(Self.seq), s > base, seen[id] != s else { continue }
        seen[id] = s
        clock.deliver(Int(s - base))
      }
      stats.peakBacklog = max(stats.peakBacklog, clock.sentCount - clock.delivered)
    }
    stats.missing = clock.missing.count
    let cpu1 = pids.map(Self.cpuTicks).reduce(0, +)
    stats.sent = clock.sentCount - 1
    stats.delivered = clock.delivered
    let l = clock.latencies
    stats.p50 = Self.percentile(l, 0.5)
    stats.p99 = Self.percentile(l, 0.99)
    stats.p99First = Self.percentile(Array(l.prefix(l.count / 3)), 0.99)
    stats.p99Last = Self.percentile(Array(l.suffix(l.count / 3)), 0.99)
    let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
    stats.serverCPUms = Double(cpu1 - cpu0) / tick * 1000 / Double(max(stats.delivered, 1))
    return stats
  }

  /// Starts the writer thread: `rate` single-row updates a second, sequence numbers from `base`;
  /// the semaphore is signalled when it is done. `targets`: the ids to update (else all, in a
  /// stride that never repeats an id within a run).
  func startWriter(clock: LivePGClock, targets: [Int64], rate: Double, insidePredicate: Bool, base: Int64)
    -> DispatchSemaphore
  {
    let writer = self.writer
    let table = self.table
    let total = clock.count
    let n = rows
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let start = DispatchTime.now().uptimeNanoseconds
      var rng = SeededRandom(seed: 7)
      for s in 1..<total {
        let due = start + UInt64(Double(s) / rate * 1e9)
        let now = DispatchTime.now().uptimeNanoseconds
        if due > now { Thread.sleep(forTimeInterval: Double(due - now) / 1e9) }
        let id = targets.isEmpty ? Int64((s * 7_919) % n) : targets[s % targets.count]
        let rating = insidePredicate ? rng.below(100) : rng.below(10_000)
        clock.sent(s)
        _ = try? writer.execute(
          SQLStatement(
            sql: "UPDATE \(table) SET rating = $1, seq = $2 WHERE id = $3",
            bindings: [.integer(Int64(rating)), .integer(base + Int64(s)), .integer(id)]))
      }
      done.signal()
    }
    return done
  }

  /// The next run's sequence base (see `runs`).
  func nextBase() -> Int64 {
    runs += 1
    return Int64(runs) * 100_000_000
  }

  static func seq(_ row: SiftObject) -> Int64? {
    if case .int(let s)? = row.value(forKey: "seq") { return s }
    return nil
  }

  /// The reader's and the writer's backends, and the walsender streaming the slot (push).
  func backendPIDs(_ source: PostgresLiveChangeSource) throws -> [Int] {
    var pids: [Int] = []
    for d in [db, writer] {
      if case .integer(let p)? = try d.execute(SQLStatement(sql: "SELECT pg_backend_pid()::int8")).first?.first {
        pids.append(Int(p))
      }
    }
    if source is PostgresLivePush,
      case .integer(let p)? = try db.execute(
        SQLStatement(
          sql: "SELECT active_pid::int8 FROM pg_replication_slots WHERE slot_name = $1", bindings: [.text(slot)])
      ).first?.first
    {
      pids.append(Int(p))
    }
    return pids
  }

  /// utime + stime of a process in clock ticks (0 when /proc cannot tell: another host).
  static func cpuTicks(_ pid: Int) -> Int {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After "pid (comm)": state is field 3; utime and stime are fields 14 and 15.
    guard fields.count > 13, let u = Int(fields[11]), let s = Int(fields[12]) else { return 0 }
    return u + s
  }

  static func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))]
  }
}

/// Send and delivery times by sequence number, shared by the writer thread and the reader.
final class LivePGClock: @unchecked Sendable {
  let count: Int
  private let lock = NSLock()
  private var sentAt: [UInt64]
  private var deliveredAt: [UInt64]
  private var sentUpTo = 1
  private var deliveredCount = 0
  private var lastSent = DispatchTime.now().uptimeNanoseconds

  init(count: Int) {
    self.count = count
    sentAt = Array(repeating: 0, count: count)
    deliveredAt = Array(repeating: 0, count: count)
  }

  func sent(_ s: Int) {
    lock.lock()
    defer { lock.unlock() }
    let now = DispatchTime.now().uptimeNanoseconds
    sentAt[s] = now
    lastSent = now
    sentUpTo = max(sentUpTo, s + 1)
  }

  func deliver(_ s: Int) {
    lock.lock()
    defer { lock.unlock() }
    guard s > 0, s < count, deliveredAt[s] == 0, sentAt[s] != 0 else { return }
    deliveredAt[s] = DispatchTime.now().uptimeNanoseconds
    deliveredCount += 1
  }

  /// One more than the last sequence number sent.
  var sentCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return sentUpTo
  }

  /// How many commits were delivered.
  var delivered: Int {
    lock.lock()
    defer { lock.unlock() }
    return deliveredCount
  }

  var sinceLastSent: Double {
    lock.lock()
    defer { lock.unlock() }
    return Double(DispatchTime.now().uptimeNanoseconds - lastSent) / 1e9
  }

  /// Sequence numbers sent and never delivered.
  var missing: [Int] {
    lock.lock()
    defer { lock.unlock() }
    return (1..<sentUpTo).filter { deliveredAt[$0] == 0 }
  }

  /// Milliseconds from send to delivery, in send order.
  var latencies: [Double] {
    lock.lock()
    defer { lock.unlock() }
    return (1..<count).compactMap { s in
      deliveredAt[s] > sentAt[s] && sentAt[s] > 0 ? Double(deliveredAt[s] - sentAt[s]) / 1e6 : nil
    }
  }
}

/// `--pg-…` flags of `--suite live-postgres`: table sizes, watchers, rates and durations (CI
/// can keep them short).
struct LivePostgresOptions {
  var rows = 1_000_000
  var smallRows = 10_000
  var watchers = 1_000
  var rate = 100.0
  var seconds = 60.0
  var poll = 0.1
  var latencyRate = 20.0
  var latencySeconds = 10.0

  mutating func set(_ flag: String, _ text: String) throws {
    guard let number = Double(text), number > 0, number.isFinite, number < 1e9 else {
      throw BenchOptions.Failure(description: "\(flag) needs a positive number")
    }
    switch flag {
    case "--pg-rows": rows = max(2, Int(number))
    case "--pg-small-rows": smallRows = max(2, Int(number))
    case "--pg-watchers": watchers = max(1, Int(number))
    case "--pg-rate": rate = number
    case "--pg-seconds": seconds = number
    case "--pg-poll": poll = number
    case "--pg-latency-rate": latencyRate = number
    case "--pg-latency-seconds": latencySeconds = number
    default: throw BenchOptions.Failure(description: "unknown option \(flag)")
    }
  }
}
