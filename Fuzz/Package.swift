// swift-tools-version:6.0
// libFuzzer targets for Sift, one executable per oracle. Build (see README.md and ./run):
//   swift build -c release --sanitize=fuzzer --sanitize=address --scratch-path .build-fuzz
// The oracle sources in Oracles/ are the root package's `SiftFuzzOracles` target too, so the
// fuzzers and `swift test` (SiftFuzzRegressionTests) run the same code.
import PackageDescription

let targets = ["parse", "evaluate", "sql", "differential", "native", "load", "write", "regex"]

let package = Package(
  name: "SiftFuzz",
  dependencies: [.package(name: "Sift", path: "..")],
  targets: [
    .target(
      name: "FuzzOracles",
      dependencies: [
        .product(name: "SiftSyntax", package: "Sift"),
        .product(name: "SiftEvaluation", package: "Sift"),
        .product(name: "SiftColumnar", package: "Sift"),
        .product(name: "SiftSQL", package: "Sift"),
        .product(name: "SiftSQLite", package: "Sift"),
        .product(name: "SiftLive", package: "Sift"),
        .product(name: "SiftLiveSQLite", package: "Sift"),
      ],
      path: "Oracles")
  ]
    + targets.map { name in
      .executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzOracles"], path: "Sources/fuzz-\(name)")
    },
  swiftLanguageModes: [.v6]
)
