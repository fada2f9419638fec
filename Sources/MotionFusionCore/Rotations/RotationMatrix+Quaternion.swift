import RealModule

extension RotationMatrix {
    /// The matrix of a quaternion's rotation: `R * v == q.act(on: v)`.
    ///
    /// A non-unit quaternion is treated as its normalized direction (the products are scaled by
    /// `2 / |q|²`). Recovery: a zero or non-finite quaternion gives ``identity``.
    @inlinable
    public init(_ q: Quaternion<Scalar>) {
        let n2 = q.lengthSquared
        guard n2.isNormal else {
            self = .identity
            return
        }
        let s = 2 / n2
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        let xx = x * x * s, yy = y * y * s, zz = z * z * s
        let xy = x * y * s, xz = x * z * s, yz = y * z * s
        let wx = w * x * s, wy = w * y * s, wz = w * z * s
        self.init(
            columns: SIMD3(1 - yy - zz, xy + wz, xz - wy),
            SIMD3(xy - wz, 1 - xx - zz, yz + wx),
            SIMD3(xz + wy, yz - wx, 1 - xx - yy))
    }

    /// The unit quaternion of this rotation, with `w ≥ 0`, by Shepperd's method: it starts from the
    /// largest of `w², x², y², z²` (from the trace and the diagonal), so no division by a small
    /// number occurs, and it is exact to rounding at every angle including 180°.
    ///
    /// A matrix that is not exactly orthonormal gives the normalized quaternion of its nearly
    /// orthonormal rotation; call ``orthonormalized()`` first for a far-off matrix. Recovery: a
    /// matrix with NaN or infinite elements gives ``Quaternion/identity`` (check ``isFinite``).
    @inlinable
    public var quaternion: Quaternion<Scalar> {
        let m00 = column0.x, m10 = column0.y, m20 = column0.z
        let m01 = column1.x, m11 = column1.y, m21 = column1.z
        let m02 = column2.x, m12 = column2.y, m22 = column2.z
        let trace = m00 + m11 + m22
        var q: SIMD4<Scalar>
        if trace >= m00 && trace >= m11 && trace >= m22 {
            let s = (1 + trace).squareRoot() * 2
            q = SIMD4(s / 4, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s)
        } else if m00 >= m11 && m00 >= m22 {
            let s = (1 + m00 - m11 - m22).squareRoot() * 2
            q = SIMD4((m21 - m12) / s, s / 4, (m01 + m10) / s, (m02 + m20) / s)
        } else if m11 >= m22 {
            let s = (1 + m11 - m00 - m22).squareRoot() * 2
            q = SIMD4((m02 - m20) / s, (m01 + m10) / s, s / 4, (m12 + m21) / s)
        } else {
            let s = (1 + m22 - m00 - m11).squareRoot() * 2
            q = SIMD4((m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, s / 4)
        }
        if q[0] < 0 { q = -q }
        return Quaternion(components: q).normalized()
    }
}

extension Quaternion {
    /// The quaternion of a rotation matrix (Shepperd's method); see ``RotationMatrix/quaternion``.
    @inlinable
    public init(_ matrix: RotationMatrix<Scalar>) {
        self = matrix.quaternion
    }
}
