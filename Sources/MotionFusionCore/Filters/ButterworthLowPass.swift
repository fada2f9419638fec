import RealModule

/// A second-order Butterworth low-pass filter specified by a time constant, discretized by the
/// bilinear transform for one sample period: the coefficients are plain numbers, the state lives
/// with the caller (two vectors per filtered signal, direct form II transposed), so one coefficient
/// set filters any number of SIMD channels with no allocation.
///
/// The cut-off is `f_c = √2 / (2π τ)`, which gives the filter a group delay of `τ` at low
/// frequencies, like a first-order low-pass of time constant `τ`, with the second order's steeper
/// attenuation (`(ω_c/ω)²`) of faster signals.
@frozen @usableFromInline
struct ButterworthLowPass<Scalar: FusionScalar>: Sendable {
    @usableFromInline var b0: Scalar
    @usableFromInline var a1: Scalar
    @usableFromInline var a2: Scalar

    /// Passes the input through unchanged.
    @inlinable init() {
        b0 = 1
        a1 = 0
        a2 = 0
    }

    /// The filter for time constant `tau` (s) at sample period `dt` (s); τ ≤ 0 passes the input
    /// through. A cut-off at or above the Nyquist frequency is clamped just below it.
    @inlinable
    init(tau: Scalar, dt: Scalar) {
        guard tau > 0, dt > 0 else {
            b0 = 1
            a1 = 0
            a2 = 0
            return
        }
        let fc = Scalar.sqrt(2) / (2 * .pi * tau)
        let c = Scalar.tan(.pi * min(fc * dt, Scalar(0.499)))
        let sqrt2 = Scalar.sqrt(2)
        let d = c * c + sqrt2 * c + 1
        b0 = c * c / d
        a1 = 2 * (c * c - 1) / d
        a2 = (1 - sqrt2 * c + c * c) / d
    }

    /// One step; `z1`, `z2` are the signal's state (b1 = 2 b0, b2 = b0).
    @inlinable @inline(__always)
    func step<V: SIMD>(_ x: V, _ z1: inout V, _ z2: inout V) -> V where V.Scalar == Scalar {
        let y = b0 * x + z1
        z1 = (2 * b0) * x - a1 * y + z2
        z2 = b0 * x - a2 * y
        return y
    }

    /// The state of a filter that has seen `x` forever (its output is `x`).
    @inlinable
    func steadyState<V: SIMD>(_ x: V) -> (z1: V, z2: V) where V.Scalar == Scalar {
        let z2 = (b0 - a2) * x
        return ((2 * b0 - a1) * x + z2, z2)
    }
}
