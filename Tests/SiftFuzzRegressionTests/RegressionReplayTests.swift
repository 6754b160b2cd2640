import Foundation
import SiftFuzzOracles
import Testing

/// One saved input: `Fuzz/Regressions/<target>/<file>`.
struct RegressionFile: CustomTestStringConvertible, Sendable {
  var target: FuzzTarget
  var url: URL
  var testDescription: String { "\(target.rawValue)/\(url.lastPathComponent)" }

  /// `Fuzz/Regressions` in this checkout.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/Regressions")

  /// Every saved input of every target, sorted by path (README.md files excluded).
  static let all: [RegressionFile] = FuzzTarget.allCases.flatMap { target -> [RegressionFile] in
    let dir = root.appendingPathComponent(target.rawValue)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
    return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted()
      .map { RegressionFile(target: target, url: dir.appendingPathComponent($0)) }
  }
}

/// Replays every input that ever made a fuzzer fail through the same oracle, so a fixed bug
/// stays fixed: `swift test --filter SiftFuzzRegressionTests`.
@Suite("Fuzz regressions")
struct RegressionReplayTests {
  @Test(arguments: RegressionFile.all)
  func replays(_ file: RegressionFile) throws {
    let bytes = try [UInt8](Data(contentsOf: file.url))
    let failure = file.target.check(bytes)
    #expect(failure == nil, "\(failure?.description ?? "")")
  }

  @Test func everyTargetHasAFolder() {
    for target in FuzzTarget.allCases {
      var isDirectory: ObjCBool = false
      let path = RegressionFile.root.appendingPathComponent(target.rawValue).path
      #expect(
        FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue, "\(path)")
    }
  }
}
