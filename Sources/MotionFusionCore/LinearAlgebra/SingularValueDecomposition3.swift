/// The singular value decomposition M = U S Vᵀ of a 3 × 3 matrix by one-sided Jacobi (Hestenes):
/// plane rotations V applied to M's columns until they are orthogonal, so that M V = U S, whose
/// column norms are the singular values. Plain Swift, no LAPACK, no allocation, so the core finds
/// singular values and nearest rotations in every build (Embedded Swift included).
///
/// Working on M itself, not on MᵀM (whose eigenvectors square M's condition number), each singular
/// value errs by a few ulp of s₁ and the singular vectors by about ulp · s₁ / gap, as LAPACK's
/// `dgesvd`: the tests check both against it.
@usableFromInline
package struct SingularValueDecomposition3: Sendable {
    /// The singular values, largest first, in the matrix's own scale.
    package var values: SIMD3<Double>
    /// M vₖ in the order of ``values``, divided by the matrix's largest element: orthogonal columns
    /// of lengths sₖ / that element (uₖ times it; a zero column where sₖ is 0).
    package var scaledLeft: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
    /// The right singular vectors, in the order of ``values``: an orthonormal basis.
    package var right: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    /// Decomposes `m`; nil when an element is not finite or every element is 0.
    package init?(_ m: RotationMatrix<Double>) {
        guard m.isFinite else { return nil }
        // Scaled to elements ≤ 1 first, so that squared norms neither overflow nor underflow.
        let largest = m.maximumDifference(to: RotationMatrix(columns: .zero, .zero, .zero))
        guard largest > 0 else { return nil }
        var a = (m.column0 / largest, m.column1 / largest, m.column2 / largest)
        var v = (SIMD3<Double>(1, 0, 0), SIMD3<Double>(0, 1, 0), SIMD3<Double>(0, 0, 1))
        for _ in 0..<30 {
            var rotated = false
            for pair in 0..<3 {
                let (p, q) = pair == 0 ? (0, 1) : pair == 1 ? (0, 2) : (1, 2)
                let ap = Self.column(a, p), aq = Self.column(a, q)
                let alpha = (ap * ap).sum(), beta = (aq * aq).sum(), gamma = (ap * aq).sum()
                // Orthogonal to rounding (or a column is zero): nothing to rotate.
                guard gamma != 0, abs(gamma) > Double.ulpOfOne * (alpha * beta).squareRoot() else { continue }
                rotated = true
                // The rotation that makes columns p and q orthogonal (Golub and Van Loan, 8.6.3).
                let zeta = (beta - alpha) / (2 * gamma)
                let t = (zeta >= 0 ? 1 : -1) / (abs(zeta) + (1 + zeta * zeta).squareRoot())
                let c = 1 / (1 + t * t).squareRoot()
                let s = c * t
                Self.setColumn(&a, p, c * ap - s * aq)
                Self.setColumn(&a, q, s * ap + c * aq)
                let vp = Self.column(v, p), vq = Self.column(v, q)
                Self.setColumn(&v, p, c * vp - s * vq)
                Self.setColumn(&v, q, s * vp + c * vq)
            }
            if !rotated { break }
        }
        // Largest first (no array: nothing allocates).
        let norms = SIMD3((a.0 * a.0).sum(), (a.1 * a.1).sum(), (a.2 * a.2).sum())
        var (first, second, third) = (0, 1, 2)
        if norms[first] < norms[second] { swap(&first, &second) }
        if norms[second] < norms[third] { swap(&second, &third) }
        if norms[first] < norms[second] { swap(&first, &second) }
        values = SIMD3(norms[first], norms[second], norms[third]).squareRoot() * largest
        scaledLeft = (Self.column(a, first), Self.column(a, second), Self.column(a, third))
        right = (Self.column(v, first), Self.column(v, second), Self.column(v, third))
    }

    @inline(__always)
    static func column(_ m: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>), _ k: Int) -> SIMD3<Double> {
        k == 0 ? m.0 : k == 1 ? m.1 : m.2
    }

    @inline(__always)
    static func setColumn(_ m: inout (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>), _ k: Int, _ c: SIMD3<Double>) {
        switch k {
        case 0: m.0 = c
        case 1: m.1 = c
        default: m.2 = c
        }
    }
}

extension RotationMatrix {
    /// The singular values of this 3 × 3 matrix (any matrix, not only a rotation), largest first
    /// (``SingularValueDecomposition3``: each errs by a few ulp of the largest); zero for the zero
    /// matrix, nil when an element is not finite.
    package var singularValues: SIMD3<Double>? {
        let m = RotationMatrix<Double>(self)
        guard m.isFinite else { return nil }
        return SingularValueDecomposition3(m)?.values ?? .zero
    }
}
