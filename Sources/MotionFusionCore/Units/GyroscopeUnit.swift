/// Units a gyroscope column may be recorded in.
public enum GyroscopeUnit: String, CaseIterable, Sendable {
    /// Radians per second (the library's unit).
    case radiansPerSecond = "rad/s"
    /// Degrees per second.
    case degreesPerSecond = "deg/s"

    /// The factor that converts a value in this unit to rad/s.
    public var toRadiansPerSecond: Double {
        self == .radiansPerSecond ? 1 : Double.pi / 180
    }
}

#if !hasFeature(Embedded)
extension GyroscopeUnit: Codable {}
#endif
