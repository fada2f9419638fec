/// Rest detection from the gyroscope and the accelerometer: each sensor's deviation from its own
/// first-order low-pass, and how long the sensor has stayed still. Shared by ``InertialFrameFilter``
/// and ``GyroscopeBiasEstimator``.
///
/// The detector holds the state both need — the two low-passes (``FirstOrderLowPass``, gain
/// ``FirstOrder/gain(dt:timeConstant:)``) and the time the stillness conditions have held — and
/// leaves the conditions to its owner, because the two rules differ in ways that change output bits
/// (each owner's rule is the one it had before the detector was shared):
///
/// | | ``InertialFrameFilter`` | ``GyroscopeBiasEstimator`` |
/// |---|---|---|
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
    @usableFromInline var gyroscope = FirstOrderLowPass<Scalar>()
    /// The accelerometer's low-pass.
    @usableFromInline var accelerometer = FirstOrderLowPass<Scalar>()
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
