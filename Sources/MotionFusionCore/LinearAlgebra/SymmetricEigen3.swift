/// Eigenvalues and eigenvectors of a symmetric 3 × 3 matrix by the cyclic Jacobi method: plain
/// Swift, no LAPACK, no allocation, so the core can find singular values and nearest rotations in
/// every build (Embedded Swift included). Jacobi rotations are backward stable and give small
/// eigenvalues with high relative accuracy; a 3 × 3 matrix converges in a handful of sweeps.
@usableFromInline
package struct SymmetricEigen3: Sendable {
    /// The eigenvalues, largest first.
    package var values: SIMD3<Double>
    /// The unit eigenvectors, in the order of ``values``; a right-handed orthonormal basis.
    package var vectors: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    /// Decomposes the symmetric matrix with columns `c0`, `c1`, `c2` (only the upper triangle is
    /// read). Nil when an element is not finite.
    package init?(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        // Row-major 3 × 3 in SIMD16 lanes (0–8): no heap allocation, for Embedded builds too.
        var a = SIMD16<Double>(repeating: 0)
        a[0] = c0.x; a[1] = c1.x; a[2] = c2.x
        a[3] = c1.x; a[4] = c1.y; a[5] = c2.y
        a[6] = c2.x; a[7] = c2.y; a[8] = c2.z
        for i in 0..<9 where !a[i].isFinite { return nil }
        var v = SIMD16<Double>(repeating: 0)  // v[3 i + k] is component i of vector k
        v[0] = 1; v[4] = 1; v[8] = 1
        for _ in 0..<50 {
            let off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5]
            let diagonal = a[0] * a[0] + a[4] * a[4] + a[8] * a[8]
            if off == 0 || off <= Double.ulpOfOne * Double.ulpOfOne * diagonal { break }
            for pair in 0..<3 {
                let (p, q) = pair == 0 ? (0, 1) : pair == 1 ? (0, 2) : (1, 2)
                guard a[3 * p + q] != 0 else { continue }
                // The rotation that zeroes a[p][q] (Golub and Van Loan, Algorithm 8.5.1).
                let apq = a[3 * p + q]
                let theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq)
                let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot()
                let s = t * c
                for k in 0..<3 {
                    let akp = a[3 * k + p], akq = a[3 * k + q]
                    a[3 * k + p] = c * akp - s * akq
                    a[3 * k + q] = s * akp + c * akq
                }
                for k in 0..<3 {
                    let apk = a[3 * p + k], aqk = a[3 * q + k]
                    a[3 * p + k] = c * apk - s * aqk
                    a[3 * q + k] = s * apk + c * aqk
                }
                for k in 0..<3 {
                    let vkp = v[3 * k + p], vkq = v[3 * k + q]
                    v[3 * k + p] = c * vkp - s * vkq
                    v[3 * k + q] = s * vkp + c * vkq
                }
            }
        }
        // Sort the three eigenvalues, largest first.
        var order = SIMD3<Int>(0, 1, 2)
        func value(_ k: Int) -> Double { a[4 * k] }
        if value(order[1]) > value(order[0]) { order = SIMD3(order[1], order[0], order[2]) }
        if value(order[2]) > value(order[1]) { order = SIMD3(order[0], order[2], order[1]) }
        if value(order[1]) > value(order[0]) { order = SIMD3(order[1], order[0], order[2]) }
        func column(_ k: Int) -> SIMD3<Double> { SIMD3(v[k], v[3 + k], v[6 + k]) }
        let e0 = column(order[0])
        let e1 = column(order[1])
        values = SIMD3(value(order[0]), value(order[1]), value(order[2]))
        vectors = (e0, e1, e0.cross(e1))
    }
}

extension RotationMatrix {
    /// The singular values of this 3 × 3 matrix (any matrix, not only a rotation), largest first,
    /// from the eigenvalues of MᵀM; nil when an element is not finite. Each `s_k` errs by about
    /// `ulp · s₁² / s_k`: relatively accurate for a well-conditioned matrix (the calibration checks
    /// reject condition numbers above 10), not for a nearly singular one, where LAPACK's SVD is
    /// needed (MotionFusionEstimation).
    package var singularValues: SIMD3<Double>? {
        var m = RotationMatrix<Double>(self)
        guard m.isFinite else { return nil }
        // Scaled to elements ≤ 1 first, so that MᵀM neither overflows nor underflows.
        let largest = m.maximumDifference(to: RotationMatrix<Double>(columns: .zero, .zero, .zero))
        guard largest > 0 else { return .zero }
        m = RotationMatrix<Double>(columns: m.column0 / largest, m.column1 / largest, m.column2 / largest)
        let g0 = m.transposed * m
        guard let e = SymmetricEigen3(columns: g0.column0, g0.column1, g0.column2) else { return nil }
        let s = SIMD3(e.values.x.squareRoot(), max(e.values.y, 0).squareRoot(), max(e.values.z, 0).squareRoot())
        return s * largest
    }
}
