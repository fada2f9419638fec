import ArgumentParser
import Foundation
import MotionFusion

/// `motion calibrate`: sensor calibration from a recording.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate a magnetometer, accelerometer or gyroscope from a CSV recording.",
        discussion: """
            Prints the parameters and residuals, and with -o writes a JSON file that `motion fuse \
            --calibration FILE` applies before the filter. The -o file is checked before the \
            recording is read and written only when the calibration succeeds.

            \(outputFileRules)
            """,
        subcommands: [CalibrateMagnetometer.self, CalibrateAccelerometer.self, CalibrateGyroscope.self])
}

extension EllipsoidFit.Model: ExpressibleByArgument {}

extension GyroscopeCalibrator.Axis: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument.lowercased() {
        case "x": self = .x
        case "y": self = .y
        case "z": self = .z
        default: return nil
        }
    }

    /// The names accepted, for help and for the message on a wrong value (not the raw values 0–2).
    public static var allValueStrings: [String] { ["x", "y", "z"] }

    public var defaultValueDescription: String { Self.allValueStrings[rawValue] }
}

func describe(_ c: InertialCalibration, unit: String, to report: inout Report) {
    let m = c.misalignment.rows
    print("  bias (\(unit)):     [\(c.bias.x), \(c.bias.y), \(c.bias.z)]", to: &report)
    print("  sensitivity:     [\(c.sensitivity.x), \(c.sensitivity.y), \(c.sensitivity.z)]", to: &report)
    print("  misalignment:    [\(m.0.x), \(m.0.y), \(m.0.z)]", to: &report)
    print("                   [\(m.1.x), \(m.1.y), \(m.1.z)]", to: &report)
    print("                   [\(m.2.x), \(m.2.y), \(m.2.z)]", to: &report)
}

/// A decimal year from `YYYY-MM-DD` (or today when nil), as the World Magnetic Model counts time.
func decimalYear(_ text: String?) throws -> Double {
    let parts: [Int]
    if let text {
        parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { throw ValidationError("dates are YYYY-MM-DD, got \(text)") }
    } else {
        let now = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date())
        parts = [now.year!, now.month!, now.day!]
    }
    do {
        return try WorldMagneticModel.decimalYear(year: parts[0], month: parts[1], day: parts[2])
    } catch {
        throw CommandFailure("\(text ?? "today"): \(error)")
    }
}
