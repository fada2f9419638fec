/// The state of a first-order low-pass of a vector: the value and whether a sample has seeded it.
/// The step is ``FirstOrder/step(_:toward:gain:)-(V,_,_)``; the caller supplies the gain
/// (``FirstOrder/gain(dt:timeConstant:)``), which filters cache when their step is steady.
///
/// Used by ``LowPassFilter`` (and through it ``HighPassFilter``) and by the rest detector that
/// ``InertialFrameFilter`` and ``GyroscopeBiasEstimator`` share.
@frozen @usableFromInline
package struct FirstOrderLowPass<Scalar: FusionScalar>: Sendable {
    /// The current output (zero before the first sample).
    @usableFromInline package var value: SIMD3<Scalar> = .zero
    /// True once a sample has seeded the state.
    @usableFromInline package var seeded = false

    @inlinable package init() {}

    /// Sets the state to `x` without filtering.
    @inlinable @inline(__always)
    package mutating func seed(_ x: SIMD3<Scalar>) {
        value = x
        seeded = true
    }

    /// Filters `x` with gain `k` and returns the output; the first sample seeds the state.
    @inlinable @inline(__always) @discardableResult
    package mutating func update(_ x: SIMD3<Scalar>, gain k: Scalar) -> SIMD3<Scalar> {
        if seeded {
            FirstOrder.step(&value, toward: x, gain: k)
        } else {
            seed(x)
        }
        return value
    }

    /// Filters `x` with gain `k` and returns `|x − output|²`, the rest detector's measure of
    /// stillness (0 for the sample that seeds the state).
    @inlinable @inline(__always)
    package mutating func squaredDeviation(_ x: SIMD3<Scalar>, gain k: Scalar) -> Scalar {
        let d = x - update(x, gain: k)
        return (d * d).sum()
    }

    /// Forgets the state; the next sample seeds it again.
    @inlinable
    package mutating func reset() {
        value = .zero
        seeded = false
    }
}
