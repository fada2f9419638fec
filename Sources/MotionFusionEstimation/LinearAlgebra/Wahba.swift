import MotionFusionCore
import RealModule

/// Wahba's problem: the rotation that best aligns vector observations with their references.
///
/// Given reference vectors `aᵢ` (say, earth-frame gravity and magnetic field), the same vectors
/// observed in the sensor frame `bᵢ`, and weights `wᵢ`, find the rotation `R` (sensor → reference, like
/// every attitude in MotionFusion) minimizing `Σ wᵢ |aᵢ − R bᵢ|²`. The vectors are used **as given**:
/// their lengths act as weights, as in SciPy's `Rotation.align_vectors`; normalize them first for
/// direction-only observations.
public enum Wahba {
    /// Solves Wahba's problem.
    ///
    /// - Parameters:
    ///   - reference: the vectors in the reference (earth) frame, `aᵢ`.
    ///   - observed: the same vectors in the sensor frame, `bᵢ`.
    ///   - weights: one non-negative finite weight per pair; `nil` for all 1.
    ///   - method: ``WahbaMethod/davenport`` (default) or ``WahbaMethod/svd``; both give the same
    ///     rotation to rounding.
    /// - Throws: ``EstimationError/countMismatch(expected:found:)`` when the arrays differ in length;
    ///   ``EstimationError/tooFewInputs(needed:found:)`` for fewer than 2 pairs;
    ///   ``EstimationError/nonFiniteInput(index:)``; ``EstimationError/invalidWeight(index:)``;
    ///   ``EstimationError/notUnique(reason:)`` when the pairs do not determine the rotation
    ///   (all vectors parallel, or zero): the second-largest eigenvalue of K is within
    ///   `0.01·√ulp` (relative to Σ wᵢ|aᵢ||bᵢ|) of the largest.
    @_specialize(where Scalar == Double)
    @_specialize(where Scalar == Float)
    public static func solve<Scalar: FusionScalar>(
        reference: [SIMD3<Scalar>], observed: [SIMD3<Scalar>], weights: [Scalar]? = nil,
        method: WahbaMethod = .davenport
    ) throws(EstimationError) -> WahbaSolution<Scalar> {
        guard observed.count == reference.count else {
            throw .countMismatch(expected: reference.count, found: observed.count)
        }
        if let weights, weights.count != reference.count {
            throw .countMismatch(expected: reference.count, found: weights.count)
        }
        guard reference.count >= 2 else { throw .tooFewInputs(needed: 2, found: reference.count) }

        // All vectors are divided by their largest component c first (the optimal rotation does not
        // change), so that huge or tiny inputs neither overflow nor underflow; rssd is scaled back.
        var c = 0.0
        for index in reference.indices {
            let a = SIMD3<Double>(reference[index])
            let o = SIMD3<Double>(observed[index])
            guard VectorCheck.isFinite(a), VectorCheck.isFinite(o) else {
                throw .nonFiniteInput(index: index)
            }
            c = max(c, VectorCheck.largestMagnitude(a), VectorCheck.largestMagnitude(o))
        }
        if c == 0 { c = 1 }

        // Attitude profile matrix B = Σ w a bᵀ (row-major b[i][j]), accumulated in Double.
        var b = [[Double]](repeating: [0, 0, 0], count: 3)
        var scale = 0.0
        var weightSum = 0.0
        for index in reference.indices {
            let a = SIMD3<Double>(reference[index]) / c
            let o = SIMD3<Double>(observed[index]) / c
            let w = Double(weights?[index] ?? 1)
            guard w.isFinite, w >= 0 else { throw .invalidWeight(index: index) }
            for i in 0..<3 {
                for j in 0..<3 { b[i][j] += w * a[i] * o[j] }
            }
            scale += w * a.length * o.length
            weightSum += w
        }
        guard weightSum > 0 else { throw .invalidWeight(index: -1) }
        let tolerance = 0.01 * Double(Scalar.ulpOfOne).squareRoot() * scale

        let rotation: Quaternion<Double>
        switch method {
        case .davenport:
            rotation = try davenport(b, tolerance: tolerance)
        case .svd:
            rotation = try svd(b, tolerance: tolerance)
        }
        var sum = 0.0
        let matrix = RotationMatrix(rotation)
        for index in reference.indices {
            let r = (SIMD3<Double>(reference[index]) - matrix * SIMD3<Double>(observed[index])) / c
            sum += Double(weights?[index] ?? 1) * (r * r).sum()
        }
        return WahbaSolution(
            rotation: Quaternion<Scalar>(rotation), rootSumSquaredDistance: Scalar(c * sum.squareRoot()),
            method: method)
    }

    /// Davenport's K = [[tr B, zᵀ], [z, B + Bᵀ − tr(B) I]] with z = Σ w b × a, for quaternions in the
    /// order (w, x, y, z); its top eigenvector maximizes Σ w aᵀ R(q) b.
    static func davenport(_ b: [[Double]], tolerance: Double) throws(EstimationError) -> Quaternion<
        Double
    > {
        let trace = b[0][0] + b[1][1] + b[2][2]
        let z = [b[2][1] - b[1][2], b[0][2] - b[2][0], b[1][0] - b[0][1]]
        var k = [Double](repeating: 0, count: 16)
        k[0] = trace
        for i in 0..<3 {
            k[(i + 1) * 4] = z[i]
            k[i + 1] = z[i]
            for j in 0..<3 {
                k[(j + 1) * 4 + (i + 1)] = b[i][j] + b[j][i] - (i == j ? trace : 0)
            }
        }
        let (values, vectors) = try LAPACK.symmetricEigen(k, order: 4)
        guard values[3] - values[2] > tolerance else {
            throw .notUnique(reason: "the vector pairs do not fix every axis (all parallel or zero)")
        }
        var q = SIMD4(vectors[12], vectors[13], vectors[14], vectors[15])
        if q[0] < 0 { q = -q }
        return Quaternion(components: q).normalized()
    }

    /// R = U diag(1, 1, d) Vᵀ from B = U S Vᵀ with d = det(U) det(V), which maximizes tr(Rᵀ B): the
    /// core's ``NearestRotation`` (one-sided Jacobi SVD, plain Swift), refused when
    /// 2 (s₂ + d·s₃), the gap between the two largest eigenvalues of Davenport's K, is within
    /// `tolerance`.
    static func svd(_ b: [[Double]], tolerance: Double) throws(EstimationError) -> Quaternion<Double> {
        let profile = RotationMatrix(
            rows: SIMD3(b[0][0], b[0][1], b[0][2]), SIMD3(b[1][0], b[1][1], b[1][2]),
            SIMD3(b[2][0], b[2][1], b[2][2]))
        guard let found = NearestRotation.maximizingTrace(profile), 2 * found.margin > tolerance else {
            throw .notUnique(
                reason: "the vector pairs do not fix every axis (all parallel, zero, or a reflection)")
        }
        return found.rotation.quaternion
    }
}
