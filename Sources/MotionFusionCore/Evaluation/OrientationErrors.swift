import RealModule

/// BROAD's orientation error measures (D. Laidig et al., "BROAD — A Benchmark for Robust Inertial
/// Orientation Estimation", Data 6(7):72, 2021; `broad_utils.py`).
///
/// With an estimate and a reference attitude, both sensor → earth with the same earth frame (z
/// vertical), the error quaternion in the earth frame is `e = q_est ⊗ q_ref⁻¹`, and
/// - total error = `2 acos|e_w|`,
/// - heading error = `2 atan(|e_z| / |e_w|)` (the rotation about the vertical),
/// - inclination error = `2 acos √(e_w² + e_z²)` (the rest: tilt).
///
/// Heading is not observable without a magnetometer: for a 6D estimate, total and heading measure
/// an arbitrary heading offset, and inclination is the figure that means something (BROAD scores
/// 6D methods by inclination only).
///
/// A zero or non-finite quaternion is not an attitude. ``Quaternion/normalized()`` turns one into
/// the identity, which against an identity reference would score a perfect 0°; ``summary(estimates:references:scored:)``
/// leaves such samples out instead and counts them (``OrientationErrorSummary/unusableEstimates``,
/// ``OrientationErrorSummary/unusableReferences``).
public enum OrientationErrors {
    /// The three error angles of one sample, radians. Non-finite input gives NaN angles; a zero
    /// quaternion is taken as the identity (check ``isUsable(_:)`` first).
    @inlinable
    public static func angles(
        estimate: Quaternion<Double>, reference: Quaternion<Double>
    ) -> (total: Double, heading: Double, inclination: Double) {
        let e = (estimate.normalized() * reference.normalized().conjugate).components
        let w = min(abs(e[0]), 1)
        let total = 2 * Double.acos(w)
        let heading = 2 * Double.atan(abs(e[3]) / w)
        let inclination = 2 * Double.acos(min((e[0] * e[0] + e[3] * e[3]).squareRoot(), 1))
        return (total, heading, inclination)
    }

    /// True when `q` can be scored: finite and not zero, so that it has a direction (a huge or tiny
    /// but finite quaternion is rescaled by ``Quaternion/normalized()`` and counts).
    @inlinable
    public static func isUsable(_ q: Quaternion<Double>) -> Bool {
        q.isFinite && (q.w != 0 || q.x != 0 || q.y != 0 || q.z != 0)
    }

    /// RMS errors over the samples where `scored` is true and both quaternions are usable
    /// (``isUsable(_:)``): BROAD's movement phase, without optical dropouts. Samples left out for
    /// an unusable reference or estimate are counted in the summary; with no sample scored the
    /// RMS values are NaN, not 0. (``OrientationErrorAccumulator`` does the same one sample at a
    /// time, for recordings too long to hold.)
    ///
    /// - Precondition: the three arrays have the same length.
    public static func summary(
        estimates: [Quaternion<Double>], references: [Quaternion<Double>], scored: [Bool]
    ) -> OrientationErrorSummary {
        precondition(estimates.count == references.count && references.count == scored.count)
        var accumulator = OrientationErrorAccumulator()
        for i in estimates.indices { accumulator.add(estimate: estimates[i], reference: references[i], scored: scored[i]) }
        return accumulator.summary
    }
}

extension SIMD3 where Scalar == Double {
    @usableFromInline
    func squareRoot() -> SIMD3 { SIMD3(x.squareRoot(), y.squareRoot(), z.squareRoot()) }
}
