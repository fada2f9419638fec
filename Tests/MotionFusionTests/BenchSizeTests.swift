import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `motion bench` refuses sizes that would not fit in memory and times that would not end, while
/// parsing, before anything is allocated or measured: the error names the option, the value and the
/// limit. (The old code accepted all of these; --streams 1000000000 aborted allocating 1.8 TB.)
@Suite("Bench sizes")
struct BenchSizeTests {
    /// The validation error's text, or nil when the arguments are accepted.
    static func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try BenchCommand.parse(arguments)
            return nil
        } catch {
            return BenchCommand.message(for: error)
        }
    }

    static func expectRefused(_ arguments: [String], mentioning parts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let message = refusal(arguments) else {
            Issue.record("\(arguments) was accepted", sourceLocation: sourceLocation)
            return
        }
        for part in parts { #expect(message.contains(part), "\(message)", sourceLocation: sourceLocation) }
    }

    @Test func aBillionStreamsIsRefusedWithTheBytes() {
        Self.expectRefused(
            ["--streams", "1000000000", "--filter", "madgwick"],
            mentioning: ["--streams 1000000000", "--block-steps 64", "needs 5.2 TB", "samples 5.13 TB", "filter states", "available"])
        // 10⁹ streams of 64 steps, 9D, in SIMD8<Double> (larger than SIMD16<Float>): 1.25 × 10⁸
        // groups × 64 steps × 10 channels × 64 bytes, and 1.25 × 10⁹ lengths of 8 bytes.
        let needed = try? BenchCommand.parse(["--streams", "20", "--filter", "madgwick"]).manyStreamBytes(count: 1_000_000_000)
        #expect(needed?.samples == Double(125_000_000 * 64 * 10 * 64 + 1_250_000_000 * 8))
        // The default filter's engine: the same samples, and larger states.
        let inertial = try? BenchCommand.parse([
            "--streams", "20", "--filter", "inertial", "--float-lanes", "16", "--double-lanes", "8",
        ]).manyStreamBytes(count: 1_000_000_000)
        #expect(inertial?.samples == needed?.samples)
        #expect((inertial?.states ?? 0) > (needed?.states ?? .infinity))
    }

    @Test func eachEngineGetsItsFastestLanesUnlessAsked() throws {
        // This build's widest vector registers: 16 bytes without CPU flags (SSE2, NEON), more only
        // when built for AVX or AVX-512.
        #expect([16, 32, 64].contains(VectorRegister.byteCount))
        #expect(VectorRegister.floatLanes == VectorRegister.byteCount / 4)
        #expect(VectorRegister.doubleLanes == VectorRegister.byteCount / 8)
        let bench = try BenchCommand.parse(["--streams", "20"])
        // Madgwick's engine: the widest lanes; the default filter's: one register per vector.
        #expect(bench.lanes(for: .madgwick) == (16, 8))
        #expect(bench.lanes(for: .inertial) == (VectorRegister.floatLanes, VectorRegister.doubleLanes))
        let asked = try BenchCommand.parse(["--streams", "20", "--float-lanes", "8", "--double-lanes", "2"])
        #expect(asked.lanes(for: .madgwick) == (8, 2))
        #expect(asked.lanes(for: .inertial) == (8, 2))
    }

    @Test(arguments: ["9223372036854775807", "1000000000000"])
    func absurdBlockStepsAreRefused(_ steps: String) {
        Self.expectRefused(["--block-steps", steps], mentioning: ["--streams 256", "--block-steps \(steps)", "available"])
    }

    @Test func manyTasksCopyTheStatesAndAreBounded() {
        Self.expectRefused(["--tasks", "1025"], mentioning: ["--tasks is 1025", "from 1 to 1024"])
        Self.expectRefused(["--tasks=-2"], mentioning: ["--tasks is -2"])
        // 10⁷ streams: 0.38 GB of states, copied by each of 1024 tasks.
        Self.expectRefused(["--streams", "10000000", "--tasks", "1024"], mentioning: ["--streams 10000000", "--tasks 1024", "filter states"])
    }

    @Test(arguments: ["0", "-3", "-9223372036854775808"])
    func streamCountsBelowOneAreRefused(_ count: String) {
        Self.expectRefused(["--streams=\(count)"], mentioning: ["--streams is \(count)", "at least 1"])
    }

    @Test func aRecordingLargerThanMemoryIsRefused() {
        // 10¹⁴ samples at 100 Hz.
        Self.expectRefused(["--duration", "1e12"], mentioning: ["--duration 1000000000000.0 s", "100000000000000 samples", "24.1 PB", "available"])
        // Beyond 2⁵³ samples: still a refusal, not a trap in Int(_:).
        Self.expectRefused(["--duration", "1e300"], mentioning: ["--duration 1e+300 s", "1e+302 samples", "more than 9.2 EB", "available"])
        // With --input the synthetic recording is not made: --duration does not matter.
        #expect(Self.refusal(["--duration", "1e12", "--input", "/nonexistent.csv"]) == nil)
    }

    @Test(arguments: ["nan", "inf", "-1", "0"])
    func absurdDurationsAreRefused(_ value: String) {
        Self.expectRefused(["--duration=\(value)"], mentioning: ["--duration is \(Double(value)!)", "above 0 s and finite"])
    }

    @Test(arguments: ["nan", "inf", "-1", "0", "3600.5", "1e300"])
    func absurdMinimumTimesAreRefused(_ value: String) {
        Self.expectRefused(["--min-time=\(value)"], mentioning: ["--min-time is \(Double(value)!)", "at most 3600 s"])
    }

    @Test(arguments: ["0", "-1", "1001", "9223372036854775807"])
    func absurdRepeatsAreRefused(_ value: String) {
        Self.expectRefused(["--repeats=\(value)"], mentioning: ["--repeats is \(value)", "from 1 to 1000"])
    }

    /// Each case measures at least --repeats × --min-time: 20 cases × 1000 × 3600 s is 2.3 years.
    @Test func aRunThatWouldTakeYearsIsRefused() {
        Self.expectRefused(
            ["--repeats", "1000", "--min-time", "3600"],
            mentioning: ["24 cases", "--repeats 1000", "--min-time 3600.0 s", "86400000 s", "86400 s (one day)"])
        // 4 cases (Float and Double, 6D and 9D) × 200 × 108 s is exactly the limit.
        let one = ["--filter", "inertial", "--streams", "1", "--min-time", "108", "--input", "x.csv"]
        #expect(Self.refusal(one + ["--repeats", "200"]) == nil)
        Self.expectRefused(one + ["--repeats", "201"], mentioning: ["4 cases"])
    }

    /// Small sizes still run, in-process: the synthetic recording, one stream and 20 streams.
    @Test func aSmallBenchStillRuns() throws {
        let command = try BenchCommand.parse([
            "--duration", "2", "--min-time", "0.001", "--repeats", "1", "--filter", "madgwick", "--filter", "inertial", "--streams", "1",
            "--streams", "20", "--block-steps", "4", "--float-lanes", "8", "--double-lanes", "2", "--json",
        ])
        try command.run()
        #expect(command.caseCount == 16)
        let (samples, states) = command.manyStreamBytes(count: 20)
        #expect(samples > 0 && states > 0 && samples + states < 1e6)
    }
}
