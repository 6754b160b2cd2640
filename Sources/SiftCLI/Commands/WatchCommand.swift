import Foundation
import SiftEvaluation
import SiftLive
import SiftSyntax

/// `sift watch 'FORMAT' --data FILE.json [--sort 'key asc, …'] [--section KEYPATH] [--id KEY]`:
/// fetched results that stay current. Prints a snapshot, then answers each JSON Lines edit on
/// standard input with its change set (`WatchProtocol`; Grammar/notes/live.md).
enum WatchCommand {
  static let help = """
    sift watch 'FORMAT' --data FILE.json [--sort 'KEY asc, KEY desc'] [--section KEYPATH] [--id KEY]

    Fetched results that stay current (NSFetchedResultsController). Prints the records of FILE
    that match FORMAT, sorted and grouped into sections:
      {"snapshot": {"sections": [{"name": …, "ids": […]}]}}
    then reads one edit per line from standard input and answers each with the change set a
    table view would animate, and the new snapshot:
      {"insert": {RECORD}}   {"update": {"id": V, "set": {…}}}   {"delete": V}
      {"batch": [EDIT, …]}   (one transaction)
      → {"sections": {"deleted": [i…], "inserted": [i…]}, "deleted": [[s, r]…],
         "inserted": [[s, r]…], "moved": [[[s, r], [s, r]]…], "updated": [[s, r]…], "snapshot": {…}}
    Deleted, updated and moves' origins are old index paths; inserted and moves' destinations
    new ones. A bad edit is answered {"error": {"message": …, "line": N}} and changes nothing.

      --sort 'K asc, K2 desc [c]'  sort descriptors (as .sort in the REPL); ties keep file order
      --section KEYPATH            one section per value of KEYPATH (ordered by it)
      --id KEY                     the records' id key (default id)

    EXAMPLE
      echo '{"update": {"id": 2, "set": {"rating": 1}}}' |
        sift watch 'rating > 0' --data venues.json --sort 'rating desc' --section city
    """

  static func run(_ args: [String]) -> Int32 {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, valued: ["--data", "--sort", "--section", "--id"], switches: [])
    } catch {
      return CLIOutput.usageError(error.message, command: "watch")
    }
    guard parsed.positionals.count == 1, let format = parsed.positionals.first else {
      return CLIOutput.usageError("watch takes exactly one format string", command: "watch")
    }
    guard let dataPath = parsed.value("--data") else {
      return CLIOutput.usageError("watch needs --data FILE.json", command: "watch")
    }
    let idKey = parsed.value("--id") ?? "id"
    let live: WatchProtocol.Live
    do {
      let predicate = try SiftPredicate(format: format)
      for w in predicate.warnings { CLIOutput.error(DiagnosticRenderer().render(w, in: format)) }
      let sorts = try parsed.value("--sort").map { try SiftSortDescriptor.parseList($0) } ?? []
      let data = try CommandInputs.data(dataPath)
      var records: [[String: SiftValue]] = []
      var ids: [SiftValue] = []
      for (i, v) in data.values.enumerated() {
        guard case .dictionary(let d) = v else {
          throw CommandInputs.Failure(description: "\(dataPath): record \(i) is \(v.kindName), not an object")
        }
        guard let id = d[idKey], id != .null else {
          throw CommandInputs.Failure(description: "\(dataPath): record \(i) has no '\(idKey)' (name the id key with --id KEY)")
        }
        records.append(d)
        ids.append(id)
      }
      live = try WatchProtocol.Live(
        records: records, ids: ids, predicate: predicate, sortDescriptors: sorts, sectionKeyPath: parsed.value("--section"))
    } catch let e as SiftError {
      CLIOutput.error(CLIOutput.render(e))
      return 1
    } catch {
      CLIOutput.error("sift watch: \(error)")
      return 1
    }
    emit(#"{"snapshot": "# + WatchProtocol.snapshot(live) + "}")
    var line = 0
    while let text = readLine(strippingNewline: true) {
      line += 1
      if text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
      emit(answer(text, line: line, idKey: idKey, live: live))
    }
    return 0
  }

  /// The answer to one input line: a change set, or an error that changed nothing.
  static func answer(_ text: String, line: Int, idKey: String, live: WatchProtocol.Live) -> String {
    do {
      let edit: SiftValue
      do { edit = try SiftJSON.parse(text) } catch { throw WatchProtocol.Failure(message: "invalid JSON: \(error)") }
      let cs = try live.perform { tx in try WatchProtocol.apply(edit, idKey: idKey, to: &tx) }
      return WatchProtocol.answer(cs, live)
    } catch let e as WatchProtocol.Failure {
      return WatchProtocol.error(e.message, line: line)
    } catch {
      return WatchProtocol.error("\(error)", line: line)
    }
  }

  static func emit(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }
}
