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

/// Numeric options that may be negative (southern latitudes, western longitudes, heights below the
/// ellipsoid) take a value that starts with a minus sign.
@Suite("Negative option values")
struct NegativeOptionTests {
    /// The number after `label` in a report line such as "  declination      12.806°".
    static func value(_ label: String, in report: String) throws -> Double {
        let line = try #require(report.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) })
        let text = line.dropFirst(line.range(of: label)!.upperBound.utf16Offset(in: line))
            .trimmingCharacters(in: .whitespaces).prefix { "+-.0123456789".contains($0) }
        return try #require(Double(text), "\(line)")
    }

    @Test func declinationInTheSouthAndWest() throws {
        // WMM2025_TEST_VALUES.txt: 2025.0, 0 km, −80°, 240° (= −120°): D 68.78°, I −72.00°,
        // F 54698.2 nT. Published to 0.01° and 0.1 nT.
        let command = try DeclinationCommand.parse([
            "--latitude", "-80", "--longitude", "-120", "--height-km", "0", "--date", "2025-01-01",
        ])
        #expect(command.latitude == -80 && command.longitude == -120)
        let report = try command.report()
        #expect(abs(try Self.value("declination", in: report) - 68.78) <= 0.005, "\(report)")
        #expect(abs(try Self.value("inclination", in: report) - -72.00) <= 0.005, "\(report)")
        #expect(abs(try Self.value("total intensity", in: report) - 54698.2) <= 0.05, "\(report)")
        try command.run()
        // `--option=value` and a height below the ellipsoid (the model is valid down to −10 km).
        let below = try DeclinationCommand.parse(["--latitude=-80", "--longitude", "240", "--height-km", "-5", "--date", "2025-01-01"])
        #expect(below.heightKm == -5 && below.latitude == -80)
        _ = try below.report()
    }

    @Test func declinationInSydney() throws {
        // Sydney, 1 January 2026: NOAA's calculator (WMM2025) gives 12.8° east.
        let command = try DeclinationCommand.parse(["--latitude", "-33.87", "--longitude", "151.21", "--date", "2026-01-01"])
        #expect(command.latitude == -33.87 && command.longitude == 151.21)
        let declination = try Self.value("declination", in: try command.report())
        #expect(abs(declination - 12.8) < 0.1, "\(declination)")
    }

    @Test func calibrateMagnetometerTakesASouthernWesternLocation() throws {
        let command = try CalibrateMagnetometer.parse([
            "input.csv", "--latitude", "-33.87", "--longitude", "-70.65", "--height-km", "-0.01",
        ])
        #expect(command.latitude == -33.87 && command.longitude == -70.65 && command.heightKm == -0.01)
    }

    /// A clockwise known rotation is a negative angle ("Missing value for '--known-rotation'" before).
    @Test func calibrateGyroscopeTakesAClockwiseKnownRotation() throws {
        let command = try CalibrateGyroscope.parse(["input.csv", "--known-rotation", "-90", "--axis", "z"])
        #expect(command.knownRotation == -90)
        #expect(throws: (any Error).self) { try CalibrateGyroscope.parse(["input.csv", "--known-rotation", "0"]) }
        #expect(throws: (any Error).self) { try CalibrateGyroscope.parse(["input.csv", "--known-rotation", "nan"]) }
    }

    @Test func aLongitudeFarOutsideTheCircleIsRefused() {
        for longitude in ["1e308", "-1e308", "361"] {
            var message = ""
            do {
                let report = try DeclinationCommand.parse(["--latitude", "10", "--longitude", longitude, "--date", "2026-01-01"]).report()
                Issue.record("\(longitude): \(report)")
            } catch {
                message = "\(error)"
            }
            #expect(message == "longitude \(Double(longitude)!)° is outside [-360°, 360°]", "\(longitude)")
        }
    }
}
