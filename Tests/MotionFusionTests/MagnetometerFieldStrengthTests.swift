import Foundation
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The field strength a magnetometer calibration scales to must be a finite number of µT above 0,
/// on every path: the ellipsoid fit, the sphere fit, and the automatic model's fallback from one to
/// the other (which once skipped the check and wrote an all-zero soft iron for 0 and −I for −49).
@Suite("Magnetometer field strength")
struct MagnetometerFieldStrengthTests {
    static let bad: [Double] = [0, -49, -0.0, .nan, .infinity, -.infinity]

    /// A good cover of the sphere (the ellipsoid fit succeeds) and a partial one (automatic falls
    /// back to the sphere).
    static func samples(maximumPolarAngle: Double) -> [SIMD3<Double>] {
        var random = TestRandom(seed: 41)
        return EllipsoidFitTests.readings(
            hardIron: SIMD3(12, -30, 7), softIron: .identity, radius: 45, count: 800,
            maximumPolarAngle: maximumPolarAngle, noise: 0.1, random: &random)
    }

    @Test(arguments: EllipsoidFit.Model.allCases, [Double.pi, 1.0])
    func everyModelRefusesABadFieldStrength(model: EllipsoidFit.Model, maximumPolarAngle: Double) throws {
        let samples = Self.samples(maximumPolarAngle: maximumPolarAngle)
        for strength in Self.bad {
            #expect("\(model), \(strength) µT") {
                _ = try EllipsoidFit.magnetometer(samples, fieldStrength: strength, model: model)
            } throws: { error in
                guard case .invalidFieldStrength(let value)? = error as? CalibrationError else { return false }
                return value == strength || (value.isNaN && strength.isNaN)
            }
        }
        if model != .ellipsoid || maximumPolarAngle == .pi {
            // A good field strength still works on the same samples.
            let fit = try EllipsoidFit.magnetometer(samples, fieldStrength: 49, model: model)
            #expect(fit.calibration.fieldStrength == 49)
        }
    }

    @Test func theEllipsoidFitAloneRefusesABadFieldStrength() {
        let samples = Self.samples(maximumPolarAngle: .pi)
        for strength in Self.bad {
            #expect("\(strength) µT") {
                try EllipsoidFit.magnetometer(samples, fieldStrength: strength)
            } throws: { error in
                guard case .invalidFieldStrength? = error as? CalibrationError else { return false }
                return true
            }
        }
    }

    /// `motion calibrate magnetometer --field-strength=0` (and −49) fails instead of writing a
    /// calibration, on samples that make the automatic model fall back to the sphere.
    @Test(arguments: ["0", "-49"])
    func calibrateCommandRefusesABadFieldStrength(strength: String) throws {
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for (k, m) in Self.samples(maximumPolarAngle: 1.0).enumerated() {
            text += "\(Double(k) * 0.01),0,0,0,0,0,9.81,\(m.x),\(m.y),\(m.z)\n"
        }
        let input = CSVReaderTests.file(text)
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("mf-field-\(UUID()).json").path
        #expect {
            try FuseCommandTests.run(["calibrate", "magnetometer", input, "-o", json, "--field-strength=\(strength)"])
        } throws: { error in
            "\(error)".contains("the field strength must be a finite number of µT greater than 0")
        }
        #expect(!FileManager.default.fileExists(atPath: json))
    }
}
