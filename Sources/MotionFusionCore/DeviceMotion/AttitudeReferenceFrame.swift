/// Core Motion's attitude reference frames: Z vertical (up), X toward the named direction.
public enum AttitudeReferenceFrame: String, CaseIterable, Sendable {
    /// Z up, X arbitrary in the horizontal plane (the device's heading at the start); 6D, the
    /// magnetometer is not used, so yaw drifts with the gyroscope.
    case xArbitraryZVertical
    /// As ``xArbitraryZVertical``, but the magnetometer keeps yaw from drifting (9D).
    case xArbitraryCorrectedZVertical
    /// Z up, X toward magnetic north (9D).
    case xMagneticNorthZVertical
    /// Z up, X toward true north: magnetic north turned by the declination (9D).
    case xTrueNorthZVertical

    /// True for the frames whose X axis points north.
    public var isNorthReferenced: Bool {
        self == .xMagneticNorthZVertical || self == .xTrueNorthZVertical
    }

    /// True for the frames that use the magnetometer.
    public var usesMagnetometer: Bool { self != .xArbitraryZVertical }
}

#if !hasFeature(Embedded)
extension AttitudeReferenceFrame: Codable {}
#endif
