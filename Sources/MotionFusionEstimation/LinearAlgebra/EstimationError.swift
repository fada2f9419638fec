/// Why an estimate (Wahba's problem, a quaternion mean, a fit) could not be computed.
public enum EstimationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Input arrays that must pair up have different lengths.
    case countMismatch(expected: Int, found: Int)
    /// Fewer inputs than the estimate needs.
    case tooFewInputs(needed: Int, found: Int)
    /// The input at `index` has a NaN or infinite component.
    case nonFiniteInput(index: Int)
    /// The weight at `index` is negative or not finite, or (index −1) all weights are zero.
    case invalidWeight(index: Int)
    /// The input does not determine a unique answer (the reason says why).
    case notUnique(reason: String)
    /// A LAPACK routine reported failure (its `info` code).
    case lapackFailure(routine: String, info: Int)
    /// A matrix dimension beyond what LAPACK's 32-bit integers hold (2³¹ − 1).
    case tooLarge(routine: String, size: Int)

    public var description: String {
        switch self {
        case .countMismatch(let expected, let found):
            "expected \(expected) inputs to pair with, found \(found)"
        case .tooFewInputs(let needed, let found):
            "needs at least \(needed) input\(needed == 1 ? "" : "s"), found \(found)"
        case .nonFiniteInput(let index):
            "input \(index) has a NaN or infinite component"
        case .invalidWeight(let index):
            index < 0 ? "all weights are zero" : "weight \(index) is negative or not finite"
        case .notUnique(let reason):
            "the answer is not unique: \(reason)"
        case .lapackFailure(let routine, let info):
            "LAPACK \(routine) failed (info \(info))"
        case .tooLarge(let routine, let size):
            "LAPACK \(routine) cannot take a dimension of \(size) (at most 2147483647)"
        }
    }
}
