/// A small 3 × 3 matrix (column storage) for the filters' covariance arithmetic: products,
/// transpose and inverse written out, no allocation. Internal: the public API speaks in
/// ``RotationMatrix`` and `SIMD3` only.
@frozen @usableFromInline
struct Matrix3<Scalar: FusionScalar>: Sendable, Equatable {
    @usableFromInline var c0: SIMD3<Scalar>
    @usableFromInline var c1: SIMD3<Scalar>
    @usableFromInline var c2: SIMD3<Scalar>

    @inlinable init(columns c0: SIMD3<Scalar>, _ c1: SIMD3<Scalar>, _ c2: SIMD3<Scalar>) {
        self.c0 = c0
        self.c1 = c1
        self.c2 = c2
    }

    @inlinable init(rows r0: SIMD3<Scalar>, _ r1: SIMD3<Scalar>, _ r2: SIMD3<Scalar>) {
        c0 = SIMD3(r0.x, r1.x, r2.x)
        c1 = SIMD3(r0.y, r1.y, r2.y)
        c2 = SIMD3(r0.z, r1.z, r2.z)
    }

    /// `s` times the identity.
    @inlinable init(diagonal s: Scalar) {
        c0 = SIMD3(s, 0, 0)
        c1 = SIMD3(0, s, 0)
        c2 = SIMD3(0, 0, s)
    }

    /// `diag(d)`.
    @inlinable init(diagonal d: SIMD3<Scalar>) {
        c0 = SIMD3(d.x, 0, 0)
        c1 = SIMD3(0, d.y, 0)
        c2 = SIMD3(0, 0, d.z)
    }

    @inlinable var diagonal: SIMD3<Scalar> { SIMD3(c0.x, c1.y, c2.z) }

    @inlinable var transposed: Matrix3 { Matrix3(rows: c0, c1, c2) }

    /// `M v`.
    @inlinable @inline(__always)
    static func * (m: Matrix3, v: SIMD3<Scalar>) -> SIMD3<Scalar> {
        m.c0 * v.x + m.c1 * v.y + m.c2 * v.z
    }

    /// `A B`.
    @inlinable @inline(__always)
    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(columns: a * b.c0, a * b.c1, a * b.c2)
    }

    @inlinable @inline(__always)
    static func + (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(columns: a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2)
    }

    @inlinable @inline(__always)
    static func - (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(columns: a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2)
    }

    /// The inverse by the adjugate, or nil when the determinant is not a normal number relative to
    /// the matrix's scale (singular, or non-finite elements).
    @inlinable
    var inverse: Matrix3? {
        // Rows of the inverse are the cross products of the columns, divided by the determinant.
        let r0 = c1.crossProduct(c2)
        let r1 = c2.crossProduct(c0)
        let r2 = c0.crossProduct(c1)
        let det = (c0 * r0).sum()
        guard det.isNormal else { return nil }
        let s = 1 / det
        return Matrix3(rows: r0 * s, r1 * s, r2 * s)
    }

    /// `(A + Aᵀ) / 2`: removes the asymmetry rounding leaves in a covariance update.
    @inlinable
    var symmetrized: Matrix3 {
        let xy = (c1.x + c0.y) / 2
        let xz = (c2.x + c0.z) / 2
        let yz = (c2.y + c1.z) / 2
        return Matrix3(columns: SIMD3(c0.x, xy, xz), SIMD3(xy, c1.y, yz), SIMD3(xz, yz, c2.z))
    }

    @inlinable var isFinite: Bool {
        ((c0 + c1 + c2) * 0) == .zero
    }
}
