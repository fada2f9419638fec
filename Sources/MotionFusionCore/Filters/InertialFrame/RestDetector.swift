/// Rest detection from the gyroscope and the accelerometer: each sensor's deviation from its own
/// first-order low-pass, and how long the sensor has stayed still. Shared by ``InertialFrameFilter``
/// and ``GyroscopeBiasEstimator``.
///
/// The detector holds the state both need — the two low-passes (``RestLowPass``) and the time the
/// stillness conditions have held — and leaves the conditions to its owner, because the two rules
/// differ in ways that change output bits (each owner's rule is the one it had before the detector
/// was shared):
///
/// | | ``InertialFrameFilter`` | ``GyroscopeBiasEstimator`` |
/// |---|---|---|
/// | gain | `1 − exp(−Δt/τ)` | `−expm1(−Δt/τ)` |
/// | deviation test | `|d|² < th²` | `|d| < th` |
/// | low-pass rate limit | largest component ≤ `biasLimit` | Euclidean length < `maximumBias` |
/// | unusable accelerometer | gyroscope low-pass still updated, rest ends | whole sample dropped, rest ends |
/// | first sample | seeds, counts as still | seeds only |
///
/// Rest is declared once the conditions have held for the minimum duration
/// (``hold(still:dt:minimumDuration:)``).
@frozen @usableFromInline
struct RestDetector<Scalar: FusionScalar>: Sendable {
    /// The gyroscope's low-pass (its value is the slowly varying rate: the bias at rest).
    @usableFromInline var gyroscope = RestLowPass<Scalar>()
    /// The accelerometer's low-pass.
    @usableFromInline var accelerometer = RestLowPass<Scalar>()
    /// How long the stillness conditions have held without interruption, s.
    @usableFromInline var stillTime: Scalar = 0
    /// Whether the last ``hold(still:dt:minimumDuration:)`` declared rest.
    @usableFromInline var isResting = false

    @inlinable init() {}

    /// The gyroscope's low-pass value, rad/s.
    @inlinable var lowPassRate: SIMD3<Scalar> { gyroscope.value }

    /// Counts `dt` of stillness (`still`) or restarts the count (not `still`); returns whether the
    /// count has reached `minimumDuration`, that is whether the sensor is at rest.
    @inlinable @inline(__always) @discardableResult
    mutating func hold(still: Bool, dt: Scalar, minimumDuration: Scalar) -> Bool {
        guard still else {
            interrupt()
            return false
        }
        stillTime += dt
        isResting = stillTime >= minimumDuration
        return isResting
    }

    /// Ends a rest or a stillness in progress.
    @inlinable @inline(__always)
    mutating func interrupt() {
        stillTime = 0
        isResting = false
    }
}

/// A first-order low-pass of one sensor and the squared deviation of each new sample from it (the
/// first sample seeds it): the rest detector's measure of stillness.
@frozen @usableFromInline
struct RestLowPass<Scalar: FusionScalar>: Sendable {
    @usableFromInline var value: SIMD3<Scalar> = .zero
    @usableFromInline var seeded = false

    @inlinable init() {}

    /// Sets the low-pass to `x` without filtering.
    @inlinable
    mutating func seed(_ x: SIMD3<Scalar>) {
        value = x
        seeded = true
    }

    /// Updates the low-pass with `x` (gain `1 − exp(−Δt/τ)`, computed by the caller) and returns
    /// `|x − low-pass|²`; the first sample seeds the low-pass (deviation 0).
    @inlinable @inline(__always)
    mutating func squaredDeviation(_ x: SIMD3<Scalar>, gain: Scalar) -> Scalar {
        if seeded {
            value += (x - value) * gain
        } else {
            value = x
            seeded = true
        }
        let d = x - value
        return (d * d).sum()
    }
}
