import Foundation
import SiftEvaluation
import SiftSyntax

/// `sift eval 'FORMAT' --data FILE.json [--arg JSON]... [--var NAME=JSON]... [--dates FORMAT]... [--count] [--lenient]`:
/// prints the matching records as JSON lines (or their number with `--count`).
enum EvalCommand {
  static func run(_ args: [String]) -> Int32 {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, valued: ["--data", "--arg", "--var", "--dates"], switches: ["--count", "--lenient"])
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
      data = try CommandInputs.data(dataPath, dates: CommandInputs.dates(parsed.all("--dates")))
    } catch {
      CLIOutput.error("sift eval: \(error)")
      return error.description.hasPrefix("--") ? 2 : 1
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
          out += SiftJSON.serialize(data.values[i])
          out += "\n"
          if out.utf8.count > 1 << 16 {
            FileHandle.standardOutput.write(Data(out.utf8))
            out = ""
          }
        }
        FileHandle.standardOutput.write(Data(out.utf8))
      }
      return 0
    } catch {
      CLIOutput.error(CLIOutput.render(error))
      return 1
    }
  }
}
