import Foundation
import SiftLive
import SiftLivePostgres
import SiftPostgres
import SiftSyntax

/// `sift watch 'FORMAT' --postgres CONNINFO [--pg-schema S] --entity E [--mode poll|push [--slot NAME]]
/// [--interval SECONDS] [--policy FILE [--var NAME=JSON]] [--sort …] [--section …] [--id COLUMN]`:
/// a live fetch on a PostgreSQL table or view (`PostgresLiveHub`), read-only. `--mode push` reads commits
/// from the slot and publication `sift setup-sql --live` made (`PostgresLivePush`, tables only). Prints the snapshot,
/// then each commit that changes the results as an `{"external": true, …}` line (the same JSON
/// Lines as the SQLite watch, `WatchProtocol`); input lines are answered with an error (nothing
/// is written). Grammar/notes/live.md, "PostgreSQL".
enum WatchPostgres {
  static let valued = ["--postgres", "--pg-schema", "--mode", "--slot", "--interval", "--policy", "--var"]

  static func run(_ format: String, _ parsed: CLIArguments) -> ExitStatus {
    guard let conninfo = parsed.value("--postgres"), let entity = parsed.value("--entity") else {
      return CLIOutput.usageError("watch --postgres CONNINFO needs --entity TABLE", command: "watch")
    }
    for o in ["--data", "--db", "--model", "--configuration", "--dates"] where parsed.value(o) != nil {
      return CLIOutput.usageError("\(o) does not go with --postgres", command: "watch")
    }
    if parsed.flags.contains("--write") {
      return CLIOutput.usageError("watch --postgres is read-only: --write does not go with it", command: "watch")
    }
    let mode = parsed.value("--mode") ?? "poll"
    guard mode == "poll" || mode == "push" else {
      return CLIOutput.usageError("--mode is poll or push, not '\(mode)'", command: "watch")
    }
    var interval = 0.25
    if let text = parsed.value("--interval") {
      guard let v = Double(text), v.isFinite, v >= 0.01, v <= 3600 else {
        return CLIOutput.usageError("--interval takes seconds between 0.01 and 3600, not '\(text)'", command: "watch")
      }
      interval = v
    }
    if parsed.value("--policy") == nil, !parsed.all("--var").isEmpty {
      return CLIOutput.usageError("--var goes with --policy", command: "watch")
    }
    if mode == "poll", parsed.value("--slot") != nil {
      return CLIOutput.usageError("--slot goes with --mode push", command: "watch")
    }
    if let slot = parsed.value("--slot"), !PostgresReplicationStream.isValidName(slot) {
      return CLIOutput.usageError(
        "--slot '\(slot)': use lowercase letters, digits and '_' (at most 63)", command: "watch")
    }
    if mode == "push", parsed.value("--interval") != nil {
      return CLIOutput.usageError(
        "--interval goes with --mode poll (push mode is told of each commit)", command: "watch")
    }
    let schema = parsed.value("--pg-schema") ?? "public"
    let push =
      mode == "push"
      ? PostgresLivePush(
        slot: parsed.value("--slot") ?? "sift_live", tables: [PostgresLiveTableName(schema: schema, name: entity)])
      : nil
    let hub: PostgresLiveHub
    let watcher: PostgresLiveWatcher
    do {
      let predicate = try SiftPredicate(format: format)
      for w in predicate.warnings { CLIOutput.error(SiftDiagnosticRenderer().render(w, in: format)) }
      let sorts = try parsed.value("--sort").map { try SiftSortDescriptor.parseList($0) } ?? []
      var request = SiftFetchRequest(entity: entity, predicate: predicate, sortDescriptors: sorts)
      if let path = parsed.value("--policy") {
        let policy = try CommandInputs.policy(path)
        request = try policy.applying(to: request, variables: try CommandInputs.variables(parsed.all("--var")))
      }
      let source: any PostgresLiveChangeSource = push ?? PostgresLivePolling(interval: interval)
      hub = try PostgresLiveHub(conninfo: conninfo, schema: schema, source: source)
      watcher = try hub.watch(request, sectionKeyPath: parsed.value("--section"), key: parsed.value("--id"))
    } catch let e as SiftError {
      return fail(e)
    } catch {
      return CLIOutput.failed("watch", error)
    }
    defer { hub.close() }
    WatchCommand.emit(#"{"snapshot": "# + WatchProtocol.snapshot(watcher.results) + "}")
    var input = WatchInput()
    var line = 0
    var noticesShown = 0
    // Push mode: wake often, as each commit is streamed (a wait for input, then a short wait on the stream).
    let wait = push == nil ? Int32(max(10, min(interval * 1000, 3_600_000))) : 20
    func refresh() {
      report(hub.refresh(timeout: push == nil ? 0 : 0.02), line: line)
      if let notices = push?.notices, notices.count > noticesShown {
        for n in notices[noticesShown...] { CLIOutput.error(TerminalText.escaped("sift watch: \(n)")) }
        noticesShown = notices.count
      }
    }
    while true {
      switch input.next(waitMilliseconds: wait) {
      case .end: return .success
      case .idle: refresh()
      case .line(let text):
        line += 1
        if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
        refresh()
        WatchCommand.emit(
          WatchProtocol.error(
            "watch --postgres is read-only: edits are not written (write with sift batch)", line: line))
      }
    }
  }

  /// Prints why the watch cannot start: a predicate's error pointing into FORMAT, any other
  /// (the server's, the live fetch's) as one line.
  static func fail(_ e: SiftError) -> ExitStatus {
    CLIOutput.error(e.source.isEmpty ? TerminalText.escaped("sift watch: \(e.message)") : CLIOutput.render(e))
    return .failure
  }

  /// Prints each event: change sets as `{"external": true, …}`, errors as error lines.
  static func report(_ events: [PostgresLiveEvent], line: Int) {
    for event in events {
      switch event {
      case .changes(let w, let cs): WatchCommand.emit(WatchProtocol.answer(cs, w.results, external: true))
      case .error(_, let e): WatchCommand.emit(WatchProtocol.error(e.message, line: line))
      }
    }
  }
}
