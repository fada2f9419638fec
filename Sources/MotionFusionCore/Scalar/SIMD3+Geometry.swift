/// The vector products the package's own code uses. `package`, not `public`: they are not part of
/// MotionFusion's API and never appear in a client's code (the public names they replace are
/// deprecated forwards in `SIMD3+Deprecated.swift`).
extension SIMD3 where Scalar: FusionScalar {
    /// The Euclidean length `√(x² + y² + z²)`, without intermediate overflow or underflow
    /// (``VectorCheck/length(_:)``).
    @inlinable @inline(__always)
    package var length: Scalar { VectorCheck.length(self) }

    /// The dot product.
    @inlinable @inline(__always)
    package func dot(_ other: SIMD3) -> Scalar {
        (self * other).sum()
    }

    /// The right-handed cross product `self × other`.
    @inlinable @inline(__always)
    package func cross(_ other: SIMD3) -> SIMD3 {
        SIMD3(
            self.y * other.z - self.z * other.y,
            self.z * other.x - self.x * other.z,
            self.x * other.y - self.y * other.x)
    }
}
