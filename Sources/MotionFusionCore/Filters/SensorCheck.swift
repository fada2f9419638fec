/// Checks shared by the filters' updates.
@usableFromInline
package enum SensorCheck {
    /// The vector divided by its length, or nil when it has no usable direction (zero, subnormal
    /// length, NaN or infinity).
    @inlinable @inline(__always)
    package static func direction<S: FusionScalar>(_ v: SIMD3<S>) -> SIMD3<S>? {
        let n2 = (v * v).sum()
        guard n2.isNormal else { return nil }  // zero, subnormal, infinite or NaN
        return v * (1 / n2.squareRoot())
    }

    /// True when the vector has a usable direction (what ``direction(_:)`` tests, without the
    /// square root and division).
    @inlinable @inline(__always)
    package static func hasDirection<S: FusionScalar>(_ v: SIMD3<S>) -> Bool {
        (v * v).sum().isNormal
    }

    /// The largest absolute component (NaN compares false, so a NaN vector returns a smaller value).
    @inlinable @inline(__always)
    package static func largestMagnitude<S: FusionScalar>(_ v: SIMD3<S>) -> S {
        max(abs(v.x), max(abs(v.y), abs(v.z)))
    }

    /// True when all three components are finite.
    @inlinable @inline(__always)
    package static func isFinite<S: FusionScalar>(_ v: SIMD3<S>) -> Bool {
        (v * 0) == .zero
    }
}
