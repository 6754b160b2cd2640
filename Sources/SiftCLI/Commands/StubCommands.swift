import Foundation

enum BatchCommand { static func run(_ args: [String]) -> Int32 { CLIOutput.error("sift batch: not implemented yet"); return 1 } }
enum EvalCommand { static func run(_ args: [String]) -> Int32 { CLIOutput.error("sift eval: not implemented yet"); return 1 } }
enum SQLCommand { static func run(_ args: [String]) -> Int32 { CLIOutput.error("sift sql: not implemented yet"); return 1 } }
enum HelpCommand { static func run(_ args: [String]) -> Int32 { print("usage: sift [repl|parse|eval|sql|batch|help]"); return 0 } }
