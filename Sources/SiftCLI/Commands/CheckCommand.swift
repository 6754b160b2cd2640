import Foundation
import SiftSyntax

/// `sift check 'FORMAT' --policy POLICY.json [--arg JSON]... [--var NAME=JSON]...`: checks a
/// client's predicate against a query policy and prints the effective predicate (the policy's
/// `require` ANDed around it; `--var` supplies `require`'s variables, the others stay `$NAME`),
/// or the refusal with a caret under the spot and exit status 1.
enum CheckCommand: SiftSubcommand {
  static let name = "check"
  static let options = CommandOptions(
    valued: ["--policy", "--arg", "--var"],
    switches: [])

  static let help = """
    sift check 'FORMAT' --policy POLICY.json [--arg JSON]... [--var NAME=JSON]...

    Checks a predicate written by a client that is not trusted against a query policy
    (allowed keys, denied operators and constructs, size limits; see README.md, "Filters from
    untrusted clients") and prints the effective predicate: the policy's "require" ANDed
    around the client's. --var NAME=JSON supplies require's $VARIABLES (others are shown as
    written). A refusal prints its diagnostic (id such as key-not-allowed, operator-not-allowed,
    too-many-nodes) with a caret under the client's text and exits 1.

      --policy FILE  the policy JSON: {"keys": […], "sortKeys": […], "deny": […],
                     "require": "owner_id == $USER", "limits": {"nodes": 200, …}}
      --arg JSON     an argument for the next format specifier, as for 'sift parse'
      --var NAME=JSON  a value for one of require's $VARIABLES

    EXAMPLES
      sift check "title BEGINSWITH 'a'" --policy policy.json --var USER=7
      sift check "%K BEGINSWITH 'a'" --arg '"author.password_hash"' --policy policy.json
    """

  static func run(_ args: [String]) -> ExitStatus {
    let parsed: CLIArguments
    do {
      parsed = try CLIArguments(args, options)
    } catch {
      return CLIOutput.usageError(error.message, command: "check")
    }
    guard parsed.positionals.count == 1, let format = parsed.positionals.first else {
      return CLIOutput.usageError("check takes exactly one format string", command: "check")
    }
    guard let path = parsed.value("--policy") else {
      return CLIOutput.usageError("check needs --policy POLICY.json", command: "check")
    }
    var arguments: [SiftValue] = []
    for text in parsed.all("--arg") {
      do { arguments.append(try SiftJSON.parse(text)) } catch {
        return CLIOutput.usageError("--arg \(text) is not valid JSON: \(error)", command: "check")
      }
    }
    let policy: SiftQueryPolicy
    let variables: [String: SiftValue]
    do {
      policy = try CommandInputs.policy(path)
      variables = try CommandInputs.variables(parsed.all("--var"))
    } catch {
      return CLIOutput.failed("check", error)
    }
    do {
      let client = try SiftPredicate(format: format, arguments: arguments)
      print(try policy.applying(to: client, variables: variables, allowingMissing: true).predicateFormat)
      return .success
    } catch {
      CLIOutput.error(CLIOutput.render(error))
      return .failure
    }
  }
}

extension CommandInputs {
  /// Reads a query policy file (`SiftQueryPolicy(json:)`).
  static func policy(_ path: String) throws -> SiftQueryPolicy {
    let text = try CommandInputs.text(path)
    do {
      return try SiftQueryPolicy(json: text)
    } catch {
      let where_ = error.source.isEmpty ? "" : " (require: \(error.source))"
      throw Failure(description: "\(path): \(error.diagnostic.message)\(where_)")
    }
  }
}
