/// ``InertialFrameFilter``'s estimate of how long the magnetometer's readings lag the gyroscope's,
/// and the compensation of that lag.
///
/// Magnetometers sample more slowly than gyroscopes and average internally, so a reading describes
/// the field as it was some milliseconds earlier (`Reference/magnetometer_latency.csv` finds the lag
/// of BROAD's IMU and the Inria smartphones without a filter, from how the field's derivative
/// follows the gyroscope; <doc:InertialFrameFiltering> gives the figures). A reading `m` taken `d` seconds late, in a
/// sensor turning at ω, differs from the current field by about `d ω × m`, since the field of the
/// earth turns at `−ω × m` in the sensor frame. Where the field dips steeply (65° in Berlin, so the
/// vertical part is twice the horizontal one), a turn about a horizontal axis moves the vertical
/// part into the horizontal plane: at 300°/s a lag of 10 ms errs the heading by several degrees.
///
/// **Compensation**: each reading is used as `m − d̂ ω × m` (ω: the corrected rate), the first-order
/// correction for a lag d̂.
///
/// **Estimate**: in I, the field of the earth is constant, so what is left of the uncompensated
/// field `f = S m` (S: the strapdown attitude) after a high-pass (its deviation from a one-second
/// low-pass) is the lag's `d c` (with `c = S (ω × m)`) plus errors that are not in phase with the
/// rotation rate: sensor noise, and the iron and calibration errors, which follow the orientation
/// (the angle), not its rate. One pair (f, c) is taken per correction step, from the step's last
/// reading (the strapdown attitude is then still that reading's), which keeps the per-sample cost
/// at one cross product. The least-squares slope of the high-passed `f` on the high-passed `c`,
/// averaged over the heading time constant τ_m, is the lag: `d̂ = ⟨Δf · Δc⟩ / (⟨|Δc|²⟩ + ε)`.
/// ε (1 µT² rad²/s²) keeps the estimate near 0 until the sensor has turned (a turn of 1 rad/s in a
/// 50 µT field gives 2500). A field fixed to the sensor (a magnet attached to it, iron that a
/// calibration did not remove) is not late, but it enters `ω × m`: it adds nothing to the
/// covariance and much to the variance, so it pulls the estimate toward 0 (<doc:InertialFrameFiltering>); calibrate the magnetometer first. The estimate
/// is bounded to ±0.1 s and learns only at steps whose field is not judged disturbed against a
/// reference. Its accuracy against the filter-free reference is in <doc:InertialFrameFiltering>.
@frozen @usableFromInline
struct MagnetometerLatency<Scalar: FusionScalar>: Sendable {
    /// The estimated lag, s (positive: the magnetometer is late).
    @usableFromInline var estimate: Scalar = 0
    /// The last reading and its `ω × m` (sensor frame); `hasReading` false: none since the last step.
    @usableFromInline var reading: SIMD3<Scalar> = .zero
    @usableFromInline var cross: SIMD3<Scalar> = .zero
    @usableFromInline var hasReading = false
    /// One-second low-passes of the uncompensated step field and of the step's mean `c`.
    @usableFromInline var fieldMean: SIMD3<Scalar> = .zero
    @usableFromInline var crossMean: SIMD3<Scalar> = .zero
    /// Low-passes over τ_m of `Δf · Δc` and `|Δc|²`.
    @usableFromInline var covariance: Scalar = 0
    @usableFromInline var variance: Scalar = 0
    /// Whether the one-second low-passes hold a value (false after the attitude was replaced).
    @usableFromInline var seeded = false

    /// The largest lag estimated either way, s.
    @inlinable static var bound: Scalar { 0.1 }
    /// The high-pass's time constant, s: slower changes of the field in I (heading corrections,
    /// gyroscope drift, a field that changes across a room) are not the lag's.
    @inlinable static var highPassTime: Scalar { 1 }
    /// ε, µT² rad²/s².
    @inlinable static var regularization: Scalar { 1 }

    @inlinable init() {}

    /// The reading `m` (sensor frame, µT) compensated for the estimated lag, `rate` being the
    /// corrected rotation rate (rad/s); kept for the estimate.
    @inlinable @inline(__always)
    mutating func compensated(_ m: SIMD3<Scalar>, rate: SIMD3<Scalar>) -> SIMD3<Scalar> {
        let c = rate.cross(m)
        reading = m
        cross = c
        hasReading = true
        return m - estimate * c
    }

    /// The attitude was replaced: I is a new frame, so the low-passes restart (the lag, a property
    /// of the sensor, is kept).
    @inlinable mutating func restart() {
        hasReading = false
        seeded = false
    }

    /// One estimate step at a correction step, with the step's last reading and the strapdown
    /// attitude `strapdown` (sensor → I) it was taken at: `highPassGain` and `averagingGain` are the
    /// first-order gains of the high-pass and of the average for the step's length, `learns`
    /// whether the field counts (it is not judged disturbed).
    @inlinable
    mutating func step(
        strapdown: Quaternion<Scalar>, highPassGain: Scalar, averagingGain: Scalar, learns: Bool
    ) {
        guard hasReading else { return }
        hasReading = false
        let f = strapdown.act(on: reading)  // as measured, uncompensated
        let c = strapdown.act(on: cross)
        guard VectorCheck.isFinite(f) && VectorCheck.isFinite(c) else { return }
        guard seeded else {
            fieldMean = f
            crossMean = c
            seeded = true
            return
        }
        FirstOrder.step(&fieldMean, toward: f, gain: highPassGain)
        FirstOrder.step(&crossMean, toward: c, gain: highPassGain)
        guard learns else { return }
        let df = f - fieldMean
        let dc = c - crossMean
        FirstOrder.step(&covariance, toward: (df * dc).sum(), gain: averagingGain)
        FirstOrder.step(&variance, toward: (dc * dc).sum(), gain: averagingGain)
        let d = covariance / (variance + Self.regularization)
        estimate = d.isFinite ? max(-Self.bound, min(Self.bound, d)) : estimate
    }
}
