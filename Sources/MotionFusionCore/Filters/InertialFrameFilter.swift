import RealModule

/// MotionFusion's own orientation filter, and its default: strapdown gyroscope integration whose
/// drift is corrected in a low-pass-filtered, almost inertial frame, with estimation of the gyroscope's
/// bias (at rest and in motion) and sensitivity (in motion), and a heading-only magnetometer
/// correction that rejects disturbances. <doc:InertialFrameFiltering> derives it and reports its
/// accuracy and speed.
///
/// The attitude is a product of three rotations, each corrected by one sensor:
///
///     q9 = h ⊗ c ⊗ g        (sensor → NWU internally, then into ``Settings-swift.struct/frame``)
///
/// - `g` (sensor → I), strapdown integration of the corrected gyroscope rate `(ω − b̂) / (1 + k̂)`.
///   Over seconds the frame I is almost inertial: it drifts only by the residual errors.
/// - `c` (I → E6), the inclination correction. The accelerometer (specific force) is rotated into
///   I, where a body that moves but goes nowhere has acceleration that averages out, and low-pass
///   filtered there (second-order Butterworth, delay ``Settings-swift.struct/accelerometerTimeConstant``);
///   `c` is then turned, by the whole remaining angle, so that this filtered specific force points
///   up. Linear acceleration faster than the time constant averages away instead of tilting the
///   estimate; the gyroscope carries the fast motion.
/// - `h` (E6 → E9), a rotation about the vertical that points the horizontal magnetic field north,
///   moved a fraction `1 − exp(−T/τ_m)` of the disagreement per correction step
///   (``Settings-swift.struct/magnetometerTimeConstant``), so the magnetometer never touches the
///   inclination. `c ⊗ g` is the 6D estimate (``quaternion6D``), `h ⊗ c ⊗ g` the 9D one.
///
/// **Gyroscope bias and sensitivity** are a six-state Kalman filter: measured rate =
/// (1 + k) ⊙ true rate + b (``gyroscopeBias``, ``gyroscopeBiasSigma``, ``gyroscopeScale``,
/// ``gyroscopeScaleSigma``):
/// - at rest (the gyroscope and accelerometer stay within their thresholds of their own low-pass
///   values for ``Settings-swift.struct/restMinimumDuration``), it measures the low-pass gyroscope,
///   which is the bias, directly;
/// - in motion, the inclination correction is the observation: residual errors (Δb, Δk) make I drift
///   at `R (Δb + ω ⊙ Δk)` (R = sensor → earth), and `c` turns back at the low-pass of the horizontal
///   part of it. With the inputs low-pass filtered by the same filter,
///   `LP(R) b + LP(R diag ω) k = LP(R b̂ + R diag(ω) k̂) − φ/T` (φ the correction angle over the step
///   T) is a linear measurement of both. The correction also follows the accelerometer's own
///   errors (offsets, saturation, timing), which a turning device would make look like bias: the
///   measurement's variance grows by `δ² / (g² τ_a T)`, δ the deviation of the low-pass specific
///   force's norm from its long-run mean, the accelerometer's error as the filter sees it;
/// - in 9D, the heading correction is the same kind of observation for the vertical direction (the
///   heading loop is a first-order low-pass of `τ_m`), which the accelerometer cannot see: without
///   it a vertical bias `b_z` would leave a steady heading lag of `b_z τ_m`. In 6D the vertical bias
///   component is only held weakly toward zero. A persistent magnetometer heading error
///   (``Settings-swift.struct/magneticHeadingUncertainty``) seen while turning at Ω reads as a
///   vertical bias of about ψ Ω, so that measurement's variance grows by that much.
///
/// **Start-up**: for the first τ_a the accelerometer low-pass is the running mean of everything seen,
/// and for the first τ_m the heading moves by the running mean of the undisturbed disagreements
/// (<doc:InertialFrameFiltering> times each part).
///
/// **Magnetic disturbances**: the field's norm and dip angle in the earth frame (after a short
/// low-pass, ``Settings-swift.struct/magneticCurrentTimeConstant``) are compared with a reference
/// learned while the field is undisturbed; outside ``Settings-swift.struct/magneticNormThreshold`` or
/// ``Settings-swift.struct/magneticDipThreshold`` the magnetometer is ignored for up to
/// ``Settings-swift.struct/maximumRejectionDuration`` seconds, then used with a gain reduced by
/// ``Settings-swift.struct/rejectionGainFactor``. A new, consistent field seen while moving for
/// ``Settings-swift.struct/newFieldDuration`` seconds (the first one: ``Settings-swift.struct/firstFieldDuration``)
/// becomes the reference.
///
/// **Cost**: at every sample only the strapdown integration, the rest detector and the rotation of
/// the accelerometer and magnetometer into I (where they are summed) run; the corrections and the
/// Kalman step run every ``Settings-swift.struct/correctionInterval`` seconds on those averages, so
/// the cost per sample falls as the sampling rate rises and no sample's information is dropped.
///
/// All time constants are in seconds and every gain is computed from the actual intervals, so the
/// same settings mean the same thing at 50 Hz and at 1 kHz, and irregular timestamps are handled.
///
/// The structure — correction in an almost inertial frame, Kalman bias estimation from the
/// inclination correction, norm-and-dip disturbance detection — follows D. Laidig and T. Seel, "VQF:
/// Highly accurate IMU orientation estimation with bias estimation and magnetic disturbance
/// rejection", Information Fusion 91, 2023. Differences: the gyroscope's sensitivity is estimated
/// with its bias; the magnetometer also observes the vertical bias; the corrections run at a fixed
/// rate on averages in I; the heading time constant is longer (see the settings); the magnetic
/// rejection budget becomes available once a first field reference exists.
///
/// Bad input, per ``AttitudeFilter``: a non-finite gyroscope or bad `Δt` holds the attitude, and
/// so does a rate beyond 1000 rad/s or a rotation too large to represent; an
/// unusable accelerometer skips its average, the rest detector and the motion measurement (a
/// reading beyond 1000 m/s² only ends rest); an
/// unusable magnetometer (nil, zero, non-finite) makes the step 6D; a Kalman step that would give a
/// non-finite estimate is skipped. The attitude is renormalized at every correction step and when
/// read, and never becomes NaN.
@frozen
public struct InertialFrameFilter<Scalar: FusionScalar>: AttitudeFilter {
    /// The filter's parameters: time constants in seconds, rates in rad/s, accelerations in m/s².
    ///
    /// Every numeric field has a valid range, given at the end of its documentation, from what the
    /// filter's arithmetic needs (time constants divide the step, sigmas are squared into variances,
    /// thresholds compare with deviations). ``validate()`` reports the first value outside its range;
    /// the filter itself moves such values into their ranges (see ``InertialFrameFilter/settings``).
    public struct Settings: Sendable, Hashable {
        /// τ_a, s: the accelerometer's low-pass time constant in the inertial frame. Longer averages
        /// away more linear acceleration; shorter follows gyroscope drift more closely. Default 4 (the
        /// sum of both errors is smallest between 2 s and 4 s for a residual drift of 0.1–0.5°/s,
        /// nearer 4 s the smaller the drift; 3 s until the leave-one-out choice over BROAD and the
        /// smartphone trials picked 4 s in 41 of 45 folds).
        /// Valid range: > 0, finite.
        public var accelerometerTimeConstant: Scalar
        /// Estimate the gyroscope's sensitivity per axis from the corrections while the sensor
        /// turns (a scale error drifts the attitude in proportion to the rate, a drift the bias
        /// alone cannot explain). Default true.
        public var estimatesScaleInMotion: Bool
        /// The prior standard deviation of the gyroscope's relative sensitivity error per axis, and
        /// the bound of the estimate (three times this). Default 0.003 (0.3 %, a factory-calibrated
        /// MEMS gyroscope; uncalibrated parts: 0.01–0.03). The rate is divided by `1 + k̂`, so the
        /// bound must stay well below 1: at most 0.1 (a bound of ±30 %; a larger error is a wrong
        /// unit, not a sensitivity). 0 fixes the sensitivity at 1. Valid range: in [0, 0.1].
        public var gyroscopeScaleUncertainty: Scalar
        /// s: the time over which the sensitivity may drift by its prior uncertainty. Default 1000.
        /// Valid range: > 0, finite.
        public var scaleForgettingTime: Scalar
        /// τ_m, s: the heading correction time constant. Default 30: it balances the heading drift
        /// of the residual vertical bias (σ_b ≈ 0.015–0.03°/s once rest and the magnetometer have
        /// been used — a warmed-up MEMS gyroscope at constant temperature is stable to a few
        /// thousandths of a °/s, so the estimate's own uncertainty dominates) against indoor
        /// magnetometer heading errors (σ_ψ ≈ 5°, correlated over about a second as the device moves
        /// through an uneven field): the heading error `σ_b τ + σ_ψ √(1 s / τ)` is smallest at
        /// `τ = (σ_ψ / (2 σ_b))^(2/3) s^(1/3)`, 19–30 s. Leave-one-out choices on BROAD alone, on
        /// the smartphone trials alone and on both all pick 30 s (it was 20). A gyroscope whose
        /// bias is not yet known (uncalibrated, no rest) lags `b_z τ` in heading: calibrate it or
        /// choose a shorter τ. Valid range: > 0, finite.
        public var magnetometerTimeConstant: Scalar
        /// Estimate the gyroscope bias while the sensor rests. Default true.
        public var estimatesBiasAtRest: Bool
        /// Estimate the gyroscope bias from the inclination (and, in 9D, heading) corrections while
        /// the sensor moves. Default true.
        public var estimatesBiasInMotion: Bool
        /// Let the heading correction observe the vertical bias component in 9D. Default true.
        public var estimatesVerticalBiasFromMagnetometer: Bool
        /// The bias standard deviation before any measurement, rad/s; also the ceiling the
        /// uncertainty grows back to. Default 0.5°/s. Valid range: > 0, finite.
        public var biasInitialSigma: Scalar
        /// s: the time in which an unobserved bias is expected to drift by ``biasDrift``. Default 100.
        /// Also the time constant of the reference gravity norm against which the accelerometer's
        /// error is judged (see ``biasMotionSigma``). Valid range: > 0, finite.
        public var biasForgettingTime: Scalar
        /// rad/s: the random-walk drift of the bias per ``biasForgettingTime`` (its variance grows by
        /// the square of this per forgetting time). Default 0.1°/s. 0: no drift (each measurement
        /// then counts with the variance of its sigma). Valid range: ≥ 0, finite.
        public var biasDrift: Scalar
        /// rad/s: the largest bias disagreement one measurement may claim (larger ones are clipped;
        /// also the largest low-pass gyroscope reading still counted as rest). Default 2°/s.
        /// Valid range: > 0, finite.
        public var biasLimit: Scalar
        /// rad/s: the bias estimate's standard deviation reached in steady state while moving, which
        /// sets how much a motion measurement is trusted when the accelerometer is consistent (the
        /// measurement's variance grows further with the accelerometer's observed error, see
        /// <doc:InertialFrameFiltering>). Default 0.1°/s, VQF's value: 0.05°/s (a warmed-up MEMS
        /// gyroscope's stability) fitted a laboratory IMU but let phone gyroscopes, whose bias
        /// wanders with temperature, be corrected from accelerometer errors (the Inria smartphone
        /// trials moved it). Valid range: > 0, finite.
        public var biasMotionSigma: Scalar
        /// rad/s: the same at rest. Default 0.03°/s. Valid range: > 0, finite.
        public var biasRestSigma: Scalar
        /// rad/s: the same for the vertical component observed through the heading correction.
        /// Default 0.1°/s. Valid range: > 0, finite.
        public var biasMagnetometerSigma: Scalar
        /// rad: the magnetometer's heading error that persists for seconds (residual hard- and
        /// soft-iron, a field that is uneven across the room). While the device turns at Ω (over
        /// seconds), such an error turns with it and the heading correction that follows it looks
        /// like a vertical bias of about this times Ω; the vertical bias measurement's variance grows
        /// by that much. Default 5° (indoors). 0 trusts the heading correction whatever the motion.
        /// Valid range: ≥ 0, finite.
        public var magneticHeadingUncertainty: Scalar
        /// s: how often the corrections run. Between them the gyroscope is integrated at every sample
        /// and the accelerometer and magnetometer are averaged in the almost inertial frame, so no
        /// sample is lost; the corrections' time constants are seconds, so a few hundredths of a
        /// second between them change nothing but the cost. At sample rates below 1 / interval every
        /// sample is a correction step (0: always). Default 0.1 (40 steps per τ_a).
        /// Valid range: ≥ 0, finite.
        public var correctionInterval: Scalar
        /// τ_r, s: the low-pass time constant of the rest detector. Default 0.5.
        /// Valid range: > 0, finite.
        public var restTimeConstant: Scalar
        /// rad/s: largest gyroscope deviation from its low-pass value at rest. Default 2°/s.
        /// Valid range: > 0, finite.
        public var restGyroscopeThreshold: Scalar
        /// m/s²: largest accelerometer deviation from its low-pass value at rest. Default 0.5.
        /// Valid range: > 0, finite.
        public var restAccelerometerThreshold: Scalar
        /// s: how long the thresholds must hold before rest is declared. Default 1.5.
        /// Valid range: ≥ 0, finite.
        public var restMinimumDuration: Scalar
        /// Detect magnetic disturbances and reject the magnetometer during them. Default true.
        public var rejectsMagneticDisturbances: Bool
        /// Relative deviation of the field norm from the reference still counted as undisturbed.
        /// Default 0.1. Valid range: > 0, finite.
        public var magneticNormThreshold: Scalar
        /// rad: deviation of the dip angle from the reference still counted as undisturbed. Default
        /// 10°. Valid range: > 0, finite.
        public var magneticDipThreshold: Scalar
        /// s: time constant with which the reference norm and dip follow an undisturbed field.
        /// Default 20. Valid range: > 0, finite.
        public var magneticReferenceTimeConstant: Scalar
        /// s: low-pass time constant of the current norm and dip. Default 0.05.
        /// Valid range: > 0, finite.
        public var magneticCurrentTimeConstant: Scalar
        /// s: how long a new consistent field must be seen (while moving) before it replaces the
        /// reference. Default 20. Valid range: ≥ 0, finite.
        public var newFieldDuration: Scalar
        /// s: the same for the first reference. Default 5. Valid range: ≥ 0, finite.
        public var firstFieldDuration: Scalar
        /// rad/s: the rotation rate above which the time toward a new field counts. Default 20°/s.
        /// Valid range: ≥ 0, finite.
        public var newFieldMinimumRate: Scalar
        /// s: how long the field must be back within the thresholds to end a disturbance. Default 0.5.
        /// Valid range: ≥ 0, finite.
        public var undisturbedDuration: Scalar
        /// s: the longest time the magnetometer is ignored in a disturbance. Default 60.
        /// Valid range: ≥ 0, finite.
        public var maximumRejectionDuration: Scalar
        /// After the longest rejection, the heading gain is divided by this factor while the
        /// disturbance lasts; rejection time is earned back at this many seconds per second
        /// undisturbed. Default 2. A factor below 1 would raise the gain it divides.
        /// Valid range: ≥ 1, finite.
        public var rejectionGainFactor: Scalar
        /// The earth frame of the output attitude. Default ENU.
        public var frame: EarthFrame

        /// Settings with the given values; every argument has the documented default.
        public init(
            accelerometerTimeConstant: Scalar = 4, estimatesScaleInMotion: Bool = true,
            gyroscopeScaleUncertainty: Scalar = 0.003, scaleForgettingTime: Scalar = 1000,
            magnetometerTimeConstant: Scalar = 30,
            estimatesBiasAtRest: Bool = true, estimatesBiasInMotion: Bool = true,
            estimatesVerticalBiasFromMagnetometer: Bool = true,
            biasInitialSigma: Scalar = 0.5 * .pi / 180, biasForgettingTime: Scalar = 100,
            biasDrift: Scalar = 0.1 * .pi / 180,
            biasLimit: Scalar = 2 * .pi / 180, biasMotionSigma: Scalar = 0.1 * .pi / 180,
            biasRestSigma: Scalar = 0.03 * .pi / 180, biasMagnetometerSigma: Scalar = 0.1 * .pi / 180,
            magneticHeadingUncertainty: Scalar = 5 * .pi / 180,
            correctionInterval: Scalar = 0.1,
            restTimeConstant: Scalar = 0.5, restGyroscopeThreshold: Scalar = 2 * .pi / 180,
            restAccelerometerThreshold: Scalar = 0.5, restMinimumDuration: Scalar = 1.5,
            rejectsMagneticDisturbances: Bool = true, magneticNormThreshold: Scalar = 0.1,
            magneticDipThreshold: Scalar = 10 * .pi / 180, magneticReferenceTimeConstant: Scalar = 20,
            magneticCurrentTimeConstant: Scalar = 0.05, newFieldDuration: Scalar = 20,
            firstFieldDuration: Scalar = 5, newFieldMinimumRate: Scalar = 20 * .pi / 180,
            undisturbedDuration: Scalar = 0.5, maximumRejectionDuration: Scalar = 60,
            rejectionGainFactor: Scalar = 2, frame: EarthFrame = .enu
        ) {
            self.accelerometerTimeConstant = accelerometerTimeConstant
            self.magnetometerTimeConstant = magnetometerTimeConstant
            self.gyroscopeScaleUncertainty = gyroscopeScaleUncertainty
            self.estimatesScaleInMotion = estimatesScaleInMotion
            self.scaleForgettingTime = scaleForgettingTime
            self.estimatesBiasAtRest = estimatesBiasAtRest
            self.estimatesBiasInMotion = estimatesBiasInMotion
            self.estimatesVerticalBiasFromMagnetometer = estimatesVerticalBiasFromMagnetometer
            self.biasInitialSigma = biasInitialSigma
            self.biasForgettingTime = biasForgettingTime
            self.biasDrift = biasDrift
            self.biasLimit = biasLimit
            self.biasMotionSigma = biasMotionSigma
            self.biasRestSigma = biasRestSigma
            self.biasMagnetometerSigma = biasMagnetometerSigma
            self.magneticHeadingUncertainty = magneticHeadingUncertainty
            self.correctionInterval = correctionInterval
            self.restTimeConstant = restTimeConstant
            self.restGyroscopeThreshold = restGyroscopeThreshold
            self.restAccelerometerThreshold = restAccelerometerThreshold
            self.restMinimumDuration = restMinimumDuration
            self.rejectsMagneticDisturbances = rejectsMagneticDisturbances
            self.magneticNormThreshold = magneticNormThreshold
            self.magneticDipThreshold = magneticDipThreshold
            self.magneticReferenceTimeConstant = magneticReferenceTimeConstant
            self.magneticCurrentTimeConstant = magneticCurrentTimeConstant
            self.newFieldDuration = newFieldDuration
            self.firstFieldDuration = firstFieldDuration
            self.newFieldMinimumRate = newFieldMinimumRate
            self.undisturbedDuration = undisturbedDuration
            self.maximumRejectionDuration = maximumRejectionDuration
            self.rejectionGainFactor = rejectionGainFactor
            self.frame = frame
        }
    }

    /// The parameters. Changing them between updates takes effect at the next update.
    ///
    /// Each value outside its valid range (see ``Settings-swift.struct``) is moved into it when the
    /// settings are set, here and in ``init(settings:)``, never per sample: beyond a closed end of
    /// its range to that end (`rejectionGainFactor` 0.5 becomes 1, `gyroscopeScaleUncertainty` 0.5
    /// becomes 0.1, a negative `correctionInterval` 0), and NaN or a value at or beyond an open end
    /// to the field's default (`biasLimit` −1 or 0 becomes 2°/s, `accelerometerTimeConstant` 0 or
    /// +∞ becomes 4 s). Reading `settings` back shows the values in use. Call
    /// ``Settings-swift.struct/validate()`` to refuse such settings instead.
    public var settings: Settings {
        didSet { settings = settings.clamped() }
    }

    // Attitude: q9 = heading ⊗ inclination ⊗ strapdown (all NWU-based).
    @usableFromInline var strapdown: Quaternion<Scalar> = .identity
    @usableFromInline var inclination: Quaternion<Scalar> = .identity
    @usableFromInline var heading: Quaternion<Scalar> = .identity
    @usableFromInline var initialized = false
    // The output rotations fromNWU ⊗ heading ⊗ inclination (9D) and fromNWU ⊗ inclination (6D), which
    // change only at correction steps: reading the attitude then takes one product, not three.
    // `outputFrame` is the frame they were made for (nil: not made yet).
    @usableFromInline var output9: Quaternion<Scalar> = .identity
    @usableFromInline var output6: Quaternion<Scalar> = .identity
    @usableFromInline var outputFrame: EarthFrame?

    // Gains: per sample (rest detector) and per correction step, recomputed when Δt or the settings
    // change.
    @usableFromInline var sampleGains = SampleGains()
    @usableFromInline var stepGains = StepGains()

    // Inputs averaged (in I) since the last correction step.
    @usableFromInline var stepTime: Scalar = 0
    @usableFromInline var accSum: SIMD3<Scalar> = .zero
    @usableFromInline var accCount: Scalar = 0
    @usableFromInline var magSum: SIMD3<Scalar> = .zero
    @usableFromInline var magCount: Scalar = 0
    @usableFromInline var rateSum: SIMD3<Scalar> = .zero  // ∫ω dt over the step (corrected rate)

    // Accelerometer low-pass in I (second-order Butterworth state).
    @usableFromInline var accState1: SIMD3<Scalar> = .zero
    @usableFromInline var accState2: SIMD3<Scalar> = .zero
    @usableFromInline var accFilterSeeded = false
    // Fast start: for the first τ_a seconds the low-pass output is the running mean of the step
    // averages, so a start in motion converges in τ_a, not in several τ_a.
    @usableFromInline var accStartTime: Scalar = 0
    @usableFromInline var accStarting = false  // the running mean is the low-pass output
    @usableFromInline var accStartMean: SIMD3<Scalar> = .zero
    // The low-pass specific force: its last value (in I), the long-run mean of its norm (gravity
    // as this accelerometer reads it) and the low-pass (τ_a) of the squared deviation from that.
    @usableFromInline var filteredAcc: SIMD3<Scalar> = .zero
    @usableFromInline var gravityNorm: Scalar = 0
    @usableFromInline var gravityNormDeviation2: Scalar = 0
    // The low-pass (τ_a) of the rotation rate in the earth frame: how fast the device turns over seconds.
    @usableFromInline var lowPassEarthRate = (z1: SIMD3<Scalar>.zero, z2: SIMD3<Scalar>.zero)
    @usableFromInline var slowEarthRate: SIMD3<Scalar> = .zero

    // Rest detection.
    @usableFromInline var restGyroFilter = RestLowPass<Scalar>()
    @usableFromInline var restAccFilter = RestLowPass<Scalar>()
    @inlinable var restGyro: SIMD3<Scalar> { restGyroFilter.value }
    @usableFromInline var restTime: Scalar = 0
    @usableFromInline var resting = false

    // Bias Kalman filter and its filtered inputs.
    @usableFromInline var bias: SIMD3<Scalar> = .zero
    @usableFromInline var scaleError: SIMD3<Scalar> = .zero  // k̂: measured = (1 + k) true + b
    @usableFromInline var inverseScale: SIMD3<Scalar> = SIMD3(repeating: 1)  // 1 / (1 + k̂)
    /// Covariance of (b, k), in Double whatever `Scalar` is: it spans ten orders of magnitude and
    /// its update subtracts nearly equal numbers, more than Float's 24 bits hold; it runs only at
    /// the correction rate, so the cost does not matter.
    @usableFromInline var covariance = Covariance6<Double>(diagonal: .zero)
    // Butterworth states (z1, z2) of the rows x and y of R diag(ω) and of R.
    @usableFromInline var lowPassKx = (z1: SIMD3<Scalar>.zero, z2: SIMD3<Scalar>.zero)
    @usableFromInline var lowPassKy = (z1: SIMD3<Scalar>.zero, z2: SIMD3<Scalar>.zero)
    @usableFromInline var filteredKx: SIMD3<Scalar> = .zero
    @usableFromInline var filteredKy: SIMD3<Scalar> = .zero
    @usableFromInline var lowPassVerticalK: SIMD3<Scalar> = .zero
    @usableFromInline var lowPassRx = (z1: SIMD3<Scalar>.zero, z2: SIMD3<Scalar>.zero)
    @usableFromInline var lowPassRy = (z1: SIMD3<Scalar>.zero, z2: SIMD3<Scalar>.zero)
    @usableFromInline var lowPassRb1: SIMD2<Scalar> = .zero
    @usableFromInline var lowPassRb2: SIMD2<Scalar> = .zero
    @usableFromInline var filteredRx: SIMD3<Scalar> = .zero
    @usableFromInline var filteredRy: SIMD3<Scalar> = .zero
    @usableFromInline var filteredRb: SIMD2<Scalar> = .zero
    @usableFromInline var verticalRow: SIMD3<Scalar> = SIMD3(0, 0, 1)
    @usableFromInline var lowPassVertical: SIMD3<Scalar> = .zero  // first order, τ_m: vertical row
    @usableFromInline var lowPassVerticalB: Scalar = 0
    @usableFromInline var lowPassSeeded = false

    // Magnetometer.
    @usableFromInline var magNormDip: SIMD2<Scalar> = .zero
    @usableFromInline var magSeeded = false
    @usableFromInline var magReference: SIMD2<Scalar> = .zero  // norm (µT), dip (rad); norm 0 = none
    @usableFromInline var magCandidate: SIMD2<Scalar> = .zero
    @usableFromInline var magCandidateTime: Scalar = 0
    @usableFromInline var magUndisturbedTime: Scalar = 0
    @usableFromInline var magRejectionTime: Scalar = 0
    @usableFromInline var magDisturbed = true
    @usableFromInline var headingInitCount: Scalar = 0  // > 0: fast initial averaging, 1/N gains
    @usableFromInline var headingSeeded = false  // a field has set the heading
    @usableFromInline var headingInitTime: Scalar = 0
    @usableFromInline var lastHeadingDisagreement: Scalar = 0

    /// A filter that initializes itself from its first usable accelerometer sample.
    ///
    /// Settings outside their valid ranges are moved into them (see ``settings``); call
    /// ``Settings-swift.struct/validate()`` first to refuse them instead.
    @inlinable
    public init(settings: Settings = Settings()) {
        let settings = settings.clamped()
        self.settings = settings
        magRejectionTime = settings.maximumRejectionDuration
        let s0 = Double(settings.biasInitialSigma * settings.biasInitialSigma)
        let k0 = Double(settings.gyroscopeScaleUncertainty * settings.gyroscopeScaleUncertainty)
        covariance = Covariance6(diagonal: SIMD8(s0, s0, s0, k0, k0, k0, 0, 0))
    }

    @inlinable public var frame: EarthFrame { settings.frame }
    @inlinable public var isInitialized: Bool { initialized }

    /// The 9D attitude (the 6D one until a magnetometer sample arrives), sensor → ``frame``.
    /// Always inlined: an out-of-line getter copied the whole filter (1368 bytes in Float) per read,
    /// 827 instructions per sample on a Cortex-M4F (`scripts/embedded`).
    @inlinable @inline(__always) public var quaternion: Quaternion<Scalar> {
        if outputFrame == settings.frame { return (output9 * strapdown).normalizedFast() }
        return settings.frame.fromNWU() * (heading * (inclination * strapdown)).normalizedFast()
    }

    /// The 6D attitude (gyroscope and accelerometer only; its heading drifts), sensor → ``frame``.
    @inlinable public var quaternion6D: Quaternion<Scalar> {
        if outputFrame == settings.frame { return (output6 * strapdown).normalizedFast() }
        return settings.frame.fromNWU() * (inclination * strapdown).normalizedFast()
    }

    /// Remakes the cached output rotations after the heading or inclination changed.
    @inlinable
    mutating func refreshOutputRotations() {
        let fromNWU = settings.frame.fromNWU(Scalar.self)
        output6 = fromNWU * inclination
        output9 = fromNWU * (heading * inclination)
        outputFrame = settings.frame
    }

    /// The gyroscope bias estimate, rad/s (sensor frame).
    @inlinable public var gyroscopeBias: SIMD3<Scalar> { bias }

    /// The bias estimate's standard deviation per axis (sensor frame), rad/s.
    @inlinable public var gyroscopeBiasSigma: SIMD3<Scalar> {
        let d = covariance.diagonal
        return SIMD3(Scalar(d[0]), Scalar(d[1]), Scalar(d[2])).squareRoot()
    }

    /// The gyroscope sensitivity estimate per axis (1 = nominal): the filter divides the
    /// bias-corrected rate by it.
    @inlinable public var gyroscopeScale: SIMD3<Scalar> { 1 + scaleError }

    /// The standard deviation of ``gyroscopeScale`` per axis.
    @inlinable public var gyroscopeScaleSigma: SIMD3<Scalar> {
        let d = covariance.diagonal
        return SIMD3(Scalar(d[3]), Scalar(d[4]), Scalar(d[5])).squareRoot()
    }

    /// True while the rest detector sees the sensor at rest.
    @inlinable public var isRestDetected: Bool { resting }

    /// True while the magnetic field is judged disturbed (also before the first reference exists).
    @inlinable public var isMagneticDisturbanceDetected: Bool { magDisturbed }

    /// The last heading disagreement, rad: how far the 9D heading is from the magnetometer's.
    @inlinable public var headingDisagreement: Scalar { lastHeadingDisagreement }

    /// The learned reference field norm (µT) and dip angle (rad, positive downward), or nil before the
    /// first reference.
    @inlinable public var magneticReference: (norm: Scalar, dip: Scalar)? {
        magReference.x > 0 ? (magReference.x, magReference.y) : nil
    }

    @inlinable
    public mutating func reset(to attitude: Quaternion<Scalar>) {
        strapdown = (settings.frame.fromNWU(Scalar.self).conjugate * attitude).normalized()
        inclination = .identity
        heading = .identity
        accFilterSeeded = false
        lowPassSeeded = false
        gravityNorm = 0
        gravityNormDeviation2 = 0
        clearAverages()
        headingInitCount = 0
        headingSeeded = true  // the given attitude has a heading
        initialized = true
        refreshOutputRotations()
    }

    /// Sets the bias estimate, rad/s, and its standard deviation (default: unchanged).
    @inlinable
    public mutating func setGyroscopeBias(_ value: SIMD3<Scalar>, sigma: Scalar? = nil) {
        bias = value
        if let sigma {
            let d = covariance.diagonal
            let v = Double(sigma * sigma)
            covariance = Covariance6(diagonal: SIMD8(v, v, v, d[3], d[4], d[5], 0, 0))
        }
        lowPassSeeded = false
    }

    @inlinable @discardableResult
    public mutating func initialize(
        accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?
    ) -> Bool {
        guard let up = SensorCheck.direction(accelerometer),
            let tilt = try? Quaternion.rotation(from: up, to: SIMD3<Scalar>(0, 0, 1))
        else { return false }
        strapdown = tilt
        inclination = .identity
        heading = .identity
        accFilterSeeded = false
        lowPassSeeded = false
        gravityNorm = 0
        gravityNormDeviation2 = 0
        clearAverages()
        headingInitCount = 0
        headingSeeded = false
        if let magnetometer, let m = SensorCheck.direction(magnetometer) {
            let h = tilt.act(on: m)
            if h.x * h.x + h.y * h.y > 0 {
                let half = -Scalar.atan2(y: h.y, x: h.x) / 2
                heading = Quaternion(w: .cos(half), x: 0, y: 0, z: .sin(half))
                headingSeeded = true
                headingInitCount = 1
                headingInitTime = 0
            }
        }
        initialized = true
        refreshOutputRotations()
        return true
    }

    @inlinable
    public mutating func update(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?,
        dt: Scalar
    ) {
        guard initialized else {
            initialize(accelerometer: accelerometer, magnetometer: magnetometer)
            return
        }
        guard dt > 0, dt.isFinite, SensorCheck.isFinite(gyroscope) else { return }
        if abs(dt - sampleGains.dt) > sampleGains.dt * 1e-4 || sampleGains.tau != settings.restTimeConstant {
            sampleGains = SampleGains(dt: dt, restTimeConstant: settings.restTimeConstant)
        }

        // Strapdown integration of the bias-corrected rate (normalized at each correction step). A
        // rate beyond 1000 rad/s (no gyroscope measures that; a corrupt sample) or a rotation too
        // large to represent is not integrated: the sample is skipped, as a non-finite one.
        let rate = (gyroscope - bias) * inverseScale
        let halfRotation = rate * (dt / 2)
        guard (rate * rate).sum() < 1e6, (halfRotation * halfRotation).sum().isFinite else { return }
        strapdown = strapdown * Self.exponential(halfRotation: halfRotation)
        rateSum += rate * dt

        // Rest detection, gyroscope part: deviation from a first-order low-pass (the low-pass rate
        // also tells the magnetometer's new-field test whether the device turns).
        let th = settings.restGyroscopeThreshold
        let quiet = restGyroFilter.squaredDeviation(gyroscope, gain: sampleGains.rest) < th * th
            && SensorCheck.largestMagnitude(restGyro) <= settings.biasLimit && settings.estimatesBiasAtRest

        // The accelerometer in I, averaged until the next correction step.
        let a2 = (accelerometer * accelerometer).sum()
        if a2.isNormal {
            if settings.estimatesBiasAtRest {
                let th = settings.restAccelerometerThreshold
                if restAccFilter.squaredDeviation(accelerometer, gain: sampleGains.rest) < th * th && quiet {
                    restTime += dt
                    resting = restTime >= settings.restMinimumDuration
                } else {
                    restTime = 0
                    resting = false
                }
            }
            // Beyond 1000 m/s² (about 100 g) a reading is an impact or a saturated sensor, not
            // gravity: it ends rest (above) but does not enter the inclination average, where one
            // absurd value would outweigh minutes of real ones.
            if a2 < 1e6 {
                accSum += strapdown.act(on: accelerometer)
                accCount += 1
            }
        } else {
            resting = false
            restTime = 0
        }

        // The magnetometer in I, averaged the same way.
        if let magnetometer {
            let m2 = (magnetometer * magnetometer).sum()
            if m2.isNormal {
                magSum += strapdown.act(on: magnetometer)
                magCount += 1
            }
        }

        stepTime += dt
        if stepTime >= settings.correctionInterval { correct() }
    }

    /// The correction step, every ``Settings-swift.struct/correctionInterval`` seconds: inclination
    /// from the averaged accelerometer, heading from the averaged magnetometer, then the bias
    /// estimator, all over the interval `T` since the last step.
    @inlinable
    mutating func correct() {
        let interval = stepTime
        if abs(interval - stepGains.dt) > stepGains.dt * 1e-3 || !stepGains.matches(settings) {
            stepGains = StepGains(settings: settings, dt: interval)
        }
        strapdown = strapdown.normalizedFast()
        var accCorrection = SIMD2<Scalar>.zero
        var accUsed = false
        if accCount > 0 {
            let inertial = accSum / accCount
            let filtered: SIMD3<Scalar>
            if accFilterSeeded && accStarting && SensorCheck.isFinite(accStartMean) {
                accStartTime += interval
                accStartMean += (inertial - accStartMean) * (interval / accStartTime)
                (accState1, accState2) = stepGains.acc.steadyState(accStartMean)
                filtered = accStartMean
                // Once: changing τ_a later does not restart the mean.
                accStarting = accStartTime < settings.accelerometerTimeConstant
            } else if accFilterSeeded && SensorCheck.isFinite(accState1 + accState2) {
                filtered = stepGains.acc.step(inertial, &accState1, &accState2)
            } else {
                (accState1, accState2) = stepGains.acc.steadyState(inertial)
                filtered = inertial
                accStartTime = interval
                accStartMean = inertial
                accStarting = true
                accFilterSeeded = true
            }
            trackGravityNorm(filtered, interval: interval)
            if let up = SensorCheck.direction(inclination.act(on: filtered)) {
                // The rotation taking `up` to +z: axis (u_y, −u_x, 0), angle acos(u_z).
                let w2 = (1 + up.z) / 2
                let correction: Quaternion<Scalar>
                if w2 > 1e-12 {
                    let w = w2.squareRoot()
                    let s = 1 / (2 * w)
                    correction = Quaternion(w: w, x: up.y * s, y: -up.x * s, z: 0)
                } else {
                    correction = Quaternion(w: 0, x: 1, y: 0, z: 0)  // exactly upside down
                }
                inclination = (correction * inclination).normalizedFast()
                accCorrection = SIMD2(up.y, -up.x)
                accUsed = true
            }
        }
        var headingCorrection: Scalar? = nil
        if magCount > 0 {
            headingCorrection = correctHeading(inertialField: magSum / magCount, interval: interval)
        }
        if settings.estimatesBiasAtRest || settings.estimatesBiasInMotion {
            stepBias(
                interval: interval, accCorrectionRate: accUsed ? accCorrection / interval : nil,
                headingCorrectionRate: headingCorrection.map { $0 / interval })
        }
        clearAverages()
        refreshOutputRotations()
    }

    /// Follows the norm of the low-pass specific force. A perfect accelerometer reads the same
    /// gravity in every orientation; offsets, sensitivity and cross-axis errors, saturation and a
    /// delay between accelerometer and gyroscope make the norm move by about as much as the
    /// direction errs (m/s²), so the deviation of the norm from its long-run mean measures the
    /// accelerometer's error as the filter sees it.
    @inlinable
    mutating func trackGravityNorm(_ filtered: SIMD3<Scalar>, interval: Scalar) {
        filteredAcc = filtered
        // The reference is seeded by the low-pass output after the fast start (a mean over τ_a), not
        // by one step that may hold a stride's worth of linear acceleration.
        guard !accStarting else { return }
        let norm = (filtered * filtered).sum().squareRoot()
        guard norm.isFinite else { return }
        if gravityNorm > 0 {
            let d = norm - gravityNorm
            gravityNormDeviation2 += (d * d - gravityNormDeviation2) * stepGains.accFirstOrder
            gravityNorm += d * StepGains.gain(dt: interval, tau: settings.biasForgettingTime)
        } else {
            gravityNorm = norm
        }
    }

    /// Empties the sums averaged between correction steps (after the attitude is replaced, the old
    /// sums are in a frame that no longer exists).
    @inlinable
    mutating func clearAverages() {
        stepTime = 0
        rateSum = .zero
        accSum = .zero
        accCount = 0
        magSum = .zero
        magCount = 0
    }

    /// Disturbance detection and the heading correction for the field `inertialField` (averaged, in
    /// I). Returns the correction angle when it ran at its nominal gain (the only case the bias
    /// estimator can use), else nil.
    @inlinable
    mutating func correctHeading(inertialField: SIMD3<Scalar>, interval dt: Scalar) -> Scalar? {
        let field = inclination.act(on: inertialField)  // in E6
        let norm2 = (field * field).sum()
        guard norm2.isNormal else { return nil }
        let norm = norm2.squareRoot()
        let e = field / norm
        var gain = stepGains.mag
        var nominal = true

        if settings.rejectsMagneticDisturbances {
            let current = SIMD2(norm, Scalar.asin(max(-1, min(1, -e.z))))
            if magSeeded {
                magNormDip += (current - magNormDip) * stepGains.magCurrent
            } else {
                magNormDip = current
                magSeeded = true
            }
            let normTh = settings.magneticNormThreshold
            let dipTh = settings.magneticDipThreshold
            if abs(magNormDip.x - magReference.x) < normTh * magReference.x
                && abs(magNormDip.y - magReference.y) < dipTh
            {
                magUndisturbedTime += dt
                if magUndisturbedTime >= settings.undisturbedDuration {
                    magDisturbed = false
                    magReference += (magNormDip - magReference) * stepGains.magReference
                }
            } else {
                magUndisturbedTime = 0
                magDisturbed = true
            }
            // A new field: consistent for long enough while the sensor moves.
            if abs(magNormDip.x - magCandidate.x) < normTh * magCandidate.x
                && abs(magNormDip.y - magCandidate.y) < dipTh
            {
                if (restGyro * restGyro).sum() >= settings.newFieldMinimumRate * settings.newFieldMinimumRate {
                    magCandidateTime += dt
                }
                magCandidate += (magNormDip - magCandidate) * stepGains.magReference
                if magDisturbed
                    && (magCandidateTime >= settings.newFieldDuration
                        || (magReference.x == 0 && magCandidateTime >= settings.firstFieldDuration))
                {
                    // Before the first reference every field counts as disturbed and the rejection
                    // budget is spent (the magnetometer is used at the reduced gain); with a
                    // reference to judge against, the full budget becomes available.
                    if magReference.x == 0 { magRejectionTime = 0 }
                    magReference = magCandidate
                    magDisturbed = false
                    magUndisturbedTime = settings.undisturbedDuration
                }
            } else {
                magCandidateTime = 0
                magCandidate = magNormDip
            }
            if magDisturbed {
                nominal = false
                if magRejectionTime <= settings.maximumRejectionDuration {
                    magRejectionTime += dt
                    gain = 0
                } else {
                    gain /= settings.rejectionGainFactor
                }
            } else {
                magRejectionTime = max(magRejectionTime - settings.rejectionGainFactor * dt, 0)
            }
        }

        // Disagreement: the angle about +z that takes the horizontal field (in E9) to north (+x).
        let cosine = heading.w * heading.w - heading.z * heading.z
        let sine = 2 * heading.w * heading.z  // (cos δ, sin δ) of the current heading rotation
        let fx = cosine * e.x - sine * e.y
        let fy = sine * e.x + cosine * e.y
        guard fx * fx + fy * fy > Scalar.ulpOfOne else { return nil }  // field vertical
        let disagreement = -Scalar.atan2(y: fy, x: fx)
        lastHeadingDisagreement = disagreement

        if !headingSeeded {
            // The first usable field (at initialization, or later if the first samples had none)
            // sets the heading outright; the following ones are averaged with gains 1/2, 1/3, ….
            headingSeeded = true
            gain = 1
            nominal = false
            headingInitCount = 1
            headingInitTime = 0
        } else if headingInitCount > 0 {
            // Fast start: the running mean of the first τ_m seconds, of the fields that are not
            // judged disturbed against a reference (before the first reference every field counts).
            headingInitTime += dt
            nominal = false
            if !(magDisturbed && magReference.x > 0) {
                headingInitCount += 1
                gain = max(gain, 1 / headingInitCount)
            }
            if headingInitTime >= settings.magnetometerTimeConstant { headingInitCount = 0 }
        }
        let angle = gain * disagreement
        if angle != 0 {
            let half = angle / 2
            let c: Scalar
            let s: Scalar
            if abs(half) < 0.05 {
                let h2 = half * half
                c = 1 - h2 / 2 + h2 * h2 / 24
                s = half * (1 - h2 / 6 + h2 * h2 / 120)
            } else {
                c = .cos(half)
                s = .sin(half)
            }
            let w = c * heading.w - s * heading.z
            let z = s * heading.w + c * heading.z
            let n = 1 / (w * w + z * z).squareRoot()
            heading = Quaternion(w: w * n, x: 0, y: 0, z: z * n)
        }
        return nominal ? angle : nil
    }

    /// One step of the bias and scale estimator over `interval` seconds: the model inputs (the
    /// earth axes seen in the sensor frame, rows of R = sensor → E6, the same rows times the step's
    /// mean rate, and the drift the current estimates predict) go through the same low-pass filters
    /// as the corrections they explain, then one Kalman update with the rest or motion measurement.
    ///
    /// State x = (b, k): measured rate = (1 + k) ⊙ true rate + b. A residual (Δb, Δk) turns I at
    /// `R (Δb + ω ⊙ Δk)` in the earth frame, so the inclination correction rate φ/T satisfies
    /// `LP(R) b + LP(R diag ω) k = LP(R b̂ + R diag(ω) k̂) − φ/T` (rows x and y); the heading
    /// correction gives the vertical row with the first-order low-pass of τ_m.
    @inlinable
    mutating func stepBias(interval: Scalar, accCorrectionRate: SIMD2<Scalar>?, headingCorrectionRate: Scalar?) {
        let meanRate = interval > 0 ? rateSum / interval : .zero
        let estimatesScale = settings.estimatesScaleInMotion
        if settings.estimatesBiasInMotion {
            let q6 = inclination * strapdown
            let rx = q6.inverseAct(on: SIMD3(1, 0, 0))
            let ry = q6.inverseAct(on: SIMD3(0, 1, 0))
            let rz = rx.crossProduct(ry)
            let kx = rx * meanRate
            let ky = ry * meanRate
            let kz = rz * meanRate
            let predicted = SIMD2(
                (rx * bias).sum() + (kx * scaleError).sum(), (ry * bias).sum() + (ky * scaleError).sum())
            let predictedZ = (rz * bias).sum() + (kz * scaleError).sum()
            let filter = stepGains.acc
            let earthRate = SIMD3(kx.sum(), ky.sum(), kz.sum())  // R ω
            if lowPassSeeded {
                slowEarthRate = filter.step(earthRate, &lowPassEarthRate.z1, &lowPassEarthRate.z2)
                filteredRx = filter.step(rx, &lowPassRx.z1, &lowPassRx.z2)
                filteredRy = filter.step(ry, &lowPassRy.z1, &lowPassRy.z2)
                filteredKx = filter.step(kx, &lowPassKx.z1, &lowPassKx.z2)
                filteredKy = filter.step(ky, &lowPassKy.z1, &lowPassKy.z2)
                filteredRb = filter.step(predicted, &lowPassRb1, &lowPassRb2)
                let g = stepGains.mag
                lowPassVertical += (rz - lowPassVertical) * g
                lowPassVerticalK += (kz - lowPassVerticalK) * g
                lowPassVerticalB += (predictedZ - lowPassVerticalB) * g
            } else {
                // Seeded at rest: one step's rate may be a swing's peak, not the slow turn.
                lowPassEarthRate = filter.steadyState(SIMD3<Scalar>.zero)
                slowEarthRate = .zero
                lowPassRx = filter.steadyState(rx)
                lowPassRy = filter.steadyState(ry)
                lowPassKx = filter.steadyState(kx)
                lowPassKy = filter.steadyState(ky)
                (lowPassRb1, lowPassRb2) = filter.steadyState(predicted)
                filteredRx = rx
                filteredRy = ry
                filteredKx = kx
                filteredKy = ky
                filteredRb = predicted
                lowPassVertical = rz
                lowPassVerticalK = kz
                lowPassVerticalB = predictedZ
                lowPassSeeded = true
            }
            verticalRow = rz
        }
        // Prediction: the variances grow toward their ceilings (random walks).
        let s0 = Double(settings.biasInitialSigma * settings.biasInitialSigma)
        let k0 = Double(settings.gyroscopeScaleUncertainty * settings.gyroscopeScaleUncertainty)
        let growth = Double(settings.biasDrift * settings.biasDrift / settings.biasForgettingTime * interval)
        let scaleGrowth = k0 * Double(interval / settings.scaleForgettingTime)
        covariance.grow(
            SIMD8(growth, growth, growth, scaleGrowth, scaleGrowth, scaleGrowth, 0, 0),
            ceiling: SIMD8(s0, s0, s0, k0, k0, k0, 0, 0))

        // A measurement variance w whose steady state (growth V per step, w ≈ σ⁴ / V) is σ²: the
        // sigma settings are the estimate's standard deviations in steady state.
        // Without drift (biasDrift 0) there is no steady state to aim at: each measurement then
        // counts with variance σ².
        func measurementVariance(_ sigma: Scalar) -> Double {
            let v = Double(sigma * sigma)
            return growth > 0 ? v * v / growth + v : v
        }
        @inline(__always) func row(_ b: SIMD3<Scalar>, _ k: SIMD3<Scalar>) -> SIMD8<Double> {
            let (b, k) = (SIMD3<Double>(b), SIMD3<Double>(k))
            return estimatesScale ? SIMD8(b.x, b.y, b.z, k.x, k.y, k.z, 0, 0) : SIMD8(b.x, b.y, b.z, 0, 0, 0, 0, 0)
        }
        var h0: SIMD8<Double>
        var h1: SIMD8<Double>
        var h2: SIMD8<Double>
        var innovation: SIMD3<Double>
        var variance: SIMD3<Double>
        if resting && settings.estimatesBiasAtRest {
            h0 = SIMD8(1, 0, 0, 0, 0, 0, 0, 0)
            h1 = SIMD8(0, 1, 0, 0, 0, 0, 0, 0)
            h2 = SIMD8(0, 0, 1, 0, 0, 0, 0, 0)
            innovation = SIMD3<Double>(restGyro - bias)
            variance = SIMD3(repeating: measurementVariance(settings.biasRestSigma))
        } else if settings.estimatesBiasInMotion, let corrRate = accCorrectionRate {
            h0 = row(filteredRx, filteredKx)
            h1 = row(filteredRy, filteredKy)
            let (b, k) = (SIMD3<Double>(bias), SIMD3<Double>(scaleError))
            let state = SIMD8(b.x, b.y, b.z, k.x, k.y, k.z, 0, 0)
            let ex = Double(filteredRb.x - corrRate.x) - (h0 * state).sum()
            let ey = Double(filteredRb.y - corrRate.y) - (h1 * state).sum()
            // The motion measurement is the inclination correction rate, whose errors are not only
            // the gyroscope's: an accelerometer that errs by δ (m/s², see trackGravityNorm) tilts
            // the low-pass gravity by δ/g, a tilt that changes over τ_a as the device moves, which
            // the correction follows at about δ/(g τ_a). Correlated over τ_a, such errors count
            // τ_a/T times in the variance of each step of length T: δ² / (g² τ_a T) in all.
            let tauA = Double(settings.accelerometerTimeConstant)
            let g2 = Double((filteredAcc * filteredAcc).sum())
            let accelerometerVariance = g2 > 1 && interval > 0
                ? Double(gravityNormDeviation2) / (g2 * tauA * Double(interval)) : 0
            let vm = measurementVariance(settings.biasMotionSigma) + accelerometerVariance
            var ez: Double
            var vz: Double
            if settings.estimatesVerticalBiasFromMagnetometer, let headingRate = headingCorrectionRate {
                h2 = row(lowPassVertical, lowPassVerticalK)
                ez = Double(lowPassVerticalB - headingRate) - (h2 * state).sum()
                // A heading error ψ that persists while the device turns at Ω (the low-pass earth
                // rate) reads as a vertical bias of ψ Ω, correlated over τ_a (T: the step).
                let psi = Double(settings.magneticHeadingUncertainty)
                let turn2 = Double((slowEarthRate * slowEarthRate).sum())
                let steps = interval > 0 ? max(1, tauA / Double(interval)) : 1
                vz = measurementVariance(settings.biasMagnetometerSigma) + psi * psi * turn2 * steps
            } else {
                // Weak prior: the vertical bias component stays near zero unless observed.
                h2 = row(verticalRow, .zero)
                ez = -(SIMD3<Double>(verticalRow) * b).sum()
                vz = vm * 1e4
            }
            innovation = SIMD3(ex, ey, ez)
            variance = SIMD3(vm, vm, vz)
        } else {
            return
        }
        let limit = Double(settings.biasLimit)
        innovation = innovation.clamped(lowerBound: SIMD3(repeating: -limit), upperBound: SIMD3(repeating: limit))
        guard let correction = covariance.update(rows: h0, h1, h2, innovation: innovation, variance: variance)
        else { return }
        bias += SIMD3<Scalar>(SIMD3(correction[0], correction[1], correction[2]))
        if estimatesScale {
            let limitK = 3 * settings.gyroscopeScaleUncertainty
            scaleError = (scaleError + SIMD3<Scalar>(SIMD3(correction[3], correction[4], correction[5])))
                .clamped(lowerBound: SIMD3(repeating: -limitK), upperBound: SIMD3(repeating: limitK))
            inverseScale = 1 / (1 + scaleError)
        }
    }

    /// `exp` of a pure quaternion with vector part `v` (a half rotation vector): `(cos|v|, sin|v| v̂)`,
    /// by its Taylor series for the small angles of one sample and by `cos`/`sin` beyond.
    @inlinable @inline(__always)
    static func exponential(halfRotation v: SIMD3<Scalar>) -> Quaternion<Scalar> {
        let t2 = (v * v).sum()
        if t2 < 0.0625 {  // |v| < 0.25 rad: series error below 1e-9 (and below Float's ulp)
            let c2: Scalar = 1 - t2 / 30
            let c1: Scalar = 1 - (t2 / 12) * c2
            let c: Scalar = 1 - (t2 / 2) * c1
            let s2: Scalar = 1 - t2 / 42
            let s1: Scalar = 1 - (t2 / 20) * s2
            let s: Scalar = 1 - (t2 / 6) * s1
            return Quaternion(w: c, x: v.x * s, y: v.y * s, z: v.z * s)
        }
        let t = t2.squareRoot()
        let s = Scalar.sin(t) / t
        return Quaternion(w: .cos(t), x: v.x * s, y: v.y * s, z: v.z * s)
    }

    /// The rest detector's gain for one sample period, cached.
    @usableFromInline
    struct SampleGains: Sendable {
        @usableFromInline var dt: Scalar = 0
        @usableFromInline var tau: Scalar = -1
        @usableFromInline var rest: Scalar = 1

        @inlinable init() {}

        @inlinable
        init(dt: Scalar, restTimeConstant: Scalar) {
            self.dt = dt
            tau = restTimeConstant
            rest = StepGains.gain(dt: dt, tau: restTimeConstant)
        }
    }

    /// Gains for one correction interval, cached.
    @usableFromInline
    struct StepGains: Sendable {
        @usableFromInline var dt: Scalar = 0
        @usableFromInline var tauAcc: Scalar = -1
        @usableFromInline var tauMag: Scalar = 0
        @usableFromInline var tauCurrent: Scalar = 0
        @usableFromInline var tauReference: Scalar = 0
        /// The accelerometer low-pass (second-order Butterworth, τ_a).
        @usableFromInline var acc = ButterworthLowPass<Scalar>()
        /// First-order gain `1 − exp(−T/τ_a)`.
        @usableFromInline var accFirstOrder: Scalar = 1
        /// Heading gain `1 − exp(−T/τ_m)`.
        @usableFromInline var mag: Scalar = 0
        @usableFromInline var magCurrent: Scalar = 0
        @usableFromInline var magReference: Scalar = 0

        @inlinable init() {}

        @inlinable
        init(settings: Settings, dt: Scalar) {
            self.dt = dt
            tauAcc = settings.accelerometerTimeConstant
            tauMag = settings.magnetometerTimeConstant
            tauCurrent = settings.magneticCurrentTimeConstant
            tauReference = settings.magneticReferenceTimeConstant
            acc = ButterworthLowPass(tau: tauAcc, dt: dt)
            accFirstOrder = Self.gain(dt: dt, tau: tauAcc)
            mag = Self.gain(dt: dt, tau: tauMag)
            magCurrent = Self.gain(dt: dt, tau: tauCurrent)
            magReference = Self.gain(dt: dt, tau: tauReference)
        }

        @inlinable
        func matches(_ settings: Settings) -> Bool {
            tauAcc == settings.accelerometerTimeConstant && tauMag == settings.magnetometerTimeConstant
                && tauCurrent == settings.magneticCurrentTimeConstant
                && tauReference == settings.magneticReferenceTimeConstant
        }

        /// `1 − exp(−Δt/τ)`: the exact first-order step gain; 1 (no filtering) for τ ≤ 0.
        @inlinable
        static func gain(dt: Scalar, tau: Scalar) -> Scalar {
            guard tau > 0 else { return 1 }
            return 1 - Scalar.exp(-dt / tau)
        }
    }
}

extension Quaternion {
    /// Normalization for a quaternion already within rounding of unit length: one reciprocal square
    /// root, falling back to ``normalized()`` for anything unusual.
    @inlinable @inline(__always)
    func normalizedFast() -> Quaternion {
        let n2 = lengthSquared
        if n2 > 0.25 && n2 < 4 { return Quaternion(components: components * (1 / n2.squareRoot())) }
        return normalized()
    }
}

/// The rest detector's first-order low-pass of one sensor and the squared deviation of each new
/// sample from it (the first sample seeds it).
@frozen @usableFromInline
struct RestLowPass<Scalar: FusionScalar>: Sendable {
    @usableFromInline var value: SIMD3<Scalar> = .zero
    @usableFromInline var seeded = false

    @inlinable init() {}

    /// Updates the low-pass with `x` (gain `1 − exp(−Δt/τ)`) and returns `|x − low-pass|²`.
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

extension InertialFrameFilter.Settings {
#if !hasFeature(Embedded)
    /// Decodes settings written by this or an earlier version: a field that is missing (one added
    /// since, such as `magneticHeadingUncertainty`) keeps its default; a field that is present must
    /// have the right type. Values are not range-checked here (see ``validate()``).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var s = Self()
        if let v = try c.decodeIfPresent(type(of: s.accelerometerTimeConstant), forKey: .accelerometerTimeConstant) { s.accelerometerTimeConstant = v }
        if let v = try c.decodeIfPresent(type(of: s.estimatesScaleInMotion), forKey: .estimatesScaleInMotion) { s.estimatesScaleInMotion = v }
        if let v = try c.decodeIfPresent(type(of: s.gyroscopeScaleUncertainty), forKey: .gyroscopeScaleUncertainty) { s.gyroscopeScaleUncertainty = v }
        if let v = try c.decodeIfPresent(type(of: s.scaleForgettingTime), forKey: .scaleForgettingTime) { s.scaleForgettingTime = v }
        if let v = try c.decodeIfPresent(type(of: s.magnetometerTimeConstant), forKey: .magnetometerTimeConstant) { s.magnetometerTimeConstant = v }
        if let v = try c.decodeIfPresent(type(of: s.estimatesBiasAtRest), forKey: .estimatesBiasAtRest) { s.estimatesBiasAtRest = v }
        if let v = try c.decodeIfPresent(type(of: s.estimatesBiasInMotion), forKey: .estimatesBiasInMotion) { s.estimatesBiasInMotion = v }
        if let v = try c.decodeIfPresent(type(of: s.estimatesVerticalBiasFromMagnetometer), forKey: .estimatesVerticalBiasFromMagnetometer) { s.estimatesVerticalBiasFromMagnetometer = v }
        if let v = try c.decodeIfPresent(type(of: s.biasInitialSigma), forKey: .biasInitialSigma) { s.biasInitialSigma = v }
        if let v = try c.decodeIfPresent(type(of: s.biasForgettingTime), forKey: .biasForgettingTime) { s.biasForgettingTime = v }
        if let v = try c.decodeIfPresent(type(of: s.biasDrift), forKey: .biasDrift) { s.biasDrift = v }
        if let v = try c.decodeIfPresent(type(of: s.biasLimit), forKey: .biasLimit) { s.biasLimit = v }
        if let v = try c.decodeIfPresent(type(of: s.biasMotionSigma), forKey: .biasMotionSigma) { s.biasMotionSigma = v }
        if let v = try c.decodeIfPresent(type(of: s.biasRestSigma), forKey: .biasRestSigma) { s.biasRestSigma = v }
        if let v = try c.decodeIfPresent(type(of: s.biasMagnetometerSigma), forKey: .biasMagnetometerSigma) { s.biasMagnetometerSigma = v }
        if let v = try c.decodeIfPresent(type(of: s.magneticHeadingUncertainty), forKey: .magneticHeadingUncertainty) { s.magneticHeadingUncertainty = v }
        if let v = try c.decodeIfPresent(type(of: s.correctionInterval), forKey: .correctionInterval) { s.correctionInterval = v }
        if let v = try c.decodeIfPresent(type(of: s.restTimeConstant), forKey: .restTimeConstant) { s.restTimeConstant = v }
        if let v = try c.decodeIfPresent(type(of: s.restGyroscopeThreshold), forKey: .restGyroscopeThreshold) { s.restGyroscopeThreshold = v }
        if let v = try c.decodeIfPresent(type(of: s.restAccelerometerThreshold), forKey: .restAccelerometerThreshold) { s.restAccelerometerThreshold = v }
        if let v = try c.decodeIfPresent(type(of: s.restMinimumDuration), forKey: .restMinimumDuration) { s.restMinimumDuration = v }
        if let v = try c.decodeIfPresent(type(of: s.rejectsMagneticDisturbances), forKey: .rejectsMagneticDisturbances) { s.rejectsMagneticDisturbances = v }
        if let v = try c.decodeIfPresent(type(of: s.magneticNormThreshold), forKey: .magneticNormThreshold) { s.magneticNormThreshold = v }
        if let v = try c.decodeIfPresent(type(of: s.magneticDipThreshold), forKey: .magneticDipThreshold) { s.magneticDipThreshold = v }
        if let v = try c.decodeIfPresent(type(of: s.magneticReferenceTimeConstant), forKey: .magneticReferenceTimeConstant) { s.magneticReferenceTimeConstant = v }
        if let v = try c.decodeIfPresent(type(of: s.magneticCurrentTimeConstant), forKey: .magneticCurrentTimeConstant) { s.magneticCurrentTimeConstant = v }
        if let v = try c.decodeIfPresent(type(of: s.newFieldDuration), forKey: .newFieldDuration) { s.newFieldDuration = v }
        if let v = try c.decodeIfPresent(type(of: s.firstFieldDuration), forKey: .firstFieldDuration) { s.firstFieldDuration = v }
        if let v = try c.decodeIfPresent(type(of: s.newFieldMinimumRate), forKey: .newFieldMinimumRate) { s.newFieldMinimumRate = v }
        if let v = try c.decodeIfPresent(type(of: s.undisturbedDuration), forKey: .undisturbedDuration) { s.undisturbedDuration = v }
        if let v = try c.decodeIfPresent(type(of: s.maximumRejectionDuration), forKey: .maximumRejectionDuration) { s.maximumRejectionDuration = v }
        if let v = try c.decodeIfPresent(type(of: s.rejectionGainFactor), forKey: .rejectionGainFactor) { s.rejectionGainFactor = v }
        if let v = try c.decodeIfPresent(type(of: s.frame), forKey: .frame) { s.frame = v }
        self = s
    }
#endif
}

extension InertialFrameFilter.Settings: RangedSettings {
    /// The valid range of every numeric setting: the one table that ``validate()``, the clamp of
    /// ``InertialFrameFilter/settings`` and the tests read (the fields' documentation states the
    /// same ranges, and a test compares them).
    static var rules: [SettingRule<Self>] {
        [
            SettingRule("accelerometerTimeConstant", { $0.accelerometerTimeConstant }, { $0.accelerometerTimeConstant = $1 }, .positive),
            SettingRule("gyroscopeScaleUncertainty", { $0.gyroscopeScaleUncertainty }, { $0.gyroscopeScaleUncertainty = $1 }, .closed(0, 0.1)),
            SettingRule("scaleForgettingTime", { $0.scaleForgettingTime }, { $0.scaleForgettingTime = $1 }, .positive),
            SettingRule("magnetometerTimeConstant", { $0.magnetometerTimeConstant }, { $0.magnetometerTimeConstant = $1 }, .positive),
            SettingRule("biasInitialSigma", { $0.biasInitialSigma }, { $0.biasInitialSigma = $1 }, .positive),
            SettingRule("biasForgettingTime", { $0.biasForgettingTime }, { $0.biasForgettingTime = $1 }, .positive),
            SettingRule("biasDrift", { $0.biasDrift }, { $0.biasDrift = $1 }, .nonNegative),
            SettingRule("biasLimit", { $0.biasLimit }, { $0.biasLimit = $1 }, .positive),
            SettingRule("biasMotionSigma", { $0.biasMotionSigma }, { $0.biasMotionSigma = $1 }, .positive),
            SettingRule("biasRestSigma", { $0.biasRestSigma }, { $0.biasRestSigma = $1 }, .positive),
            SettingRule("biasMagnetometerSigma", { $0.biasMagnetometerSigma }, { $0.biasMagnetometerSigma = $1 }, .positive),
            SettingRule("magneticHeadingUncertainty", { $0.magneticHeadingUncertainty }, { $0.magneticHeadingUncertainty = $1 }, .nonNegative),
            SettingRule("correctionInterval", { $0.correctionInterval }, { $0.correctionInterval = $1 }, .nonNegative),
            SettingRule("restTimeConstant", { $0.restTimeConstant }, { $0.restTimeConstant = $1 }, .positive),
            SettingRule("restGyroscopeThreshold", { $0.restGyroscopeThreshold }, { $0.restGyroscopeThreshold = $1 }, .positive),
            SettingRule("restAccelerometerThreshold", { $0.restAccelerometerThreshold }, { $0.restAccelerometerThreshold = $1 }, .positive),
            SettingRule("restMinimumDuration", { $0.restMinimumDuration }, { $0.restMinimumDuration = $1 }, .nonNegative),
            SettingRule("magneticNormThreshold", { $0.magneticNormThreshold }, { $0.magneticNormThreshold = $1 }, .positive),
            SettingRule("magneticDipThreshold", { $0.magneticDipThreshold }, { $0.magneticDipThreshold = $1 }, .positive),
            SettingRule("magneticReferenceTimeConstant", { $0.magneticReferenceTimeConstant }, { $0.magneticReferenceTimeConstant = $1 }, .positive),
            SettingRule("magneticCurrentTimeConstant", { $0.magneticCurrentTimeConstant }, { $0.magneticCurrentTimeConstant = $1 }, .positive),
            SettingRule("newFieldDuration", { $0.newFieldDuration }, { $0.newFieldDuration = $1 }, .nonNegative),
            SettingRule("firstFieldDuration", { $0.firstFieldDuration }, { $0.firstFieldDuration = $1 }, .nonNegative),
            SettingRule("newFieldMinimumRate", { $0.newFieldMinimumRate }, { $0.newFieldMinimumRate = $1 }, .nonNegative),
            SettingRule("undisturbedDuration", { $0.undisturbedDuration }, { $0.undisturbedDuration = $1 }, .nonNegative),
            SettingRule("maximumRejectionDuration", { $0.maximumRejectionDuration }, { $0.maximumRejectionDuration = $1 }, .nonNegative),
            SettingRule("rejectionGainFactor", { $0.rejectionGainFactor }, { $0.rejectionGainFactor = $1 }, .atLeast(1)),
        ]
    }

    static var defaults: Self { Self() }

    /// Checks every numeric setting against its valid range (stated on each property).
    ///
    /// - Throws: ``SettingsError/outOfRange(setting:value:range:)`` for the first setting outside
    ///   its range.
    public func validate() throws(SettingsError) {
        if let error = rangeViolation() { throw error }
    }

    /// These settings with every value moved into its range, as ``InertialFrameFilter/settings`` documents.
    @usableFromInline
    func clamped() -> Self { clampedToRanges() }
}

#if !hasFeature(Embedded)
extension InertialFrameFilter.Settings: Codable {}
#endif
