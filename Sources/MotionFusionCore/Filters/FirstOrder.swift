import RealModule

/// The first-order low-pass step and its gain: the one definition that every filter, detector and
/// estimator in the package uses.
///
/// A first-order low-pass with time constant τ, sampled after Δt, moves its state y toward the input
/// x by the fraction k = 1 − e^(−Δt/τ): y ← y + k (x − y). The gain is exact for an input held over
/// the step, so irregular sampling needs nothing more. ``FirstOrderLowPass`` holds such a state for a
/// vector; scalar and two-component states inside the filters use ``step(_:toward:gain:)-(S,_,_)``
/// directly.
@usableFromInline
package enum FirstOrder {
    /// The gain k = 1 − e^(−x) for x = Δt/τ, computed without the cancellation of `1 − exp(−x)`
    /// (which loses about log₁₀(1/x) digits when x is small): for 0 ≤ x ≤ 1/16 by the series of
    /// −expm1(−x) to x¹⁰ (truncation below 3·10⁻¹⁹ relative, no call into `libm`), otherwise as
    /// −expm1(−x). A negative x gives a negative gain, NaN gives NaN; callers clamp as they need.
    @inlinable @inline(__always)
    package static func gain<S: FusionScalar>(_ x: S) -> S {
        if x >= 0 && x <= 0.0625 {
            let c8: S = 1 - x * (1 / 10 as S)
            let c7: S = 1 - x * (1 / 9 as S) * c8
            let c6: S = 1 - x * (1 / 8 as S) * c7
            let c5: S = 1 - x * (1 / 7 as S) * c6
            let c4: S = 1 - x * (1 / 6 as S) * c5
            let c3: S = 1 - x * (1 / 5 as S) * c4
            let c2: S = 1 - x * (1 / 4 as S) * c3
            let c1: S = 1 - x * (1 / 3 as S) * c2
            return x * (1 - x * (1 / 2 as S) * c1)
        }
        return -S.expMinusOne(-x)
    }

    /// The gain for a step of `dt` seconds and time constant `timeConstant` seconds; 1 (the input
    /// passes unfiltered) when the time constant is not positive (0, negative or NaN).
    @inlinable @inline(__always)
    package static func gain<S: FusionScalar>(dt: S, timeConstant: S) -> S {
        guard timeConstant > 0 else { return 1 }
        return gain(dt / timeConstant)
    }

    /// One low-pass step of a scalar state: `y += (x − y) · k`.
    @inlinable @inline(__always)
    package static func step<S: FloatingPoint>(_ y: inout S, toward x: S, gain k: S) {
        y += (x - y) * k
    }

    /// One low-pass step of a vector state, every component with the same gain: `y += (x − y) · k`.
    @inlinable @inline(__always)
    package static func step<V: SIMD>(_ y: inout V, toward x: V, gain k: V.Scalar) where V.Scalar: FloatingPoint {
        y += (x - y) * k
    }
}
