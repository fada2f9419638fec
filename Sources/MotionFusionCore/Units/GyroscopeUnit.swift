import MotionFusionCore

/// Units a gyroscope column may be recorded in.
public enum GyroscopeUnit: String, CaseIterable, Sendable, Codable, HeaderUnit {
    /// Radians per second (the library's unit).
    case radiansPerSecond = "rad/s"
    /// Degrees per second.
    case degreesPerSecond = "deg/s"

    /// The factor that converts a value in this unit to rad/s.
    public var toRadiansPerSecond: Double {
        self == .radiansPerSecond ? 1 : Double.pi / 180
    }

    /// The unit a CSV header writes, for example `deg/s` in `Gyroscope X (deg/s)`.
    ///
    /// Accepted, case included: `rad/s`; `deg/s`, `°/s`, `dps`. Anything else is nil.
    public init?(headerText text: String) {
        switch text {
        case "rad/s": self = .radiansPerSecond
        case "deg/s", "\u{B0}/s", "dps": self = .degreesPerSecond
        default: return nil
        }
    }

    /// The spellings ``init(headerText:)`` accepts, for messages.
    public static let headerSpellings = ["rad/s", "deg/s", "°/s", "dps"]
    public static let quantity = MeasuredQuantity.gyroscope
    public static let libraryUnit = GyroscopeUnit.radiansPerSecond
}
