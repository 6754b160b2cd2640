// swift-tools-version:6.0
// Sift: Apple's NSPredicate format-string language on every platform Swift runs on.
// No package dependencies: only the toolchain and system C libraries (libsqlite3, libpq, libmariadb).
import PackageDescription

let package = Package(
  name: "Sift",
  products: [
    .library(name: "SiftSyntax", targets: ["SiftSyntax"]),
    .library(name: "SiftEvaluation", targets: ["SiftEvaluation"]),
    .library(name: "SiftSQL", targets: ["SiftSQL"]),
    .library(name: "SiftSQLite", targets: ["SiftSQLite"]),
    .library(name: "SiftPostgres", targets: ["SiftPostgres"]),
    .library(name: "SiftMySQL", targets: ["SiftMySQL"]),
    .library(name: "SiftCoreData", targets: ["SiftCoreData"]),
    .library(name: "SiftLive", targets: ["SiftLive"]),
    .library(name: "SiftLiveSQLite", targets: ["SiftLiveSQLite"]),
    .library(name: "SiftLivePostgres", targets: ["SiftLivePostgres"]),
    .library(name: "SiftColumnar", targets: ["SiftColumnar"]),
    .executable(name: "sift", targets: ["sift"]),
    .executable(name: "sift-bench", targets: ["sift-bench"]),
  ],
  targets: [
    // Pipeline stages. Arrows point one way: Semantics ← Syntax ← Evaluation; Syntax ← SQL ← SQLite/Postgres.
    // SiftSemantics: the runtime rules every engine shares, below the syntax tree (values, operators,
    // text rules, MATCHES, numbers, JSON); SiftSyntax re-exports it.
    .target(name: "SiftSemantics"),
    .target(name: "SiftSyntax", dependencies: ["SiftSemantics"]),
    .target(name: "SiftEvaluation", dependencies: ["SiftSyntax"]),
    .target(name: "SiftSQL", dependencies: ["SiftSyntax"]),
    // Columnar data sets: JSON records as typed columns, predicates as kernels over them.
    .target(name: "SiftColumnar", dependencies: ["SiftSyntax", "SiftEvaluation"]),
    .target(name: "SiftSQLite", dependencies: ["SiftSyntax", "SiftSQL", "CSQLite"]),
    .target(name: "SiftPostgres", dependencies: ["SiftSyntax", "SiftSQL", "CLibPQ"]),
    // MySQL and MariaDB through the MariaDB Connector/C.
    .target(name: "SiftMySQL", dependencies: ["SiftSyntax", "SiftSQL", "CMariaDB"]),
    // Core Data: .xcdatamodeld models (FoundationXML) and their SQLite store layout as an SQLSchema.
    .target(name: "SiftCoreData", dependencies: ["SiftSyntax", "SiftSQL", "SiftEvaluation"]),
    // Live results (NSFetchedResultsController): change sets over fetched results kept current.
    .target(name: "SiftLive", dependencies: ["SiftSyntax", "SiftEvaluation"]),
    .target(
      name: "SiftLiveSQLite", dependencies: ["SiftLive", "SiftSyntax", "SiftEvaluation", "SiftSQL", "SiftSQLite"]),
    .target(
      name: "SiftLivePostgres",
      dependencies: ["SiftLive", "SiftSyntax", "SiftEvaluation", "SiftSQL", "SiftPostgres"]),
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .systemLibrary(
      name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
    .systemLibrary(
      name: "CMariaDB", path: "Sources/CMariaDB", pkgConfig: "libmariadb",
      providers: [.apt(["libmariadb-dev"]), .brew(["mariadb-connector-c"])]),

    // The command-line tool: a library (testable) plus a thin executable.
    .target(
      name: "SiftCLI",
      dependencies: [
        "SiftSyntax", "SiftEvaluation", "SiftSQL", "SiftSQLite", "SiftPostgres", "SiftMySQL", "SiftCoreData",
        "SiftLive", "SiftLiveSQLite", "SiftLivePostgres", "SiftColumnar",
      ],
      resources: [.copy("Resources")]),
    .executableTarget(name: "sift", dependencies: ["SiftCLI"]),
    .executableTarget(
      name: "sift-bench",
      dependencies: [
        "SiftSyntax", "SiftEvaluation", "SiftSQL", "SiftSQLite", "SiftPostgres", "SiftMySQL", "SiftLive",
        "SiftLiveSQLite", "SiftLivePostgres", "CSQLite", "SiftCLI", "SiftColumnar",
      ],
      // The committed ratios `sift-bench --check` compares against (read from the path given).
      exclude: ["baselines.json"]),

    // What every test target shares: expectSiftError(id:stage:at:), the contract's assertion.
    .target(name: "SiftTestSupport", dependencies: ["SiftSyntax"], path: "Tests/SiftTestSupport"),
    .testTarget(name: "SiftSyntaxTests", dependencies: ["SiftSemantics", "SiftSyntax", "SiftTestSupport"]),
    .testTarget(name: "SiftEvaluationTests", dependencies: ["SiftSyntax", "SiftEvaluation", "SiftTestSupport"]),
    .testTarget(
      name: "SiftColumnarTests", dependencies: ["SiftSyntax", "SiftEvaluation", "SiftColumnar", "SiftTestSupport"]),
    .testTarget(
      name: "SiftSQLTests",
      dependencies: [
        "SiftSyntax", "SiftSQL", "SiftSQLite", "SiftPostgres", "SiftMySQL", "SiftEvaluation", "SiftTestSupport",
      ]),
    .testTarget(
      name: "SiftMySQLTests", dependencies: ["SiftMySQL", "SiftSyntax", "SiftSQL", "SiftTestSupport"]),
    .testTarget(
      name: "SiftLiveTests",
      dependencies: [
        "SiftLive", "SiftLiveSQLite", "SiftSyntax", "SiftEvaluation", "SiftSQL", "SiftSQLite", "SiftTestSupport",
      ]),
    .testTarget(
      name: "SiftLivePostgresTests",
      dependencies: [
        "SiftLivePostgres", "SiftLive", "SiftSyntax", "SiftEvaluation", "SiftSQL", "SiftPostgres", "SiftTestSupport",
      ]),
    .testTarget(
      name: "SiftCoreDataTests",
      dependencies: ["SiftCoreData", "SiftSyntax", "SiftSQL", "SiftSQLite", "SiftEvaluation", "SiftTestSupport"]),
    .testTarget(
      name: "SiftCLITests",
      dependencies: [
        "SiftCLI", "SiftSyntax", "SiftEvaluation", "SiftSQL", "SiftSQLite", "SiftPostgres", "SiftMySQL",
        "SiftCoreData", "SiftColumnar", "SiftTestSupport",
      ],
      exclude: ["Transcripts"]),

    // Fuzzing oracles (Fuzz/Oracles, shared with the Fuzz/ package; not a product) and the
    // test target that replays every input that ever failed (Fuzz/Regressions).
    .target(
      name: "SiftFuzzOracles",
      dependencies: [
        "SiftSyntax", "SiftEvaluation", "SiftSQL", "SiftSQLite", "SiftColumnar", "SiftLive", "SiftLiveSQLite",
      ],
      path: "Fuzz/Oracles"),
    .testTarget(
      name: "SiftFuzzRegressionTests",
      dependencies: ["SiftFuzzOracles", "SiftSyntax", "SiftEvaluation", "SiftSQL", "SiftSQLite", "SiftColumnar"]),
  ],
  swiftLanguageModes: [.v6]
)
