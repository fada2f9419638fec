/// Units a gyroscope column may be recorded in.
public enum GyroscopeUnit: String, CaseIterable, Sendable, Codable {
    /// Radians per second (the library's unit).
    case radiansPerSecond = "rad/s"
    /// Degrees per second.
    case degreesPerSecond = "deg/s"

    /// The factor that converts a value in this unit to rad/s.
    public var toRadiansPerSecond: Double {
        self == .radiansPerSecond ? 1 : Double.pi / 180
    }
}

/// Units an accelerometer column may be recorded in. Either way the values are specific force
/// (about +1 g along the axis pointing up at rest).
public enum AccelerometerUnit: String, CaseIterable, Sendable, Codable {
    /// Metres per second squared (the library's unit).
    case metersPerSecondSquared = "m/s2"
    /// Standard gravity, 1 g = 9.80665 m/s².
    case standardGravity = "g"

    /// The factor that converts a value in this unit to m/s².
    public var toMetersPerSecondSquared: Double {
        self == .metersPerSecondSquared ? 1 : 9.80665
    }
}

/// Units a magnetometer column may be recorded in.
public enum MagnetometerUnit: String, CaseIterable, Sendable, Codable {
    /// Microtesla (the library's unit).
    case microtesla = "uT"
    /// Nanotesla.
    case nanotesla = "nT"
    /// Gauss, 1 G = 100 µT.
    case gauss = "gauss"

    /// The factor that converts a value in this unit to µT.
    public var toMicrotesla: Double {
        switch self {
        case .microtesla: 1
        case .nanotesla: 0.001
        case .gauss: 100
        }
    }
}
