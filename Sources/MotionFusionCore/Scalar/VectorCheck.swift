/// The checks and measures of a 3-vector, in one place, with two contracts named for what they are
/// for:
///
/// - **Geometry** (``direction(_:)``, ``hasDirection(_:)``, ``length(_:)``): vectors a caller passes
///   to build a rotation. A vector has a direction exactly when it is finite and not zero, whatever
///   its magnitude; lengths whose square overflows (above about 1.3·10¹⁵⁴ in `Double`, 1.8·10¹⁹ in
///   `Float`) or underflows are handled by dividing by the largest component first.
/// - **Sensor readings** (``readingDirection(_:)``, ``isUsableReading(_:)``): what the filters use.
///   A reading is usable when its squared length is a normal number. Below that (about 1.5·10⁻¹⁵⁴
///   in `Double`, 1.1·10⁻¹⁹ in `Float`) no sensor has measured a field, only its own zero; above
///   it no sensor reads that. The filters treat such a reading as missing, as they treat NaN,
///   infinity and zero (the documented rules the hostile-input tests check).
///
/// For every vector both contracts accept, the directions are the same bits.
@usableFromInline
package enum VectorCheck {
    /// True when all three components are finite.
    ///
    /// `x * 0` is ±0 for a finite `x` and NaN for an infinite or NaN one, and a sum with a NaN term
    /// is NaN, so the sum is zero exactly when every component is finite. Written on the components,
    /// not as `(v * 0) == .zero`: on a core without vector registers (the Cortex-M4F) the SIMD
    /// comparison was compiled into a loop over the lanes through the stack; the Madgwick filter,
    /// which tests its gyroscope reading every sample, took 525.1 estimated cycles per sample with
    /// it and 433.2 without (`scripts/embedded`).
    @inlinable @inline(__always)
    package static func isFinite<S: FusionScalar>(_ v: SIMD3<S>) -> Bool {
        (v.x * 0 + v.y * 0) + v.z * 0 == 0
    }

    /// The largest absolute component (NaN compares false, so a NaN vector returns a smaller value).
    @inlinable @inline(__always)
    package static func largestMagnitude<S: FusionScalar>(_ v: SIMD3<S>) -> S {
        max(abs(v.x), max(abs(v.y), abs(v.z)))
    }

    /// True when ``direction(_:)`` returns a direction: every component finite and one not zero.
    @inlinable @inline(__always)
    package static func hasDirection<S: FusionScalar>(_ v: SIMD3<S>) -> Bool {
        (v * v).sum().isNormal || (isFinite(v) && v != .zero)
    }

    /// The direction of a sensor reading, or nil when the reading is unusable (its squared length
    /// is zero, subnormal, infinite or NaN).
    @inlinable @inline(__always)
    package static func readingDirection<S: FusionScalar>(_ v: SIMD3<S>) -> SIMD3<S>? {
        let n2 = (v * v).sum()
        guard n2.isNormal else { return nil }
        return v * (1 / n2.squareRoot())
    }

    /// True when ``readingDirection(_:)`` returns a direction (without the square root and the
    /// division).
    @inlinable @inline(__always)
    package static func isUsableReading<S: FusionScalar>(_ v: SIMD3<S>) -> Bool {
        (v * v).sum().isNormal
    }

    /// The unit vector along `v`, or nil when `v` is zero or has a non-finite component.
    @inlinable @inline(__always)
    package static func direction<S: FusionScalar>(_ v: SIMD3<S>) -> SIMD3<S>? {
        let n2 = (v * v).sum()
        if n2.isNormal { return v * (1 / n2.squareRoot()) }  // zero, subnormal, infinite or NaN fail
        return scaledDirection(v)
    }

    /// The Euclidean length of `v` without intermediate overflow or underflow: infinite only when a
    /// component is, NaN when one is NaN.
    @inlinable
    package static func length<S: FusionScalar>(_ v: SIMD3<S>) -> S {
        let n2 = (v * v).sum()
        if n2.isNormal { return n2.squareRoot() }
        let m = largestMagnitude(v)
        guard m > 0, m.isFinite else {
            return isFinite(v) ? 0 : (v.x.isNaN || v.y.isNaN || v.z.isNaN ? .nan : .infinity)
        }
        let u = v / m
        return m * (u * u).sum().squareRoot()
    }

    /// ``direction(_:)`` for the vectors whose squared length is not a normal number.
    @inlinable @inline(never)
    static func scaledDirection<S: FusionScalar>(_ v: SIMD3<S>) -> SIMD3<S>? {
        guard isFinite(v) else { return nil }
        let m = largestMagnitude(v)
        guard m > 0 else { return nil }
        let u = v / m
        return u * (1 / (u * u).sum().squareRoot())
    }
}
