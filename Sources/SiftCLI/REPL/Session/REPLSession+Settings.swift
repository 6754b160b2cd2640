import Foundation
import SiftSyntax

extension REPLSession {
  func setSort(_ arg: String) -> REPLResponse {
    if arg.isEmpty {
      return .ok(
        "sort: " + (sort.isEmpty ? "none (record order)" : sort.map(\.description).joined(separator: ", ")) + "\n")
    }
    if arg.lowercased() == "none" || arg.lowercased() == "off" {
      sort = []
      return .ok("sort: none (record order)\n")
    }
    do {
      sort = try SiftSortDescriptor.parseList(arg)
      return .ok("sort: " + sort.map(\.description).joined(separator: ", ") + "\n")
    } catch {
      return .failure(errorLine(error.diagnostic.message))
    }
  }

  func setLimit(_ arg: String) -> REPLResponse {
    if arg.isEmpty { return .ok("limit: \(limit.map(String.init) ?? "none")\n") }
    if ["none", "off", "all"].contains(arg.lowercased()) {
      limit = nil
      return .ok("limit: none\n")
    }
    guard let n = Int(arg), n >= 0 else { return .failure(errorLine("limit must be a non-negative integer or 'none'")) }
    limit = n
    return .ok("limit: \(n)\n")
  }

  func setOffset(_ arg: String) -> REPLResponse {
    if arg.isEmpty { return .ok("offset: \(offset)\n") }
    guard let n = Int(arg), n >= 0 else { return .failure(errorLine("offset must be a non-negative integer")) }
    offset = n
    return .ok("offset: \(n)\n")
  }

  func setRows(_ arg: String) -> REPLResponse {
    if arg.isEmpty { return .ok("rows: \(displayRows)\n") }
    guard let n = Int(arg), n >= 0, n <= 100_000 else {
      return .failure(errorLine("rows must be an integer from 0 to 100000"))
    }
    displayRows = n
    return .ok("rows: \(n)\n")
  }

  func setColumns(_ arg: String) -> REPLResponse {
    guard let set = current else { return .failure(errorLine("no entity loaded")) }
    switch arg {
    case "": break
    case "default": columns[set.name] = nil
    case "*": columns[set.name] = set.attributes.map(\.name).filter { !$0.contains(".") }
    default:
      let list = arg.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      guard !list.isEmpty else { return .failure(errorLine("usage: .columns KEY, ... | default | *")) }
      columns[set.name] = list
    }
    return .ok("columns: " + columns(for: set).joined(separator: ", ") + "\n")
  }

  func setArguments(_ arg: String) -> REPLResponse {
    if arg.isEmpty { return listArguments() }
    if arg.lowercased() == "clear" || arg.lowercased() == "none" {
      arguments = []
      return .ok("arguments: none\n")
    }
    do {
      guard case .array(let values) = try SiftJSON.parse("[" + arg + "]") else {
        return .failure(errorLine("bad arguments"))
      }
      arguments = values
      return listArguments()
    } catch {
      return .failure(
        errorLine("arguments are JSON values separated by commas, e.g. .args \"tipCount\", 100 (\(error))"))
    }
  }

  func listArguments() -> REPLResponse {
    if arguments.isEmpty { return .ok("arguments: none (set with .args JSON, ...)\n") }
    let pairs = arguments.enumerated().map { ("%\($0.offset + 1)", SiftJSON.serialize($0.element)) }
    return .ok("arguments:\n" + TableRenderer(style: style).renderPairs(pairs))
  }

  func setVariable(_ arg: String) -> REPLResponse {
    var text = arg
    if text.hasPrefix("$") { text.removeFirst() }
    let name = String(text.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    var rest = text.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
    if rest.hasPrefix("=") { rest = rest.dropFirst().trimmingCharacters(in: .whitespaces) }
    guard !name.isEmpty, !rest.isEmpty, name.first?.isNumber == false else {
      return .failure(errorLine("usage: .let NAME = JSON   e.g. .let CITY = \"Tokyo\""))
    }
    do {
      variables[name] = try SiftJSON.parse(rest)
      return .ok("$\(name) = \(SiftJSON.serialize(variables[name] ?? .null))\n")
    } catch {
      return .failure(errorLine("the value of $\(name) must be JSON (strings in double quotes): \(error)"))
    }
  }

  func unsetVariable(_ arg: String) -> REPLResponse {
    let name = arg.hasPrefix("$") ? String(arg.dropFirst()) : arg
    guard variables.removeValue(forKey: name) != nil else { return .failure(errorLine("no variable $\(name)")) }
    return .ok("removed $\(name)\n")
  }

  func listVariables() -> REPLResponse {
    if variables.isEmpty { return .ok("variables: none (set with .let NAME = JSON)\n") }
    let pairs = variables.keys.sorted().map { ("$" + $0, SiftJSON.serialize(variables[$0] ?? .null)) }
    return .ok("variables:\n" + TableRenderer(style: style).renderPairs(pairs))
  }

  func setEngine(_ arg: String) -> REPLResponse {
    if arg.isEmpty { return .ok("engine: \(engine.rawValue)\n") }
    guard let kind = REPLEngineKind(rawValue: arg.lowercased()) else {
      return .failure(errorLine("engine must be memory, sqlite or postgres"))
    }
    if let problem = sqlAvailability(kind) { return .failure(errorLine(problem)) }
    if let set = current {
      do {
        try ensureInSQL(set, kind)
      } catch {
        return .failure(errorLine("\(error)"))
      }
    }
    engine = kind
    if kind != .memory { dialect = kind == .postgres ? .postgres : .sqlite }
    return .ok("engine: \(kind.rawValue)\n")
  }

  func setDialect(_ arg: String) -> REPLResponse {
    if arg.isEmpty { return .ok("dialect: \(dialect.rawValue)\n") }
    guard let d = REPLDialect(rawValue: arg.lowercased()) else {
      return .failure(errorLine("dialect must be sqlite or postgres"))
    }
    dialect = d
    return .ok("dialect: \(d.rawValue)\n")
  }

  func status() -> REPLResponse {
    var pairs: [(String, String)] = [
      ("entity", entity.isEmpty ? "none" : "\(entity) (\(current?.count ?? 0) records)"),
      ("engine", engine.rawValue),
      ("dialect", dialect.rawValue),
      ("sqlite", sqlStatusLine(.sqlite)),
      ("postgres", sqlStatusLine(.postgres)),
      ("sort", sort.isEmpty ? "none" : sort.map(\.description).joined(separator: ", ")),
      ("limit", limit.map(String.init) ?? "none"),
      ("offset", String(offset)),
      ("rows", String(displayRows)),
      ("arguments", arguments.isEmpty ? "none" : arguments.map(SiftJSON.serialize).joined(separator: ", ")),
      ("variables", variables.isEmpty ? "none" : variables.keys.sorted().map { "$" + $0 }.joined(separator: ", ")),
      ("last", lastPredicate ?? "none"),
    ]
    if let db = sql.existing, databaseEntity != nil {
      // A table of the open database: its own engine and dialect.
      pairs[0].1 = "\(entity) (table in \(db.label))"
      pairs[1].1 = "\(db.label) (\(sql.writable ? "read-only; edits under .watch are written" : "read-only"))"
      pairs[2].1 = db.kind.rawValue
    }
    return .ok(TableRenderer(style: style).renderPairs(pairs))
  }

  func showHistory(_ arg: String) -> REPLResponse {
    let n = Int(arg) ?? 20
    guard n >= 0 else { return .failure(errorLine("usage: .history [N]")) }
    let items = history.suffix(n)
    let first = history.count - items.count
    let lines = items.enumerated().map { i, line in
      TextWidth.pad(String(first + i + 1), to: 5, alignRight: true) + "  "
        + line.replacingOccurrences(of: "\n", with: "\n       ")
    }
    return .ok(lines.isEmpty ? "history is empty\n" : lines.joined(separator: "\n") + "\n")
  }

  func help(_ arg: String) -> REPLResponse {
    if !arg.isEmpty {
      let name = arg.drop { REPLCommand.prefixes.contains($0) }
      guard let spec = REPLCommandSpec.lookup(String(name)) else {
        var text = "no command '\(arg)'"
        if let s = REPLCommandSpec.suggestion(for: String(name)) { text += "; did you mean '.\(s)'?" }
        return .failure(errorLine(text))
      }
      var out = ".\(spec.name) \(spec.usage)".trimmingCharacters(in: .whitespaces) + "\n  \(spec.summary)\n"
      if !spec.aliases.isEmpty { out += "  aliases: " + spec.aliases.map { "." + $0 }.joined(separator: ", ") + "\n" }
      return .ok(out)
    }
    var out = "Type a predicate to run it against the current entity, e.g.\n"
    out += "  distance < 5 AND ANY tags == 'wifi'\n  name BEGINSWITH[c] %@      (after .args \"red\")\n"
    out += "  location.city == $CITY     (after .let CITY = \"Tokyo\")\n"
    out +=
      "Commands start with '.' ('\\' and ':' work too). Open ( { [ or quotes continue the input on the next line.\n"
    var group = ""
    for spec in REPLCommandSpec.all {
      if spec.group != group {
        group = spec.group
        out += "\n" + style.bold(group) + "\n"
      }
      let usage = ".\(spec.name) \(spec.usage)".trimmingCharacters(in: .whitespaces)
      out += "  " + TextWidth.pad(usage, to: 44) + " " + spec.summary + "\n"
    }
    out += "\nKeys: ←/→ Home/End, Ctrl-A/E/K/U/W, ↑/↓ history, Ctrl-R search, Ctrl-C cancel, Ctrl-D quit.\n"
    return .ok(out)
  }
}
