import RealModule

/// BROAD's RMS errors (``OrientationErrors``) accumulated one sample at a time, in constant memory.
public struct OrientationErrorAccumulator: Sendable, Hashable {
    /// What ``add(estimate:reference:scored:)`` did with a sample.
    public enum Outcome: Sendable, Hashable {
        /// Not to be scored (`scored` false).
        case notScored
        /// Scored.
        case scored
        /// Left out: the reference is zero or not finite.
        case unusableReference
        /// Left out: the estimate is zero or not finite (the reference is usable).
        case unusableEstimate
    }

    private var sums = SIMD3<Double>.zero
    private var count = 0, unusableEstimates = 0, unusableReferences = 0

    public init() {}

    /// Adds one sample.
    @discardableResult
    public mutating func add(estimate: Quaternion<Double>, reference: Quaternion<Double>, scored: Bool) -> Outcome {
        guard scored else { return .notScored }
        guard OrientationErrors.isUsable(reference) else {
            unusableReferences += 1
            return .unusableReference
        }
        guard OrientationErrors.isUsable(estimate) else {
            unusableEstimates += 1
            return .unusableEstimate
        }
        let (t, h, inc) = OrientationErrors.angles(estimate: estimate, reference: reference)
        sums += SIMD3(t * t, h * h, inc * inc)
        count += 1
        return .scored
    }

    /// The RMS errors so far (NaN with no sample scored).
    public var summary: OrientationErrorSummary {
        let rms = count == 0 ? SIMD3(repeating: .nan) : (sums / Double(count)).squareRoot() * (180 / Double.pi)
        return OrientationErrorSummary(
            total: rms.x, heading: rms.y, inclination: rms.z, count: count, unusableEstimates: unusableEstimates,
            unusableReferences: unusableReferences)
    }
}
