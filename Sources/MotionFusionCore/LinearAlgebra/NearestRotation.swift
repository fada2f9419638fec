/// The rotation nearest a 3 × 3 matrix in the Frobenius norm (the orthogonal Procrustes problem:
/// R = U diag(1, 1, det U det V) Vᵀ for M = U S Vᵀ), from the eigenvectors of MᵀM — the right
/// singular vectors — in plain Swift.
@usableFromInline
package enum NearestRotation {
    /// A nearest rotation of any finite non-zero matrix (one of several where it is not unique, as
    /// for a matrix of rank one or a reflection), or nil for the zero matrix or a non-finite one.
    @usableFromInline
    package static func ofMatrix<Scalar: FusionScalar>(_ m: RotationMatrix<Scalar>) -> RotationMatrix<Scalar>? {
        guard m.isFinite else { return nil }
        var d = RotationMatrix<Double>(m)
        // The nearest rotation of c·M is that of M (c > 0): scale to elements ≤ 1 first.
        let largest = d.maximumDifference(to: RotationMatrix(columns: .zero, .zero, .zero))
        guard largest > 0 else { return nil }
        d = RotationMatrix(columns: d.column0 / largest, d.column1 / largest, d.column2 / largest)
        let g = d.transposed * d
        guard let e = SymmetricEigen3(columns: g.column0, g.column1, g.column2) else { return nil }
        let (v0, v1, v2) = e.vectors
        // u_i = M v_i / s_i for the two largest singular values; the third completes a right-handed
        // basis, which puts the sign d = det U det V of the Procrustes solution in.
        guard let u0 = VectorCheck.direction(d * v0) else { return nil }
        // M v₁ with its u₀ part removed, twice (one Gram–Schmidt pass leaves rounding noise along u₀
        // when M v₁ is itself mostly noise). Below a few ulp of s₁ it is noise: rank one, where any
        // unit vector perpendicular to u₀ gives a nearest rotation.
        var w = d * v1
        w -= (w * u0).sum() * u0
        w -= (w * u0).sum() * u0
        let s1 = e.values.x.squareRoot()
        let u1: SIMD3<Double>
        if (w * w).sum().squareRoot() > 16 * Double.ulpOfOne * s1, let n = VectorCheck.direction(w) {
            u1 = n
        } else {
            let helper: SIMD3<Double> = abs(u0.x) < 0.9 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
            var h = helper - (helper * u0).sum() * u0
            h -= (h * u0).sum() * u0
            guard let n = VectorCheck.direction(h) else { return nil }
            u1 = n
        }
        let u = RotationMatrix<Double>(columns: u0, u1, u0.cross(u1))
        let v = RotationMatrix<Double>(columns: v0, v1, v2)
        return RotationMatrix<Scalar>(u * v.transposed)
    }
}
