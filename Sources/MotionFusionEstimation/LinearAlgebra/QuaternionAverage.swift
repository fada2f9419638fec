import MotionFusionCore
import RealModule

extension Quaternion {
    /// The weighted average rotation of unit quaternions by Markley's method: the eigenvector with the
    /// largest eigenvalue of `M = Σ wᵢ qᵢ qᵢᵀ` (LAPACK `dsyev`), which maximizes `Σ wᵢ (qᵢ · q)²`.
    ///
    /// Sign-invariant: `q` and `−q` count as the same rotation. Each input is normalized first. The
    /// result has `w ≥ 0`. This is the same average as SciPy's `Rotation.mean`.
    ///
    /// - Parameters:
    ///   - quaternions: at least one quaternion.
    ///   - weights: one non-negative finite weight each; `nil` for all 1.
    /// - Throws: ``EstimationError/tooFewInputs(needed:found:)`` for an empty array,
    ///   ``EstimationError/countMismatch(expected:found:)``,
    ///   ``EstimationError/nonFiniteInput(index:)`` (also for a zero quaternion),
    ///   ``EstimationError/invalidWeight(index:)``, and ``EstimationError/notUnique(reason:)``
    ///   when the two largest eigenvalues of M are within `0.01·√ulp·Σwᵢ` (for example two rotations
    ///   180° apart with equal weights: every point between them is as good).
    @_specialize(where Scalar == Double)
    @_specialize(where Scalar == Float)
    public static func average(
        _ quaternions: [Quaternion], weights: [Scalar]? = nil
    ) throws(EstimationError) -> Quaternion {
        guard !quaternions.isEmpty else { throw .tooFewInputs(needed: 1, found: 0) }
        if let weights, weights.count != quaternions.count {
            throw .countMismatch(expected: quaternions.count, found: weights.count)
        }
        var m = [Double](repeating: 0, count: 16)
        var weightSum = 0.0
        for (index, q) in quaternions.enumerated() {
            let w = Double(weights?[index] ?? 1)
            guard w.isFinite, w >= 0 else { throw .invalidWeight(index: index) }
            let qd = Quaternion<Double>(q)
            guard qd.isFinite, qd.lengthSquared.isNormal else { throw .nonFiniteInput(index: index) }
            let u = qd.normalized().components
            for i in 0..<4 {
                for j in 0..<4 { m[j * 4 + i] += w * u[i] * u[j] }
            }
            weightSum += w
        }
        guard weightSum > 0 else { throw .invalidWeight(index: -1) }
        let (values, vectors) = try LAPACK.symmetricEigen(m, order: 4)
        guard values[3] - values[2] > 0.01 * Double(Scalar.ulpOfOne).squareRoot() * weightSum else {
            throw .notUnique(reason: "the rotations are spread so that no single mean is best")
        }
        var q = SIMD4(vectors[12], vectors[13], vectors[14], vectors[15])
        if q[0] < 0 { q = -q }
        return Quaternion(Quaternion<Double>(components: q).normalized())
    }
}
