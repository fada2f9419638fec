import RealModule

/// Root-mean-square orientation errors in degrees, as the BROAD benchmark scores them.
public struct OrientationErrorSummary: Sendable, Hashable, Codable, CustomStringConvertible {
    /// RMS of the total error angle, degrees.
    public var total: Double
    /// RMS of the heading error (rotation about the vertical), degrees.
    public var heading: Double
    /// RMS of the inclination error (tilt), degrees.
    public var inclination: Double
    /// How many samples were scored.
    public var count: Int

    public var description: String {
        "total \(total)°, heading \(heading)°, inclination \(inclination)° over \(count) samples"
    }
}

/// BROAD's orientation error measures (D. Laidig et al., "BROAD — A Benchmark for Robust Inertial
/// Orientation Estimation", Data 6(7):72, 2021; `broad_utils.py`).
///
/// With an estimate and a reference attitude, both sensor → earth with the same earth frame (z
/// vertical), the error quaternion in the earth frame is `e = q_est ⊗ q_ref⁻¹`, and
/// - total error = `2 acos|e_w|`,
/// - heading error = `2 atan(|e_z| / |e_w|)` (the rotation about the vertical),
/// - inclination error = `2 acos √(e_w² + e_z²)` (the rest: tilt).
public enum OrientationErrors {
    /// The three error angles of one sample, radians. Non-finite input gives NaN angles.
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

    /// RMS errors over the samples where `scored` is true and the reference is finite (BROAD: the
    /// movement phase, without optical dropouts).
    ///
    /// - Precondition: the three arrays have the same length.
    public static func summary(
        estimates: [Quaternion<Double>], references: [Quaternion<Double>], scored: [Bool]
    ) -> OrientationErrorSummary {
        precondition(estimates.count == references.count && references.count == scored.count)
        var sums = SIMD3<Double>.zero
        var count = 0
        for i in estimates.indices where scored[i] && references[i].isFinite {
            let (t, h, inc) = angles(estimate: estimates[i], reference: references[i])
            sums += SIMD3(t * t, h * h, inc * inc)
            count += 1
        }
        let rms = (sums / Double(max(count, 1))).squareRoot() * (180 / Double.pi)
        return OrientationErrorSummary(total: rms.x, heading: rms.y, inclination: rms.z, count: count)
    }
}

extension SIMD3 where Scalar == Double {
    @usableFromInline
    func squareRoot() -> SIMD3 { SIMD3(x.squareRoot(), y.squareRoot(), z.squareRoot()) }
}
