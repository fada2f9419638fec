// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "MotionFusion",
    products: [
        // Everything, re-exported: `import MotionFusion`.
        .library(name: "MotionFusion", targets: ["MotionFusion"]),
        // The layers, for clients that want less (MotionFusionCore builds with Embedded Swift).
        .library(name: "MotionFusionCore", targets: ["MotionFusionCore"]),
        .library(name: "MotionFusionEstimation", targets: ["MotionFusionEstimation"]),
        .library(name: "MotionFusionIO", targets: ["MotionFusionIO"]),
        .library(name: "MotionFusionDevices", targets: ["MotionFusionDevices"]),
        .library(name: "MotionFusionSimulation", targets: ["MotionFusionSimulation"]),
        // Core Motion's names (CMMotionManager, CMDeviceMotion, …) over MotionFusion, kept out of the
        // main module so that it never clashes with the real Core Motion on Apple platforms.
        .library(name: "CoreMotionCompatibility", targets: ["CoreMotionCompatibility"]),
        .executable(name: "motion", targets: ["MotionCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // The system LAPACKE on Linux; Apple platforms use Accelerate's LAPACK instead. Seen only by
        // MotionFusionEstimation, imported with `internal import`, never exposed.
        .systemLibrary(
            name: "CLAPACK",
            pkgConfig: "lapacke",
            providers: [.apt(["liblapacke-dev", "libblas-dev"])]
        ),
        // The system zlib, through which MotionFusionIO reads gzip-compressed recordings. Seen only by
        // MotionFusionIO, imported with `internal import`, never exposed.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // Header-only vector square roots for the many-stream engine (the standard library has none).
        .target(name: "CVectorMath"),
        // The layers: Core ← IO ← Devices, Core ← Estimation, Core ← Simulation, all ← MotionFusion;
        // the target graph enforces them. Data flows one way, sources → calibration → filter →
        // device motion → events / recorder: across the layers by this graph, inside Core (a folder
        // per stage) by review.
        // Rotations, filters, FusionStream, device-motion math, events, the World Magnetic Model, the
        // in-memory recording and the unit types: no Foundation, no system library, no allocation
        // per sample; builds with Embedded Swift.
        .target(
            name: "MotionFusionCore",
            dependencies: [.product(name: "RealModule", package: "swift-numerics"), "CVectorMath"]
        ),
        // CSV reading and writing, recordings, the recorder, output files that never lose data.
        .target(
            name: "MotionFusionIO",
            dependencies: ["MotionFusionCore", "CZlib", .product(name: "RealModule", package: "swift-numerics")]
        ),
        // Wahba, quaternion averages, batch rotation and the calibrators: the LAPACK-backed parts.
        .target(
            name: "MotionFusionEstimation",
            dependencies: [
                "MotionFusionCore",
                .target(name: "CLAPACK", condition: .when(platforms: [.linux, .android, .openbsd])),
            ],
            linkerSettings: [
                .linkedFramework(
                    "Accelerate", .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst])),
            ]
        ),
        // Sensor sources (IIO, recordings) and the motion manager.
        .target(name: "MotionFusionDevices", dependencies: ["MotionFusionCore", "MotionFusionIO"]),
        // Synthetic motion with known truth.
        .target(name: "MotionFusionSimulation", dependencies: ["MotionFusionCore"]),
        .target(
            name: "MotionFusion",
            dependencies: [
                "MotionFusionCore", "MotionFusionEstimation", "MotionFusionIO", "MotionFusionDevices",
                "MotionFusionSimulation",
            ]
        ),
        .target(name: "CoreMotionCompatibility", dependencies: ["MotionFusion"]),
        // The C-style exports of the WebAssembly build (scripts/web compiles the same files with
        // Embedded Swift); built here too, so that the host runs exactly what the browser runs.
        .target(name: "MotionFusionWeb", dependencies: ["MotionFusionCore", "MotionFusionIO"], exclude: ["README.md", "Page"]),
        .executableTarget(
            name: "MotionCLI",
            dependencies: [
                "MotionFusion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "RealModule", package: "swift-numerics"),
            ]
        ),
        // What the tests and the long runs share (a source gated until the test opens it).
        .target(
            name: "MotionFusionTestSupport", dependencies: ["MotionFusionCore", "MotionFusionDevices"],
            path: "Tests/Support"),
        // Long runs of the filters and the motion manager (scripts/long-run); not a unit test.
        .executableTarget(
            name: "LongRun",
            dependencies: [
                "MotionFusion",
                "MotionFusionTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            path: "Tests/LongRun"
        ),
        .testTarget(
            name: "MotionFusionTests",
            dependencies: [
                "MotionFusion",
                "MotionFusionTestSupport",
                "MotionCLI",
                "MotionFusionWeb",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Core Motion code as Apple documents it, built against CoreMotionCompatibility.
        .testTarget(
            name: "CoreMotionCompatibilityTests", dependencies: ["CoreMotionCompatibility", "MotionFusionTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzz targets (libFuzzer), only when MOTIONFUSION_FUZZ is set: scripts/fuzz builds them with
// `-sanitize=fuzzer,address -parse-as-library` (libFuzzer supplies `main`) and runs each one.
if Context.environment["MOTIONFUSION_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzDriver", path: "Tests/Fuzz/FuzzDriver"))
    for name in ["FuzzCSV", "FuzzIIO", "FuzzFilters", "FuzzFiles", "FuzzSettings"] {
        package.targets.append(
            .executableTarget(name: name, dependencies: ["MotionFusion", "FuzzDriver"], path: "Tests/Fuzz/\(name)"))
    }
}

// The thread sanitizer's build (scripts/tsan sets MOTIONFUSION_TSAN): the Core Motion tests and the
// motion manager's and the pedometer's tests that it runs, with what they use (the library, and `motion`, which one of
// them runs), not the other test files and the long runs, which it would otherwise compile with the
// sanitizer and never run.
if Context.environment["MOTIONFUSION_TSAN"] != nil {
    package.targets.removeAll { $0.name == "LongRun" }
    for target in package.targets where target.name == "MotionFusionTests" {
        target.sources = [
            "MotionManagerTests.swift", "MotionManagerStressTests.swift", "FakeSysfs.swift",
            "PedometerTests.swift", "SyntheticWalk.swift", "TestRandom.swift", "ArticleSnippet.swift", "Eventually.swift",
        ]
    }
}

// The suite's one optimized build (scripts/test sets MOTIONFUSION_TESTABLE_RELEASE): release
// modules compiled for testing as well, so that one `swift build -c release --build-tests` gives the
// tests (which import the modules `@testable`), the `motion` that runs the documented commands and
// the long runs, instead of a release build for those and a debug build, five times slower to
// test, for the tests. `assert`s stay on (`-assert-config Debug`), as in the debug build. Scripts
// that time `motion` (scripts/compare_speed) build it without the variable first.
if Context.environment["MOTIONFUSION_TESTABLE_RELEASE"] != nil {
    for target in package.targets where target.type != .system && target.name != "CVectorMath" {
        target.swiftSettings =
            (target.swiftSettings ?? []) + [.unsafeFlags(["-enable-testing", "-assert-config", "Debug"], .when(configuration: .release))]
    }
    // The test module itself optimized for size: its -O compile was the build's longest step
    // (about 400 s of one core on an Intel Xeon: SIL optimization 234 s of a 485 s compile), -Osize
    // took 334 s, and the suite ran no slower (120 s against 149 s, one run each). -Onone compiled
    // in 162 s but made the tests three times slower (the filters' generic code unspecialized).
    for target in package.targets where target.name == "MotionFusionTests" {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Osize"], .when(configuration: .release))]
    }
}

// In every Swift target, another module's members (an extension's methods) are seen only in the
// files that import that module (SE-0444): each file's imports are what it uses, a missing one is an
// error, not something another file's import hides.
for target in package.targets where target.type != .system && target.name != "CVectorMath" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
