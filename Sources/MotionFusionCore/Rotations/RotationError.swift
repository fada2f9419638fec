/// Why a rotation could not be built from the input it was given.
public enum RotationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A vector had zero (or subnormal) length, so it has no direction.
    case zeroLengthVector
    /// An input had a NaN or infinite component.
    case nonFiniteInput
    /// A quaternion of zero length (or non-finite) cannot be an attitude.
    case notARotation

    public var description: String {
        switch self {
        case .zeroLengthVector: "a vector of zero length has no direction"
        case .nonFiniteInput: "the input has a NaN or infinite component"
        case .notARotation: "a zero or non-finite quaternion is not a rotation"
        }
    }
}
