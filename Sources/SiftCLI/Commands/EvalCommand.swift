import Foundation
import SiftEvaluation
import SiftSyntax

/// `sift eval 'FORMAT' --data FILE.json [--arg JSON]... [--var NAME=JSON]... [--dates FORMAT]... [--count] [--lenient]`:
/// prints the matching records as JSON lines (or their number with `--count`).
enum EvalCommand: SiftSubcommand {
  static let name = "eval"
  static let options = CommandOptions(
    valued: ["--data", "--arg", "--var", "--dates"],
    switches: ["--count", "--lenient"])
  static var help: String { HelpCommand.pages[name] ?? "" }

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: "eval")
    }
    guard parsed.positionals.count == 1, let format = parsed.positionals.first else {
      return CLIOutput.usageError("eval takes exactly one format string", command: "eval")
    }
    guard let dataPath = parsed.value("--data") else {
      return CLIOutput.usageError("eval needs --data FILE.json", command: "eval")
    }
    let data: CommandInputs.DataSet
    let arguments: [SiftValue]
    let variables: [String: SiftValue]
    do {
      arguments = try CommandInputs.arguments(parsed.all("--arg"))
      variables = try CommandInputs.variables(parsed.all("--var"))
      let dates = try CommandInputs.dates(parsed.all("--dates"))
      if parsed.flags.contains("--count"),
        let n = streamedCount(
          format, arguments, variables, dataPath, dates, lenient: parsed.flags.contains("--lenient"))
      {
        print(n)
        return .success
      }
      data = try CommandInputs.data(dataPath, dates: dates)
    } catch {
      return CLIOutput.failed("eval", error)
    }
    do {
      let predicate = try SiftPredicate(format: format, arguments: arguments)
      for w in predicate.warnings { CLIOutput.error(SiftDiagnosticRenderer().render(w, in: format)) }
      let options = EvaluationOptions(policy: parsed.flags.contains("--lenient") ? .treatAsNoMatch : .strict)
      let matcher = try predicate.compile(options)
      let indices = try data.matchingIndices(matcher, variables: variables)
      if parsed.flags.contains("--count") {
        print(indices.count)
      } else {
        var out = ""
        for i in indices {
          out += SiftJSON.serialize(data.value(at: i))
          out += "\n"
          if out.utf8.count > 1 << 16 {
            FileHandle.standardOutput.write(Data(out.utf8))
            out = ""
          }
        }
        FileHandle.standardOutput.write(Data(out.utf8))
      }
      return .success
    } catch {
      CLIOutput.error(CLIOutput.render(error))
      return .failure
    }
  }

  /// `--count` over JSON Lines or a JSON array read a part at a time (`ColumnarInput.streamedCount`), so
  /// memory stays bounded; nil when the file or the predicate needs the whole file read
  /// (`CommandInputs.data`, which also reports every error and warning).
  static func streamedCount(
    _ format: String, _ arguments: [SiftValue], _ variables: [String: SiftValue], _ path: String,
    _ dates: SiftJSONDates, lenient: Bool
  ) -> Int? {
    guard let predicate = try? SiftPredicate(format: format, arguments: arguments), predicate.warnings.isEmpty,
      let matcher = try? predicate.compile(EvaluationOptions(policy: lenient ? .treatAsNoMatch : .strict))
    else { return nil }
    return ColumnarInput.streamedCount(path, dates: dates, matcher: matcher, variables: variables)
  }
}
