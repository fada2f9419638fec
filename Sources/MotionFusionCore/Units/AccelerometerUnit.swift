import MotionFusionCore

/// Units an accelerometer column may be recorded in. Either way the values are specific force
/// (about +1 g along the axis pointing up at rest).
public enum AccelerometerUnit: String, CaseIterable, Sendable, Codable, HeaderUnit {
    /// Metres per second squared (the library's unit).
    case metersPerSecondSquared = "m/s2"
    /// Standard gravity, 1 g = 9.80665 m/s².
    case standardGravity = "g"

    /// The factor that converts a value in this unit to m/s².
    public var toMetersPerSecondSquared: Double {
        self == .metersPerSecondSquared ? 1 : 9.80665
    }

    /// The unit a CSV header writes, for example `g` in `Accelerometer X (g)`.
    ///
    /// Accepted, case included: `g` (standard gravity); `m/s²`, `m/s^2`, `m/s2`, `ms^-2`. An upper
    /// case `G` is nil: it is the symbol of gauss (see ``MagnetometerUnit/init(headerText:)``), and
    /// an accelerometer column labelled with it is refused rather than guessed at.
    public init?(headerText text: String) {
        switch text {
        case "g": self = .standardGravity
        case "m/s\u{B2}", "m/s^2", "m/s2", "ms^-2": self = .metersPerSecondSquared
        default: return nil
        }
    }

    /// The spellings ``init(headerText:)`` accepts, for messages.
    public static let headerSpellings = ["g", "m/s²", "m/s^2", "m/s2", "ms^-2"]
    public static let quantity = MeasuredQuantity.accelerometer
    public static let libraryUnit = AccelerometerUnit.metersPerSecondSquared
}
