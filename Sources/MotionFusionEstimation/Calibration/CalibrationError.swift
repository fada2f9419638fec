/// Why a calibration could not be computed.
public enum CalibrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer samples (or static segments) than the fit needs.
    case tooFewSamples(needed: Int, found: Int)
    /// The samples do not determine the model (the reason says what is missing, e.g. "the samples
    /// lie on a plane" or "the orientations do not cover enough directions").
    case underdetermined(reason: String)
    /// The fitted surface is not an ellipsoid (the data is not a distorted sphere).
    case notAnEllipsoid
    /// A sample has a NaN or infinite component (index in the input).
    case nonFiniteSample(index: Int)
    /// An iterative refinement did not converge.
    case didNotConverge(iterations: Int)
    /// Linear algebra failed.
    case estimation(EstimationError)
    /// The field strength to scale a magnetometer calibration to is not a finite number of µT
    /// greater than 0 (the value given).
    case invalidFieldStrength(Double)
    /// The fitted calibration is outside the range a calibration file accepts (see
    /// ``InertialCalibration`` and ``MagnetometerCalibration``); the reason names the field.
    case outOfRange(reason: String)

    public var description: String {
        switch self {
        case .tooFewSamples(let needed, let found):
            "needs at least \(needed) sample\(needed == 1 ? "" : "s"), found \(found)"
        case .underdetermined(let reason): "the data cannot determine the calibration: \(reason)"
        case .notAnEllipsoid: "the samples do not lie on an ellipsoid"
        case .nonFiniteSample(let index): "sample \(index) has a NaN or infinite component"
        case .didNotConverge(let iterations): "the refinement did not converge in \(iterations) iterations"
        case .estimation(let error): "\(error)"
        case .invalidFieldStrength(let value): "the field strength must be a finite number of µT greater than 0, not \(value)"
        case .outOfRange(let reason): "the calibration is outside the valid range of a calibration file: \(reason)"
        }
    }
}
