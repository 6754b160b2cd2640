// swift-tools-version:6.0
// Sift: Apple's NSPredicate format-string language on every platform Swift runs on.
// No package dependencies: only the toolchain and system C libraries.
import PackageDescription

let package = Package(
  name: "Sift",
  products: [
    .library(name: "SiftSyntax", targets: ["SiftSyntax"]),
    .executable(name: "sift", targets: ["sift"]),
    .executable(name: "sift-bench", targets: ["sift-bench"]),
  ],
  targets: [
    .target(name: "SiftSyntax"),
    .executableTarget(name: "sift", dependencies: ["SiftSyntax"]),
    .executableTarget(name: "sift-bench", dependencies: ["SiftSyntax"]),
    .testTarget(
      name: "SiftSyntaxTests",
      dependencies: ["SiftSyntax"],
      resources: []
    ),
  ],
  swiftLanguageModes: [.v6]
)
