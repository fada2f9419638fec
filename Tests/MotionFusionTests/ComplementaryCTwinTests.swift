import Foundation
import Testing

@testable import MotionFusion

/// `scripts/complementary_step.c` is ``ComplementaryFilter``'s 6D step written in C, for
/// `scripts/compare_speed`: it shows how fast compiled C runs the same arithmetic on one stream. This
/// test keeps the twin honest. Built with `-O2` and run on a synthetic recording from the attitude
/// the Swift filter initialized itself to, it must end where the Swift filter ends. Its usual steps
/// and its other steps both run. The Swift toolchain ships clang, so a C compiler is always there.
struct ComplementaryCTwinTests {
    @Test func cTwinEndsWhereTheSwiftFilterEnds() throws {
        let compiler = try #require(Self.cCompiler(), "a C compiler (gcc, cc or the toolchain's clang)")
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("complementary-twin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var settings = SyntheticMotion.Settings()
        settings.duration = 600
        let recording = SyntheticMotion.generate(settings)
        let n = recording.count
        // Bursts the usual step does not take: 0.4 s of 15 m/s² sideways (tilt errors beyond 11.48°)
        // and 0.05 s of 12 rad/s (|ω|Δt/2 beyond 0.05) every 10 s.
        var gyroscope = recording.gyroscope, accelerometer = recording.accelerometer
        for i in 0..<n {
            if (500..<540).contains(i % 1000) { accelerometer[i].x += 15 }
            if (700..<705).contains(i % 1000) { gyroscope[i].x += 12 }
        }
        var dts = [Double](repeating: 0, count: n)
        for i in 1..<n { dts[i] = recording.timestamps[i] - recording.timestamps[i - 1] }

        // The Swift filters, sensor → NWU (the C twin's frame), Double and Float from one start.
        var double = ComplementaryFilter<Double>(settings: .init(frame: .nwu))
        double.update(
            gyroscope: gyroscope[0], accelerometer: accelerometer[0], magnetometer: nil, dt: 0)
        let start = double.nwuQuaternion
        var float = ComplementaryFilter<Float>(settings: .init(frame: .nwu))
        float.reset(to: Quaternion<Float>(
            w: Float(start.w), x: Float(start.x), y: Float(start.y), z: Float(start.z)))
        for i in 1..<n {
            double.update(
                gyroscope: gyroscope[i], accelerometer: accelerometer[i], magnetometer: nil,
                dt: dts[i])
            float.update(
                gyroscope: SIMD3<Float>(gyroscope[i]), accelerometer: SIMD3<Float>(accelerometer[i]),
                magnetometer: nil, dt: Float(dts[i]))
        }

        // SAMPLES.bin: int64 n, double τ_a, the start attitude (w x y z), n rows (dt, g, a).
        var bytes = Data()
        withUnsafeBytes(of: Int64(n).littleEndian) { bytes.append(contentsOf: $0) }
        var header: [Double] = [double.settings.accelerometerTimeConstant, start.w, start.x, start.y, start.z]
        for i in 0..<n {
            let g = gyroscope[i], a = accelerometer[i]
            header += [dts[i], g.x, g.y, g.z, a.x, a.y, a.z]
        }
        header.withUnsafeBytes { bytes.append(contentsOf: $0) }
        let samples = folder.appendingPathComponent("samples.bin")
        try bytes.write(to: samples)

        let binary = folder.appendingPathComponent("complementary_step").path
        let source = WMMData.root.appendingPathComponent("scripts/complementary_step.c").path
        let build = try Self.run(compiler, ["-O2", "-o", binary, source, "-lm"])
        #expect(build.status == 0, "building the C twin: \(build.output)")
        let result = try Self.run(binary, [samples.path, "1"])
        #expect(result.status == 0, "\(result.output)")

        var finals: [String: [Double]] = [:]
        var general: [String: Int] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            if parts.count == 6 && parts[0] == "final" { finals[parts[1]] = parts[2...].compactMap(Double.init) }
            if parts.count == 3 && parts[0] == "general" { general[parts[1]] = Int(parts[2]) }
        }
        let cDouble = try #require(finals["double"].flatMap { $0.count == 4 ? $0 : nil }, "\(result.output)")
        let cFloat = try #require(finals["float"].flatMap { $0.count == 4 ? $0 : nil }, "\(result.output)")
        let ours = double.nwuQuaternion, oursFloat = float.nwuQuaternion
        let doubleAngle = Self.angle(cDouble, [ours.w, ours.x, ours.y, ours.z])
        let floatAngle = Self.angle(
            cFloat, [Double(oursFloat.w), Double(oursFloat.x), Double(oursFloat.y), Double(oursFloat.z)])
        // Measured: 5.9e-16 rad (Double) and 2.4e-7 rad (Float) on this recording, 9.9e-15 rad (Double)
        // over BROAD trial 01 (scripts/compare_speed). The C twin computes the gain with expm1 where
        // Swift uses its series, and its other steps with libm; without the bursts, the two end on the
        // same bits in Double.
        #expect(doubleAngle < 1e-12, "C twin vs ComplementaryFilter<Double>: \(doubleAngle) rad")
        #expect(floatAngle < 1e-5, "C twin vs ComplementaryFilter<Float>: \(floatAngle) rad")
        // Both kinds of step ran: the usual one and the others (11,083 of 60,000 here, during and
        // after the bursts).
        for scalar in ["float", "double"] {
            let count = try #require(general[scalar], "\(result.output)")
            #expect(count > n / 100 && count < n / 2, "\(scalar): \(count) of \(n) steps were not the usual one")
        }
    }

    /// The angle (rad) between the rotations of two unit quaternions, accurate for tiny angles.
    static func angle(_ a: [Double], _ b: [Double]) -> Double {
        let dot = zip(a, b).map { $0 * $1 }.reduce(0, +)
        let c = dot < 0 ? b.map { -$0 } : b
        let difference = zip(a, c).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
        let sum = zip(a, c).map { ($0 + $1) * ($0 + $1) }.reduce(0, +).squareRoot()
        return 2 * Double.atan2(y: difference, x: sum)
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
