/// Lengths and directions that neither overflow for huge finite components nor underflow for tiny
/// ones: the vector is divided by its largest absolute component before squaring.
@usableFromInline
package enum ScaledLength {
    /// True when every component is finite.
    @inlinable @inline(__always)
    package static func isFinite<S: FusionScalar>(_ v: SIMD3<S>) -> Bool {
        v.x.isFinite && v.y.isFinite && v.z.isFinite
    }

    /// The unit vector along `v`, or nil when `v` is zero or has a non-finite component.
    @inlinable
    package static func direction<S: FusionScalar>(_ v: SIMD3<S>) -> SIMD3<S>? {
        let n2 = (v * v).sum()
        if n2.isNormal && n2.isFinite { return v / n2.squareRoot() }  // the common case
        guard isFinite(v) else { return nil }
        let m = max(abs(v.x), max(abs(v.y), abs(v.z)))
        guard m > 0 else { return nil }
        let u = v / m
        return u / (u * u).sum().squareRoot()
    }

    /// The Euclidean length of `v` without intermediate overflow or underflow (infinite only when
    /// the true length is).
    @inlinable
    package static func length<S: FusionScalar>(_ v: SIMD3<S>) -> S {
        let n2 = (v * v).sum()
        if n2.isNormal && n2.isFinite { return n2.squareRoot() }
        let m = max(abs(v.x), max(abs(v.y), abs(v.z)))
        guard m > 0, m.isFinite else { return isFinite(v) ? 0 : (v.x.isNaN || v.y.isNaN || v.z.isNaN ? .nan : .infinity) }
        let u = v / m
        return m * (u * u).sum().squareRoot()
    }
}
