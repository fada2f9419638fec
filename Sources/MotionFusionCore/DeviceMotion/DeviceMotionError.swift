/// Why a ``DeviceMotionProcessor`` cannot be made: true north was asked for without a finite
/// declination. The processor never falls back to magnetic north. (The motion manager reports these
/// as the `MotionManagerError` cases of the same names.)
public enum DeviceMotionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// ``AttitudeReferenceFrame/xTrueNorthZVertical`` without a declination, so true north is
    /// unknown (Core Motion's `CMErrorTrueNorthNotAvailable`).
    case trueNorthNotAvailable
    /// The declination is not a finite number of degrees (or could not be computed: a location or
    /// date outside the World Magnetic Model).
    case declinationNotAvailable(WorldMagneticModelError)

    public var description: String {
        switch self {
        case .trueNorthNotAvailable:
            "xTrueNorthZVertical needs a declination or a location (MagneticDeclination); none was given"
        case .declinationNotAvailable(let error):
            "no magnetic declination for true north: \(error)"
        }
    }
}
