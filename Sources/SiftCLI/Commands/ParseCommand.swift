import Foundation
import SiftSyntax

/// `sift parse 'FORMAT' [--arg JSON]... [--json]`: prints the canonical form (or the AST as
/// JSON), or the rendered diagnostic and exit status 1.
enum ParseCommand: SiftSubcommand {
  static let name = "parse"
  static let options = CommandOptions(
    valued: ["--arg"],
    switches: ["--json"])
  static var help: String { HelpCommand.pages[name] ?? "" }

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: "parse")
    }
    guard parsed.positionals.count == 1, let format = parsed.positionals.first else {
      return CLIOutput.usageError("parse takes exactly one format string", command: "parse")
    }
    var arguments: [SiftValue] = []
    for text in parsed.all("--arg") {
      do { arguments.append(try SiftJSON.parse(text)) } catch {
        return CLIOutput.usageError("--arg \(text) is not valid JSON: \(error)", command: "parse")
      }
    }
    do {
      let p = try SiftPredicate(format: format, arguments: arguments)
      for w in p.warnings { CLIOutput.error(SiftDiagnosticRenderer().render(w, in: format)) }
      if parsed.flags.contains("--json") {
        print(SiftJSON.serialize(ASTJSON.encode(p.root)))
      } else {
        print(p.predicateFormat)
      }
      return .success
    } catch {
      CLIOutput.error(CLIOutput.render(error))
      return .failure
    }
  }
}
