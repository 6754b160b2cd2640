// The `sift` executable: a thin shell over SiftCLI.
import Foundation
import SiftCLI

exit(SiftCommandLine.run(Array(CommandLine.arguments.dropFirst())))
