// swift-tools-version: 6.1
import PackageDescription

// MotionFusion's benchmarks: a separate package, so the measured code is called across a module
// boundary exactly as an application calls it (the generic types are fast only through @inlinable).
//
// Run from this folder:
//     swift package --allow-writing-to-package-directory benchmark
let package = Package(
    name: "MotionFusionBenchmarks",
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "MotionFusion", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "RotationBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MotionFusion", package: "MotionFusion"),
            ],
            path: "Benchmarks/RotationBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "FilterBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MotionFusion", package: "MotionFusion"),
            ],
            path: "Benchmarks/FilterBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
