import Foundation
import SiftSyntax

extension REPLSession {
  func listEntities() -> REPLResponse {
    guard !dataSets.isEmpty else { return .ok("no entities; load one with .load FILE.json\n") }
    let rows: [[SiftValue]] = dataSets.map { set in
      [
        .string((set.name == entity ? "* " : "  ") + set.name), .int(Int64(set.count)),
        .int(Int64(set.attributes.filter { !$0.name.contains(".") }.count)), .string(set.origin),
      ]
    }
    return .ok(TableRenderer(style: style).render(columns: ["entity", "records", "attributes", "origin"], rows: rows))
  }

  func describe(_ arg: String) -> REPLResponse {
    let name = arg.isEmpty ? entity : arg
    guard let set = dataSets.first(where: { $0.name == name }) else { return unknownEntity(name) }
    let rows: [[SiftValue]] = set.attributes.map { a in
      [.string(a.name), .string(a.typeDescription), .string(example(a.name, in: set))]
    }
    let out =
      "\(set.name): \(set.count) records\n"
      + TableRenderer(style: style, maxCellWidth: 40).render(columns: ["attribute", "type", "example"], rows: rows)
    return .ok(out)
  }

  /// The first non-nil value of an attribute, as cell text.
  private func example(_ path: String, in set: REPLDataSet) -> String {
    for i in 0..<min(200, set.count) {
      let v = set.value(of: path, at: i)
      if !v.isNull { return CellFormatter.text(v) }
    }
    return ""
  }

  func unknownEntity(_ name: String) -> REPLResponse {
    var text = "no entity '\(name)'"
    if let s = Spelling.closest(to: name, in: dataSets.map(\.name), maxDistance: 3) { text += "; did you mean '\(s)'?" }
    return .failure(errorLine(text + " (.entities lists them)"))
  }

  func use(_ arg: String) -> REPLResponse {
    guard !arg.isEmpty else { return .failure(errorLine("usage: .use ENTITY")) }
    guard dataSets.contains(where: { $0.name == arg }) else { return unknownEntity(arg) }
    if entity != arg { lastPredicate = nil }
    entity = arg
    return .ok("entity: \(arg) (\(current?.count ?? 0) records)\n")
  }

  /// `.load FILE [--schema FILE] [--as NAME] [--dates FORMAT]...`.
  func load(_ arg: String) -> REPLResponse {
    let usage = "usage: .load FILE.json [--schema FILE] [--as NAME] [--dates iso8601|seconds|milliseconds|KEY=FORMAT]"
    let words = REPLSession.splitWords(arg)
    var file: String?
    var name: String?
    var schema: String?
    var dateSpecs: [String] = []
    var i = 0
    while i < words.count {
      switch words[i] {
      case "--as", "--schema", "--dates":
        guard i + 1 < words.count else { return .failure(errorLine("\(words[i]) needs a value")) }
        switch words[i] {
        case "--as": name = words[i + 1]
        case "--schema": schema = words[i + 1]
        default: dateSpecs.append(words[i + 1])
        }
        i += 2
      default:
        guard file == nil else { return .failure(errorLine(usage)) }
        file = words[i]
        i += 1
      }
    }
    guard let file else { return .failure(errorLine(usage)) }
    let dates: SiftJSONDates
    do { dates = try CommandInputs.dates(dateSpecs) } catch { return .failure(errorLine("\(error)")) }
    let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath)
    let entityName = name ?? url.deletingPathExtension().lastPathComponent
    do {
      let set = try JSONDataLoader.load(url: url, name: entityName, dates: dates)
      let note = add(set, schemaPath: schema)
      entity = set.name
      lastPredicate = nil
      var out =
        "loaded \(set.count) records as '\(set.name)' (\(set.attributes.filter { !$0.name.contains(".") }.count) attributes)\n"
      if let note { out += style.dim(note) + "\n" }
      return .ok(out)
    } catch {
      return .failure(errorLine("\(error)"))
    }
  }

  /// Splits on whitespace, honouring single and double quotes.
  static func splitWords(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quote: Character?
    var inWord = false
    for ch in text {
      if let q = quote {
        if ch == q { quote = nil } else { current.append(ch) }
      } else if ch == "\"" || ch == "'" {
        quote = ch
        inWord = true
      } else if ch.isWhitespace {
        if inWord { words.append(current) }
        current = ""
        inWord = false
      } else {
        current.append(ch)
        inWord = true
      }
    }
    if inWord { words.append(current) }
    return words
  }
}

extension REPLSession {
  /// `.generate N [--as NAME]`: N synthetic venue records (see `GeneratedData`) as an entity,
  /// made current. N may be written with `_` or `,` separators (`1_000_000`).
  func generate(_ arg: String) -> REPLResponse {
    let usage = "usage: .generate N [--as NAME]   e.g. .generate 1000000"
    let words = REPLSession.splitWords(arg)
    var name = "generated"
    var countText: String?
    var i = 0
    while i < words.count {
      if words[i] == "--as" {
        guard i + 1 < words.count, !words[i + 1].isEmpty else { return .failure(errorLine("--as needs a value")) }
        name = words[i + 1]
        i += 2
      } else {
        guard countText == nil else { return .failure(errorLine(usage)) }
        countText = words[i]
        i += 1
      }
    }
    guard let countText else { return .failure(errorLine(usage)) }
    let digits = countText.filter { $0 != "_" && $0 != "," }
    guard let count = Int(digits), count > 0, count <= GeneratedData.maxCount else {
      return .failure(errorLine("N must be an integer from 1 to \(GeneratedData.maxCount), not '\(countText)'"))
    }
    let set = GeneratedData.dataSet(name: name, count: count)
    let note = add(set, schemaPath: nil)
    entity = set.name
    lastPredicate = nil
    var out = "generated \(count) records as '\(name)' (\(set.attributes.count) attributes)\n"
    if let note { out += style.dim(note) + "\n" }
    return .ok(out)
  }

  /// `.timer [on | off]`.
  func setTimer(_ arg: String) -> REPLResponse {
    switch arg.lowercased() {
    case "": break
    case "on": timer = true
    case "off": timer = false
    default: return .failure(errorLine("usage: .timer [on | off]"))
    }
    return .ok("timer: \(timer ? "on" : "off")\n")
  }
}
