import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `scripts/complementary_step.c` is ``ComplementaryFilter``'s 6D step written in C, for
/// `scripts/compare_speed`: it shows how fast compiled C runs the same arithmetic on one stream. These
/// tests hold it to the Swift filter. It is built with `-O2 -ffp-contract=off` (no fused
/// multiply-adds on any platform) and run on a synthetic recording from the attitude the Swift
/// filter initialized itself to. Over usual steps only, it must give the same bits as the Swift
/// filter, Float and Double. With bursts that force the other steps (libm there), it must take them
/// on the same samples and end within a few ulps. Results cannot show that no operation was dropped
/// whose effect is below rounding (a series term past the precision, say); reading the two side by
/// side does. The Swift toolchain ships clang, so a C compiler is always there.
struct ComplementaryCTwinTests {
    /// What the C twin and the Swift filters did on one recording.
    struct Run {
        var cDouble: [Double], cFloat: [Double]
        var swiftDouble: [Double], swiftFloat: [Double]
        var cGeneral: [String: Int]
        var swiftGeneralDouble = 0, swiftGeneralFloat = 0
        var samples: Int
    }

    @Test func usualStepsGiveTheSameBits() throws {
        let recording = Self.recording()
        let run = try Self.run(gyroscope: recording.gyroscope, accelerometer: recording.accelerometer, dts: recording.dts)
        // No step leaves the usual path on this recording.
        #expect(run.cGeneral == ["float": 0, "double": 0])
        #expect(run.swiftGeneralDouble == 0 && run.swiftGeneralFloat == 0)
        #expect(run.cDouble == run.swiftDouble, "C \(run.cDouble) vs Swift \(run.swiftDouble)")
        #expect(run.cFloat == run.swiftFloat, "C \(run.cFloat) vs Swift \(run.swiftFloat)")
    }

    @Test func otherStepsRunOnTheSameSamples() throws {
        let recording = Self.recording()
        // Bursts the usual step does not take, every 10 s: 0.4 s of 15 m/s² sideways (tilt errors
        // beyond 11.48°) and 0.05 s of 12 rad/s (|ω|Δt/2 beyond 0.05).
        var gyroscope = recording.gyroscope, accelerometer = recording.accelerometer
        for i in gyroscope.indices {
            if (500..<540).contains(i % 1000) { accelerometer[i].x += 15 }
            if (700..<705).contains(i % 1000) { gyroscope[i].x += 12 }
        }
        let run = try Self.run(gyroscope: gyroscope, accelerometer: accelerometer, dts: recording.dts)
        // 11,083 of 60,000 steps take the other path (during and after the bursts), on the same
        // samples in C and in Swift.
        #expect(run.swiftGeneralDouble > run.samples / 100 && run.swiftGeneralDouble < run.samples / 2)
        #expect(run.cGeneral["double"] == run.swiftGeneralDouble)
        #expect(run.cGeneral["float"] == run.swiftGeneralFloat)
        // Measured: 1.2e-15 rad (Double) and 1.3e-6 rad (Float). The other steps use libm's sine and
        // cosine where Swift uses its series or its own rotation-vector code.
        let doubleAngle = Self.angle(run.cDouble, run.swiftDouble)
        let floatAngle = Self.angle(run.cFloat, run.swiftFloat)
        #expect(doubleAngle < 1e-12, "C twin vs ComplementaryFilter<Double>: \(doubleAngle) rad")
        #expect(floatAngle < 2e-6, "C twin vs ComplementaryFilter<Float>: \(floatAngle) rad")
    }

    /// The default synthetic recording (600 s at 100 Hz) and its steps.
    static func recording() -> (gyroscope: [SIMD3<Double>], accelerometer: [SIMD3<Double>], dts: [Double]) {
        var settings = SyntheticMotion.Settings()
        settings.duration = 600
        let recording = try! SyntheticMotion.generate(settings)
        var dts = [Double](repeating: 0, count: recording.count)
        for i in 1..<recording.count { dts[i] = recording.timestamps[i] - recording.timestamps[i - 1] }
        return (recording.gyroscope, recording.accelerometer, dts)
    }

    /// Runs the Swift filters (Double, and Float from the same start) and the C twin on the samples.
    static func run(gyroscope: [SIMD3<Double>], accelerometer: [SIMD3<Double>], dts: [Double]) throws -> Run {
        let n = gyroscope.count
        var double = ComplementaryFilter<Double>(settings: .init(frame: .nwu))
        double.update(gyroscope: gyroscope[0], accelerometer: accelerometer[0], magnetometer: nil, dt: 0)
        let start = double.nwuQuaternion
        var float = ComplementaryFilter<Float>(settings: .init(frame: .nwu))
        float.reset(to: Quaternion<Float>(w: Float(start.w), x: Float(start.x), y: Float(start.y), z: Float(start.z)))
        var generalDouble = 0, generalFloat = 0
        for i in 1..<n {
            let g = gyroscope[i], a = accelerometer[i]
            double.update(gyroscope: g, accelerometer: a, magnetometer: nil, dt: dts[i])
            if !Self.tookUsualStep(double, gyroscope: g, accelerometer: a, dt: dts[i]) { generalDouble += 1 }
            let gf = SIMD3<Float>(g), af = SIMD3<Float>(a), dtf = Float(dts[i])
            float.update(gyroscope: gf, accelerometer: af, magnetometer: nil, dt: dtf)
            if !Self.tookUsualStep(float, gyroscope: gf, accelerometer: af, dt: dtf) { generalFloat += 1 }
        }

        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("complementary-twin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // SAMPLES.bin: int64 n, double τ_a, the start attitude (w x y z), n rows (dt, g, a).
        var bytes = Data()
        withUnsafeBytes(of: Int64(n).littleEndian) { bytes.append(contentsOf: $0) }
        var values: [Double] = [double.settings.accelerometerTimeConstant, start.w, start.x, start.y, start.z]
        for i in 0..<n {
            let g = gyroscope[i], a = accelerometer[i]
            values += [dts[i], g.x, g.y, g.z, a.x, a.y, a.z]
        }
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        let samples = folder.appendingPathComponent("samples.bin")
        try bytes.write(to: samples)

        let compiler = try #require(Self.cCompiler(), "a C compiler (gcc, cc or the toolchain's clang)")
        let binary = folder.appendingPathComponent("complementary_step").path
        let source = WMMData.root.appendingPathComponent("scripts/complementary_step.c").path
        let build = try Self.run(compiler, ["-O2", "-ffp-contract=off", "-o", binary, source, "-lm"])
        try #require(build.status == 0, "building the C twin: \(build.output)")
        let result = try Self.run(binary, [samples.path, "1", "0"])
        try #require(result.status == 0, "\(result.output)")

        var finals: [String: [Double]] = [:]
        var general: [String: Int] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            if parts.count == 6 && parts[0] == "final" { finals[parts[1]] = parts[2...].compactMap(Double.init) }
            if parts.count == 3 && parts[0] == "general" { general[parts[1]] = Int(parts[2]) }
        }
        let cDouble = try #require(finals["double"].flatMap { $0.count == 4 ? $0 : nil }, "\(result.output)")
        let cFloat = try #require(finals["float"].flatMap { $0.count == 4 ? $0 : nil }, "\(result.output)")
        let d = double.nwuQuaternion, f = float.nwuQuaternion
        return Run(
            cDouble: cDouble, cFloat: cFloat, swiftDouble: [d.w, d.x, d.y, d.z],
            swiftFloat: [Double(f.w), Double(f.x), Double(f.y), Double(f.z)], cGeneral: general,
            swiftGeneralDouble: generalDouble, swiftGeneralFloat: generalFloat, samples: n)
    }

    /// Whether the step just taken was the usual one: the conditions of `fastTiltStep`, with cos θ as
    /// the step stored it (the other step stores it too, computed its own way, which could differ only
    /// within rounding of 0.98).
    static func tookUsualStep<S: FusionScalar>(
        _ filter: ComplementaryFilter<S>, gyroscope: SIMD3<S>, accelerometer: SIMD3<S>, dt: S
    ) -> Bool {
        let half = dt / 2
        let vx = gyroscope.x * half, vy = gyroscope.y * half, vz = gyroscope.z * half
        let t2 = (vx * vx + vy * vy) + vz * vz
        let an2 = (accelerometer.x * accelerometer.x + accelerometer.y * accelerometer.y)
            + accelerometer.z * accelerometer.z
        return t2 < 0.0025 && an2.isNormal && filter.lastTiltCosine >= 0.98
    }

    /// The angle (rad) between the rotations of two quaternions given as (w, x, y, z).
    static func angle(_ a: [Double], _ b: [Double]) -> Double {
        Quaternion(w: a[0], x: a[1], y: a[2], z: a[3]).angle(to: Quaternion(w: b[0], x: b[1], y: b[2], z: b[3]))
    }

    /// The first of gcc, cc and clang found on PATH.
    static func cCompiler() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["gcc", "cc", "clang"] {
            for folder in path.split(separator: ":") {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// Runs a program; its exit status and its standard output and error together.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.standardInput = FileHandle.nullDevice  // never the test runner's (a terminal would stop it)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
