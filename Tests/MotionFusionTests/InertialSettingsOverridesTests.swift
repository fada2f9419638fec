import ArgumentParser
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `motion fuse --set name=value`: a value outside the setting's valid range is refused with the
/// setting, the value and the range, like the flag forms (`--accelerometer-time-constant 0`).
@Suite("--set overrides")
struct InertialSettingsOverridesTests {
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
                    _ = try InertialSettingsOverrides.apply([override], to: InertialFrameFilter<Float>.Settings())
                } else {
                    _ = try InertialSettingsOverrides.apply([override], to: InertialFrameFilter<Double>.Settings())
                }
            } throws: { error in
                (error as? ValidationError)?.message.contains(message) == true
            }
        }
    }

    @Test func validOverridesAreApplied() throws {
        let settings = try InertialSettingsOverrides.apply(
            ["biasLimit=0.05", "rejectionGainFactor=1", "gyroscopeScaleUncertainty=0", "accelerometerTimeConstant=0.5",
             "correctionInterval=0", "estimatesScaleInMotion=false"],
            to: InertialFrameFilter<Double>.Settings())
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
}
