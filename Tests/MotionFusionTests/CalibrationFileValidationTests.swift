import Foundation
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Calibration JSON (the files of `motion calibrate`, read by `motion fuse --calibration`) is
/// checked when decoded: every number finite and each field in its documented range. A bad file is
/// refused with an error that names the field.
@Suite("Calibration file validation")
struct CalibrationFileValidationTests {
    static var goodInertial: [String: Any] {
        [
            "bias": [0.01, -0.02, 0.03], "sensitivity": [1.01, 0.99, 1.0],
            "misalignment": [[1, 0.01, -0.02], [0, 1, 0.015], [0, 0, 1]], "residual": 0.01,
        ]
    }
    static var goodMagnetometer: [String: Any] {
        [
            "hardIron": [12, -30, 7], "softIron": [[1.05, 0.02, 0], [0.02, 0.97, 0.01], [0, 0.01, 1.0]],
            "fieldStrength": 49, "residual": 0.2,
        ]
    }

    static func data(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    /// Decoding `object` as `T` throws a `DecodingError` whose description names `field`.
    static func expectRefused<T: Decodable>(
        _: T.Type, _ object: [String: Any], naming field: String, _ comment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let data = try data(object)
        do {
            let value = try JSONDecoder().decode(T.self, from: data)
            Issue.record("\(comment): accepted as \(value)", sourceLocation: sourceLocation)
        } catch let error as DecodingError {
            guard case .dataCorrupted(let context) = error else {
                Issue.record("\(comment): \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(context.debugDescription.contains(field), "\(comment): \(context.debugDescription)", sourceLocation: sourceLocation)
            #expect(context.codingPath.last?.stringValue == field, "\(comment): \(context.codingPath)", sourceLocation: sourceLocation)
        }
    }

    /// One bad value per field of the inertial (gyroscope, accelerometer) calibration.
    static var badInertial: [(field: String, value: Any, what: String)] {
        [
            ("sensitivity", [0.0, 1, 1], "zero sensitivity"),
            ("sensitivity", [1e308, 1, 1], "huge sensitivity"),
            ("sensitivity", [1, -1, 1], "negative sensitivity"),
            ("sensitivity", [1, 1, 0.4], "sensitivity below 0.5"),
            ("sensitivity", [1, 2.1, 1], "sensitivity above 2"),
            ("bias", [1e308, 0, 0], "huge bias"),
            ("bias", [0, 0, -51], "bias beyond 50"),
            ("misalignment", [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "zero misalignment"),
            ("misalignment", [[1, 0, 0], [0, 1, 0], [0, 0, 1e308]], "huge misalignment"),
            ("misalignment", [[1, 0, 0], [0, 1, 0], [0, 0, -1]], "reflecting misalignment"),
            ("misalignment", [[1, 0.99, 0], [0.99, 1, 0], [0, 0, 1]], "nearly singular misalignment"),
            ("misalignment", [[1, 5, 0], [0, 1, 0], [0, 0, 1]], "badly conditioned misalignment"),
            ("residual", -0.1, "negative residual"),
        ]
    }

    @Test func inertialCalibrationRefusesEachBadField() throws {
        for (field, value, what) in Self.badInertial {
            var object = Self.goodInertial
            object[field] = value
            try Self.expectRefused(InertialCalibration.self, object, naming: field, what)
        }
    }

    /// One bad value per field of the magnetometer calibration.
    static var badMagnetometer: [(field: String, value: Any, what: String)] {
        [
            ("softIron", [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "zero soft iron"),
            ("softIron", [[-1, 0, 0], [0, -1, 0], [0, 0, -1]], "reflecting soft iron"),
            ("softIron", [[1e-3, 0, 0], [0, 1e-3, 0], [0, 0, 1e-3]], "vanishing soft iron"),
            ("softIron", [[1e308, 0, 0], [0, 1, 0], [0, 0, 1]], "huge soft iron"),
            ("softIron", [[20, 0, 0], [0, 1, 0], [0, 0, 1]], "badly conditioned soft iron"),
            ("hardIron", [1e308, 0, 0], "huge hard iron"),
            ("hardIron", [0, -5001, 0], "hard iron beyond 5000 µT"),
            ("fieldStrength", 0, "zero field strength"),
            ("fieldStrength", -49, "negative field strength"),
            ("residual", -1, "negative residual"),
        ]
    }

    @Test func magnetometerCalibrationRefusesEachBadField() throws {
        for (field, value, what) in Self.badMagnetometer {
            var object = Self.goodMagnetometer
            object[field] = value
            try Self.expectRefused(MagnetometerCalibration.self, object, naming: field, what)
        }
    }

    /// JSON has no infinity: a number beyond `Double` (1e400) is refused whether the parser rejects
    /// it or reads it as infinity.
    @Test func numbersBeyondDoubleAreRefused() {
        let files = [
            #"{"bias": [0, 0, 0], "sensitivity": [1, 1, 1], "residual": 1e400}"#,
            #"{"bias": [0, 0, 1e400], "sensitivity": [1, 1, 1]}"#,
        ]
        for text in files {
            #expect(throws: DecodingError.self, "\(text)") { try JSONDecoder().decode(InertialCalibration.self, from: Data(text.utf8)) }
        }
        let field = #"{"hardIron": [0, 0, 0], "softIron": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "fieldStrength": 1e400}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MagnetometerCalibration.self, from: Data(field.utf8)) }
    }

    /// The good files decode (the bad cases above differ from them in one field only).
    @Test func goodFilesDecode() throws {
        let inertial = try JSONDecoder().decode(InertialCalibration.self, from: Self.data(Self.goodInertial))
        #expect(inertial.sensitivity == SIMD3(1.01, 0.99, 1.0))
        let magnetometer = try JSONDecoder().decode(MagnetometerCalibration.self, from: Self.data(Self.goodMagnetometer))
        #expect(magnetometer.fieldStrength == 49)
        // The identity, and what the calibrations' own encoders write.
        for calibration in [InertialCalibration.identity, inertial] {
            #expect(try JSONDecoder().decode(InertialCalibration.self, from: JSONEncoder().encode(calibration)) == calibration)
        }
        #expect(try JSONDecoder().decode(MagnetometerCalibration.self, from: JSONEncoder().encode(magnetometer)) == magnetometer)
    }

    /// The calibrators refuse a result that decoding would refuse, so `motion calibrate` never
    /// writes a file `motion fuse --calibration` cannot read: readings in m/s² fitted to a gravity of
    /// 1 (sensitivity 0.1), a sphere scaled to an absurd field strength (soft iron 10⁴ I).
    @Test func calibratorsRefuseWhatDecodingRefuses() throws {
        let g = 9.80665
        let faces: [SIMD3<Double>] = [
            SIMD3(g, 0, 0), SIMD3(-g, 0, 0), SIMD3(0, g, 0), SIMD3(0, -g, 0), SIMD3(0, 0, g), SIMD3(0, 0, -g),
        ].map { $0 + SIMD3(0.1, -0.05, 0.02) }
        _ = try AccelerometerCalibrator.calibrate(staticReadings: faces, gravity: g)  // as it should be
        #expect {
            try AccelerometerCalibrator.calibrate(staticReadings: faces, gravity: 1)
        } throws: { error in
            guard case .outOfRange(let reason)? = error as? CalibrationError else { return false }
            return reason.contains("sensitivity")
        }
        var random = TestRandom(seed: 43)
        let samples = EllipsoidFitTests.readings(
            hardIron: SIMD3(12, -30, 7), softIron: .identity, radius: 45, count: 800, maximumPolarAngle: 1.0,
            noise: 0.1, random: &random)
        _ = try EllipsoidFit.magnetometer(samples, fieldStrength: 45, model: .sphere)
        #expect {
            try EllipsoidFit.magnetometer(samples, fieldStrength: 450_000, model: .sphere)
        } throws: { error in
            guard case .outOfRange(let reason)? = error as? CalibrationError else { return false }
            return reason.contains("softIron")
        }
    }

    /// Through `motion fuse --calibration`: a file with a zero sensitivity is refused, naming the field.
    @Test func fuseRefusesABadCalibrationFile() throws {
        var object = Self.goodInertial
        object["sensitivity"] = [0.0, 1, 1]
        object["sensor"] = "gyroscope"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mf-badcal-\(UUID()).json").path
        try Self.data(object).write(to: URL(fileURLWithPath: path))
        #expect {
            try CalibrationFile.read([path])
        } throws: { error in
            "\(error)".contains("sensitivity")
        }
    }
}
