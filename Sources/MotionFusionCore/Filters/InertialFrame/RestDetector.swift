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
/// | low-pass rate limit | none (the Kalman filter gates the measurement) | Euclidean length < `maximumBias` |
/// | unusable accelerometer | gyroscope low-pass still updated, rest ends | whole sample dropped, rest ends |
/// | first sample | seeds, counts as still | seeds only |
/// | still samples | averaged (``accumulate(_:squaredDeviation:)``) | not used |
///
/// Rest is declared once the conditions have held for the minimum duration
/// (``hold(still:dt:minimumDuration:)``).
///
/// For ``InertialFrameFilter`` the detector also keeps what a rest measurement needs: the sum and
/// count of the raw gyroscope samples of the current stillness not yet used by a measurement
/// (their mean is the bias plus white noise), and the mean square deviation of the samples from the
/// low-pass over the whole stillness, which estimates the gyroscope's white noise per axis.
/// (``GyroscopeBiasEstimator`` never accumulates, so its sums stay zero.) The
/// samples are kept from the start of the stillness, so those taken before rest is declared count
/// too: a second of stillness is a second of information, whatever the minimum duration.
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
    /// The raw gyroscope samples of this stillness not yet used by a measurement: sum and count.
    @usableFromInline var pendingSum: SIMD3<Scalar> = .zero
    @usableFromInline var pendingCount: Scalar = 0
    /// The samples of this stillness already used, and the still time when they were (the time the
    /// pending samples cover is `stillTime − takenTime`). Kept per measurement, not per sample: a
    /// still sample costs five additions (on a Cortex-M4F every instruction counts).
    @usableFromInline var takenCount: Scalar = 0
    @usableFromInline var takenTime: Scalar = 0
    /// Σ |ω − low-pass|² over the whole stillness.
    @usableFromInline var deviationSum: Scalar = 0

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

    /// Adds a still gyroscope sample, rad/s, and its squared deviation from the low-pass to the
    /// current stillness's sums (after ``hold(still:dt:minimumDuration:)`` counted its time).
    @inlinable @inline(__always)
    mutating func accumulate(_ rate: SIMD3<Scalar>, squaredDeviation d2: Scalar) {
        pendingSum += rate
        pendingCount += 1
        deviationSum += d2
    }

    /// The mean of the samples not yet used, the variance of that mean per axis (the white noise
    /// estimated over the whole stillness, divided by the number of samples) and the time the
    /// samples cover, s; nil when there are none. The samples count as used from then on.
    @inlinable
    mutating func takeMean() -> (mean: SIMD3<Scalar>, variance: Scalar, duration: Scalar)? {
        let all = takenCount + pendingCount
        guard pendingCount > 0, all > 1 else { return nil }
        let mean = pendingSum / pendingCount
        // |d|² sums three axes; the deviation from a low-pass with a small gain has about the
        // noise's variance.
        let noise = deviationSum / (3 * all)
        let variance = noise / pendingCount
        let duration = stillTime - takenTime
        takenCount = all
        takenTime = stillTime
        pendingSum = .zero
        pendingCount = 0
        return (mean, variance, duration)
    }

    /// Ends a rest or a stillness in progress.
    @inlinable @inline(__always)
    mutating func interrupt() {
        if stillTime != 0 || pendingCount != 0 {  // in motion all is zero already: no stores per sample
            pendingSum = .zero
            pendingCount = 0
            takenCount = 0
            takenTime = 0
            deviationSum = 0
        }
        stillTime = 0
        isResting = false
    }
}
