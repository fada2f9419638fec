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

/// Absurd timestamps, speeds and rates in the paced sources: documented clamps, never a trap.
/// Each of these died with SIGILL ("Double value cannot be converted") before the clamps.
@Suite("Pacing: durations and rates from user-given numbers")
struct PacingTests {
    static func atRest(_ timestamps: [Double]) -> IMURecording {
        var recording = IMURecording()
        recording.timestamps = timestamps
        recording.gyroscope = Array(repeating: .zero, count: timestamps.count)
        recording.accelerometer = Array(repeating: SIMD3(0, 0, 9.81), count: timestamps.count)
        return recording
    }

    @Test func waitsAreClampedAndNeverTrap() {
        #expect(Duration.wait(seconds: 1e300) == .seconds(1e12))
        #expect(Duration.wait(seconds: .infinity) == .seconds(1e12))
        #expect(Duration.wait(seconds: .nan) == .zero)
        #expect(Duration.wait(seconds: -1e300) == .zero)
        #expect(Duration.wait(seconds: 0.25) == .milliseconds(250))
        // The longest wait still fits after any instant a clock gives.
        _ = ContinuousClock.now + .wait(seconds: .infinity)
    }

    /// Timestamps 0, then 1e300: a jump, replayed without waiting (it used to trap converting
    /// 1e300 s to a Duration), then paced again from there.
    @Test func aJumpInTimestampsIsNotWaitedFor() throws {
        let recording = Self.atRest([0, 1e300, 1e300, -5, -4.999])
        let source = RecordingSource(recording, pacing: .realTime(speed: 1))
        var seen: [Double] = []
        while let sample = try source.next() { seen.append(sample.timestamp) }
        #expect(seen == recording.timestamps)
    }

    @Test func speedsAreClamped() {
        #expect(ReplayPacer(.realTime(speed: 1e-300)).speed == 1e-3)
        #expect(ReplayPacer(.realTime(speed: 1e300)).speed == 1e6)
        #expect(ReplayPacer(.realTime(speed: .infinity)).speed == 1e6)
        #expect(ReplayPacer(.realTime(speed: 2)).speed == 2)
        #expect(ReplayPacer(.realTime(speed: 0)).speed == nil)
        #expect(ReplayPacer(.realTime(speed: .nan)).speed == nil)
        // At the slowest speed a 1 µs step of recording time is a 1 ms wait.
        let recording = Self.atRest([0, 1e-6])
        let source = RecordingSource(recording, pacing: .realTime(speed: 1e-300))
        #expect((try? source.next()) != nil && (try? source.next()) != nil)
    }

    @Test func iioRatesAreClampedAndAbsurdReportsIgnored() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.cleanUp() }
        try sysfs.write("iio:device0/sampling_frequency", "1e-300\n")
        let devices = [try IIODevice.list(root: sysfs.root)[0]]  // the device whose frequency is set
        #expect(devices[0].samplingFrequency == 1e-300)  // read as it is…
        #expect(IIOSource(devices: devices).rate == 100)  // …but not believed
        #expect(IIOSource(devices: devices, rate: 1e-300).rate == 0.01)
        #expect(IIOSource(devices: devices, rate: 1e300).rate == 100_000)
        #expect(IIOSource(devices: devices, rate: -3).rate == 100)
        try sysfs.write("iio:device0/sampling_frequency", "250\n")
        #expect(IIOSource(devices: [try IIODevice.list(root: sysfs.root)[0]]).rate == 250)
    }

    @Test func recordRefusesAbsurdSpeedsAndRates() {
        for arguments in [
            ["--simulate", "walking", "--real-time", "1e-300"], ["--simulate", "walking", "--real-time", "1e300"],
            ["--iio", "--rate", "1e-300"], ["--iio", "--rate", "nan"], ["--simulate", "walking", "--duration", "nan"],
        ] {
            #expect(throws: (any Error).self, "\(arguments)") { try RecordCommand.parse(["-o", "/nonexistent/x.csv"] + arguments) }
        }
        #expect(throws: Never.self) { try RecordCommand.parse(["-o", "/nonexistent/x.csv", "--simulate", "walking", "--real-time", "2"]) }
    }
}
