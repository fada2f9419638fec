// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "MotionFusion",
    products: [
        .library(name: "MotionFusion", targets: ["MotionFusion"]),
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
        // The only place that sees BLAS/LAPACK. Imported with `internal import`, never exposed.
        .systemLibrary(
            name: "CLAPACK",
            pkgConfig: "lapacke",
            providers: [.apt(["liblapacke-dev", "libblas-dev"])]
        ),
        // Header-only vector square roots for the many-stream engine (the standard library has none).
        .target(name: "CVectorMath"),
        .target(
            name: "MotionFusion",
            dependencies: [
                .product(name: "RealModule", package: "swift-numerics"),
                "CLAPACK",
                "CVectorMath",
            ]
        ),
        .target(name: "CoreMotionCompatibility", dependencies: ["MotionFusion"]),
        .executableTarget(
            name: "MotionCLI",
            dependencies: [
                "MotionFusion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Long runs of the filters and the motion manager (scripts/long-run); not a unit test.
        .executableTarget(
            name: "LongRun",
            dependencies: [
                "MotionFusion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/LongRun"
        ),
        .testTarget(
            name: "MotionFusionTests",
            dependencies: [
                "MotionFusion",
                "MotionCLI",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Core Motion code as Apple documents it, built against CoreMotionCompatibility.
        .testTarget(name: "CoreMotionCompatibilityTests", dependencies: ["CoreMotionCompatibility"]),
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
