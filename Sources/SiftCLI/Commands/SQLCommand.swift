import Foundation
import SiftSyntax

/// `sift sql 'FORMAT' --schema S.json --entity E [--dialect sqlite|postgres] [--arg JSON]...`:
/// prints the SQL and its bindings.
enum SQLCommand {
  static func run(_ args: [String]) -> Int32 {
    CLIOutput.error("sift sql: not available yet")
    return 1
  }
}
