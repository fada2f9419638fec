/// Members that MotionFusion 0.5 and earlier added to every client's `SIMD3`. They still compile,
/// with a deprecation warning, and will be removed in 1.0. Write the arithmetic out
/// (`(v * v).sum().squareRoot()`, `(a * b).sum()`) or use `simd` on Apple platforms.
extension SIMD3 where Scalar: FusionScalar {
    /// The Euclidean length `√(x² + y² + z²)`.
    @available(*, deprecated, message: "not MotionFusion API; write (v * v).sum().squareRoot()")
    @inlinable
    public var lengthOfVector: Scalar { (self * self).sum().squareRoot() }

    /// The dot product.
    @available(*, deprecated, message: "not MotionFusion API; write (a * b).sum()")
    @inlinable
    public func dotProduct(_ other: SIMD3) -> Scalar { (self * other).sum() }

    /// The right-handed cross product `self × other`.
    @available(*, deprecated, message: "not MotionFusion API; write out the cross product")
    @inlinable
    public func crossProduct(_ other: SIMD3) -> SIMD3 {
        SIMD3(y * other.z - z * other.y, z * other.x - x * other.z, x * other.y - y * other.x)
    }
}
