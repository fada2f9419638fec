import MotionFusionCore

/// Why a ``MotionManager`` could not start device motion as asked.
///
/// The manager reports it as Core Motion reports `CMErrorTrueNorthNotAvailable`: a handler receives
/// it once (with a nil sample) on its queue, ``MotionManager/error`` holds it, an `AsyncStream` from
/// ``MotionManager/deviceMotionUpdates(using:declination:calibration:)`` finishes at once, and device
/// motion stays as it was: inactive, or running its own request untouched. The manager never falls
/// back to another reference frame.
///
/// ``DeviceMotionProcessor``'s initializers throw ``DeviceMotionError``, whose two cases (true north
/// without a finite declination) become the cases of the same names here (``init(_:)``).
public enum MotionManagerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// ``AttitudeReferenceFrame/xTrueNorthZVertical`` was asked for without a declination or a
    /// location (``MagneticDeclination``), so true north is unknown (Core Motion's
    /// `CMErrorTrueNorthNotAvailable`).
    case trueNorthNotAvailable
    /// The declination could not be had: a non-finite number of degrees, or a location or date
    /// outside the World Magnetic Model (WMM2025 is valid from 2025.0 to 2030.0).
    case declinationNotAvailable(WorldMagneticModelError)
    /// The source lacks the magnetometer that this reference frame needs
    /// (``AttitudeReferenceFrame/usesMagnetometer``).
    case referenceFrameNotAvailable(AttitudeReferenceFrame)
    /// The source lacks the gyroscope or the accelerometer that device motion needs
    /// (``MotionManager/isDeviceMotionAvailable`` is false).
    case deviceMotionNotAvailable
    /// Device motion already runs in this reference frame with another request: another frame,
    /// another declination (compared in degrees) or another calibration. The running service is left
    /// as it is; stop it (``MotionManager/stopDeviceMotionUpdates()``) before starting it otherwise.
    /// A start that asks for what runs (or leaves the frame out) joins the running service instead.
    case deviceMotionRunning(AttitudeReferenceFrame)

    public var description: String {
        switch self {
        // The processor's two cases, in its words.
        case .trueNorthNotAvailable: DeviceMotionError.trueNorthNotAvailable.description
        case .declinationNotAvailable(let error): DeviceMotionError.declinationNotAvailable(error).description
        case .referenceFrameNotAvailable(let frame):
            "\(frame.rawValue) needs a magnetometer, and the source has none"
        case .deviceMotionNotAvailable:
            "device motion needs a gyroscope and an accelerometer, and the source lacks one"
        case .deviceMotionRunning(let frame):
            "device motion already runs in \(frame.rawValue), and this start asks for another frame, declination "
                + "or calibration; stop it (stopDeviceMotionUpdates()) first"
        }
    }

    /// The manager's error for a processor's.
    public init(_ error: DeviceMotionError) {
        switch error {
        case .trueNorthNotAvailable: self = .trueNorthNotAvailable
        case .declinationNotAvailable(let reason): self = .declinationNotAvailable(reason)
        }
    }
}
