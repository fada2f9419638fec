/// Units an accelerometer column may be recorded in. Either way the values are specific force
/// (about +1 g along the axis pointing up at rest).
public enum AccelerometerUnit: String, CaseIterable, Sendable {
    /// Metres per second squared (the library's unit).
    case metersPerSecondSquared = "m/s2"
    /// Standard gravity, 1 g = 9.80665 m/s².
    case standardGravity = "g"

    /// The factor that converts a value in this unit to m/s².
    public var toMetersPerSecondSquared: Double {
        self == .metersPerSecondSquared ? 1 : 9.80665
    }
}

#if !hasFeature(Embedded)
extension AccelerometerUnit: Codable {}
#endif
