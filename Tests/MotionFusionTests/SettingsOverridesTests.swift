import Foundation
import ArgumentParser
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `motion fuse --set name=value`, for every filter's settings: a value outside the setting's valid
/// range is refused with the setting, the value and the range, like the flag forms
/// (`--accelerometer-time-constant 0`); an unknown name lists the filter's settings; no usage text
/// follows the message.
@Suite("--set overrides")
struct SettingsOverridesTests {
    /// The overrides users found accepted, with the range each one must report.
    static let refused: [(override: String, message: String)] = [
        ("biasLimit=-1", "biasLimit = -1.0 is outside its range (> 0, finite)"),
        ("rejectionGainFactor=0", "rejectionGainFactor = 0.0 is outside its range (≥ 1, finite)"),
        ("gyroscopeScaleUncertainty=-1", "gyroscopeScaleUncertainty = -1.0 is outside its range (in [0, 0.1])"),
        ("accelerometerTimeConstant=0", "accelerometerTimeConstant = 0.0 is outside its range (> 0, finite)"),
    ]

    @Test(arguments: [false, true])
    func outOfRangeOverridesAreRefused(float: Bool) {
        for (override, message) in Self.refused {
            #expect("\(override)") {
                if float {
                    _ = try SettingsOverrides.apply([override], to: InertialFrameFilter<Float>.Settings(), filter: "inertial")
                } else {
                    _ = try SettingsOverrides.apply([override], to: InertialFrameFilter<Double>.Settings(), filter: "inertial")
                }
            } throws: { error in
                (error as? SettingsOverrideError)?.description.contains(message) == true
            }
        }
    }

    @Test func validOverridesAreApplied() throws {
        let settings = try SettingsOverrides.apply(
            ["biasLimit=0.05", "rejectionGainFactor=1", "gyroscopeScaleUncertainty=0", "accelerometerTimeConstant=0.5",
             "correctionInterval=0", "estimatesScaleInMotion=false"],
            to: InertialFrameFilter<Double>.Settings(), filter: "inertial")
        #expect(settings.biasLimit == 0.05)
        #expect(settings.rejectionGainFactor == 1)
        #expect(settings.gyroscopeScaleUncertainty == 0)
        #expect(settings.accelerometerTimeConstant == 0.5)
        #expect(settings.correctionInterval == 0)
        #expect(!settings.estimatesScaleInMotion)
    }

    /// The whole command refuses the override before reading its input.
    @Test func fuseRefusesAnOutOfRangeOverride() {
        #expect {
            try FuseCommandTests.run(["fuse", "/nonexistent.csv", "-o", "/dev/null", "--set", "biasLimit=-1"])
        } throws: { error in
            "\(error)".contains("biasLimit = -1.0 is outside its range")
        }
    }

    @Test func everyFilterTakesItsOwnSettings() throws {
        let madgwick = try SettingsOverrides.apply(
            ["beta=0.05", "zeta=0.002", "frame=ned"], to: MadgwickFilter<Float>.Settings(), filter: "madgwick")
        #expect(madgwick.beta == 0.05 && madgwick.zeta == 0.002 && madgwick.frame == .ned)
        let mahony = try SettingsOverrides.apply(
            ["kp=2", "ki=0.5", "maximumBias=0.2"], to: MahonyFilter<Double>.Settings(), filter: "mahony")
        #expect(mahony.kp == 2 && mahony.ki == 0.5 && mahony.maximumBias == 0.2)
        let complementary = try SettingsOverrides.apply(
            ["accelerometerTimeConstant=3", "magnetometerTimeConstant=7"], to: ComplementaryFilter<Double>.Settings(),
            filter: "complementary")
        #expect(complementary.accelerometerTimeConstant == 3 && complementary.magnetometerTimeConstant == 7)
    }

    @Test func anUnknownNameListsTheFiltersSettings() {
        #expect {
            _ = try SettingsOverrides.apply(["gain=1"], to: MadgwickFilter<Double>.Settings(), filter: "madgwick")
        } throws: { error in
            (error as? SettingsOverrideError)?.description
                == "--set: the madgwick filter has no setting 'gain'; its settings: beta, frame, maximumBias, zeta"
        }
        #expect {
            _ = try SettingsOverrides.apply(["beta=-1"], to: MadgwickFilter<Double>.Settings(), filter: "madgwick")
        } throws: { error in
            (error as? SettingsOverrideError)?.description.contains("beta = -1.0 is outside its range") == true
        }
    }

    /// Through the command: the flags first, then --set; the message alone, without the usage text
    /// that an argument error prints.
    @Test func fuseAppliesSetAfterTheFlagsAndPrintsNoUsage() throws {
        let input = FuseCommandTests.input()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mf-set-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        try FuseCommandTests.run(["fuse", input, "-o", out, "--filter", "madgwick", "--beta", "0.3", "--set", "beta=0.05"])
        let rows = try FuseCommandTests.output(out)
        // The same recording through the library with β = 0.05, independently of the command.
        let reader = try IMUCSVReader(path: input)
        var stream = FusionStream(filter: MadgwickFilter<Double>(settings: .init(beta: 0.05)))
        var k = 0
        while let r = try reader.next() {
            let o = stream.update(
                timestamp: r.timestamp, gyroscope: r.gyroscope, accelerometer: r.accelerometer, magnetometer: r.magnetometer)
            #expect(Array(rows[k][1...4]) == [o.quaternion.w, o.quaternion.x, o.quaternion.y, o.quaternion.z])
            k += 1
        }
        #expect(k == rows.count && k > 0)
        do {
            try FuseCommandTests.run(["fuse", input, "-o", out, "--filter", "mahony", "--set", "gain=1"])
            Issue.record("an unknown setting was accepted")
        } catch {
            let printed = MotionCommand.fullMessage(for: error)
            #expect(printed.contains("the mahony filter has no setting 'gain'; its settings: frame, ki, kp, maximumBias"))
            #expect(!printed.contains("USAGE"))
        }
    }

    /// Infinity where a setting's range has it; a value the type refuses is named, in words.
    @Test func infinityAndRefusedValuesAreHandledInWords() throws {
        let madgwick = try SettingsOverrides.apply(["maximumBias=inf"], to: MadgwickFilter<Double>.Settings(), filter: "madgwick")
        #expect(madgwick.maximumBias == .infinity)
        let complementary = try SettingsOverrides.apply(
            ["accelerometerTimeConstant=inf"], to: ComplementaryFilter<Float>.Settings(), filter: "complementary")
        #expect(complementary.accelerometerTimeConstant == .infinity)
        #expect {
            _ = try SettingsOverrides.apply(["frame=xyz"], to: InertialFrameFilter<Double>.Settings(), filter: "inertial")
        } throws: { error in
            (error as? SettingsOverrideError)?.description
                == "--set: frame=xyz is not a valid value for the inertial filter: Cannot initialize EarthFrame from invalid String value xyz"
        }
        #expect {
            _ = try SettingsOverrides.apply(["biasLimit=1e300"], to: InertialFrameFilter<Float>.Settings(), filter: "inertial")
        } throws: { error in
            (error as? SettingsOverrideError)?.description == "--set: biasLimit=1e300 is beyond Float's range (the run computes in Float)"
        }
    }
}
