/// The rotation nearest a 3 × 3 matrix in the Frobenius norm (the orthogonal Procrustes problem:
/// R = U diag(1, 1, det U det V) Vᵀ for M = U S Vᵀ), from ``SingularValueDecomposition3`` (plain
/// Swift, no LAPACK, no allocation: Embedded builds too). The one nearest rotation of the package:
/// ``RotationMatrix/orthonormalized()`` falls back on it, and Wahba's problem by SVD
/// (MotionFusionEstimation) is ``maximizingTrace(_:)``.
@usableFromInline
package enum NearestRotation {
    /// A nearest rotation of any finite non-zero matrix (one of several where it is not unique, as
    /// for a matrix of rank one or a reflection), or nil for the zero matrix or a non-finite one.
    @usableFromInline
    package static func ofMatrix<Scalar: FusionScalar>(_ m: RotationMatrix<Scalar>) -> RotationMatrix<Scalar>? {
        guard m.isFinite else { return nil }
        return decomposed(RotationMatrix<Double>(m)).map { RotationMatrix<Scalar>($0.rotation) }
    }

    /// The nearest rotation and the largest singular value s₁ of `m`, in `m`'s scale, from
    /// ``SingularValueDecomposition3`` (accurate as LAPACK's SVD: Wahba's rotation from two vectors
    /// or from nearly parallel ones stays as accurate as Davenport's).
    static func decomposed(_ m: RotationMatrix<Double>) -> (rotation: RotationMatrix<Double>, s1: Double)? {
        guard let svd = SingularValueDecomposition3(m) else { return nil }
        let (a0, a1, _) = svd.scaledLeft
        guard let u0 = VectorCheck.direction(a0) else { return nil }
        // The second left singular vector, with its u₀ part removed twice (one Gram–Schmidt pass
        // leaves rounding noise along u₀ when a₁ is itself mostly noise). Below a few ulp of s₁ it is
        // noise: rank one, where any unit vector perpendicular to u₀ gives a nearest rotation.
        var w = a1
        w -= (w * u0).sum() * u0
        w -= (w * u0).sum() * u0
        let u1: SIMD3<Double>
        if (w * w).sum().squareRoot() > 16 * Double.ulpOfOne * (a0 * a0).sum().squareRoot(),
            let n = VectorCheck.direction(w)
        {
            u1 = n
        } else {
            let helper: SIMD3<Double> = abs(u0.x) < 0.9 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
            var h = helper - (helper * u0).sum() * u0
            h -= (h * u0).sum() * u0
            guard let n = VectorCheck.direction(h) else { return nil }
            u1 = n
        }
        // Right-handed bases on both sides: u₂ = u₀ × u₁ and v₂ = v₀ × v₁ put the Procrustes sign
        // d = det U det V in.
        let (v0, v1, _) = svd.right
        let u = RotationMatrix<Double>(columns: u0, u1, u0.cross(u1))
        let v = RotationMatrix<Double>(columns: v0, v1, v0.cross(v1))
        return (u * v.transposed, svd.values.x)
    }

    /// The rotation R maximizing tr(Rᵀ M) (Wahba's problem for the attitude profile matrix M, which
    /// is the nearest rotation to M) and its uniqueness margin s₂ + d·s₃ (M = U S Vᵀ, d = det U det V):
    /// the maximizer is unique when the margin is positive, and Davenport's K has the gap
    /// 2 (s₂ + d·s₃) between its two largest eigenvalues (Markley). Nil for the zero matrix or a
    /// non-finite one.
    ///
    /// The margin is computed as tr(Rᵀ M) − s₁ = s₁ + s₂ + d·s₃ − s₁, which needs no sign d: the trace
    /// is stationary at the maximizer, so an error ε in R changes it by ε² s₁ only, and the margin
    /// errs by a few ulp of s₁, even when M has rank one or two, where the uniqueness test matters.
    package static func maximizingTrace(_ m: RotationMatrix<Double>) -> (rotation: RotationMatrix<Double>, margin: Double)? {
        guard let found = decomposed(m) else { return nil }
        // |tr(Rᵀ M)| ≤ 3 max|mᵢⱼ|: no scaling needed for it to stay finite.
        let r = found.rotation
        let trace = (r.column0 * m.column0).sum() + (r.column1 * m.column1).sum() + (r.column2 * m.column2).sum()
        return (r, trace - found.s1)
    }
}
