/// A small 3 × 3 matrix (column storage) for the magnetometer fits' linear algebra: the inverse
/// written out, no allocation. Internal: the public API speaks in ``RotationMatrix`` and `SIMD3`
/// only.
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

    /// The inverse by the adjugate, or nil when the determinant is not a normal number relative to
    /// the matrix's scale (singular, or non-finite elements).
    @inlinable
    var inverse: Matrix3? {
        // Rows of the inverse are the cross products of the columns, divided by the determinant.
        let r0 = c1.cross(c2)
        let r1 = c2.cross(c0)
        let r2 = c0.cross(c1)
        let det = (c0 * r0).sum()
        guard det.isNormal else { return nil }
        let s = 1 / det
        return Matrix3(rows: r0 * s, r1 * s, r2 * s)
    }
}
