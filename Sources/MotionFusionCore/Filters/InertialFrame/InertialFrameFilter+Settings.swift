extension InertialFrameFilter {
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
        /// smartphone trials picked 4 s; see <doc:InertialFrameFiltering>).
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
        /// widen ``biasInitialSigma``. With ``adaptsHeadingTimeConstant`` this is the longest heading time
        /// constant, the one used while the device does not turn. Valid range: > 0, finite.
        public var magnetometerTimeConstant: Scalar
        /// Shorten the heading time constant while the device turns, and lengthen it back toward
        /// τ_m when the magnetometer proves noisier than ``magneticHeadingUncertainty``. Default true.
        ///
        /// The gyroscope's sensitivity errors (their uncertainty is the Kalman filter's, at most
        /// ``gyroscopeScaleUncertainty``) turn the heading in proportion to the angle turned, so
        /// while the device turns the heading drifts faster than the residual bias alone makes it;
        /// the time constant that balances drift against the magnetometer's error (see τ_m) is then
        /// `(ψ² · 1 s / (4 σ_d²))^(1/3)`, where `σ_d² = σ_0² + Σᵢ P_kᵢ ūᵢ²`: σ_0 is the drift for
        /// which τ_m is that balance, `P_k` the sensitivities' covariance and `ū` the low-pass
        /// (over the heading time constant) of the rate's contributions to the turn about the vertical.
        /// ψ is the larger of ``magneticHeadingUncertainty`` and the RMS of the heading
        /// disagreements seen over τ_m at undisturbed steps. The result is never above τ_m.
        public var adaptsHeadingTimeConstant: Bool
        /// Estimate how long the magnetometer lags the gyroscope, and compensate the lag. Default
        /// true. A reading `d` seconds late, taken while the sensor turns at ω, errs by `d ω × m`;
        /// where the field dips steeply, a 10-ms lag at 300°/s errs the heading by several degrees.
        /// The lag is the slope of the field's fast changes in the almost inertial frame on those
        /// that `ω × m` predicts (see <doc:InertialFrameFiltering>), bounded to ±0.1 s; the estimate
        /// is ``InertialFrameFilter/magnetometerLatency``.
        public var estimatesMagnetometerLatency: Bool
        /// Estimate the gyroscope bias while the sensor rests. Default true.
        public var estimatesBiasAtRest: Bool
        /// Estimate the gyroscope bias from the inclination (and, in 9D, heading) corrections while
        /// the sensor moves. Default true.
        public var estimatesBiasInMotion: Bool
        /// Let the heading correction observe the vertical bias component in 9D. Default true.
        public var estimatesVerticalBiasFromMagnetometer: Bool
        /// The bias standard deviation before any measurement, rad/s; also the ceiling the
        /// uncertainty grows back to. Default 0.5°/s: a gyroscope calibrated at start (by the
        /// operating system, ``GyroscopeCalibrator`` or a rest). For one that is not (raw MEMS
        /// readings that never rest), give its zero-rate offset tolerance, a few °/s: on
        /// uncalibrated phones 2°/s puts the filter ahead of VQF in 9D, where 0.5°/s leaves it
        /// behind (<doc:AccuracyResults>). Valid range: > 0, finite.
        public var biasInitialSigma: Scalar
        /// s: the time in which an unobserved bias is expected to drift by ``biasDrift``. Default 100.
        /// Also the time constant of the reference gravity norm against which the accelerometer's
        /// error is judged (see ``biasMotionSigma``). Valid range: > 0, finite.
        public var biasForgettingTime: Scalar
        /// rad/s: the random-walk drift of the bias per ``biasForgettingTime`` (its variance grows by
        /// the square of this per forgetting time). Default 0.1°/s. 0: no drift (each measurement
        /// then counts with the variance of its sigma). Valid range: ≥ 0, finite.
        public var biasDrift: Scalar
        /// rad/s: the largest bias there can be. A rest whose mean rate has a component beyond it is
        /// a steady turn, not a bias, and is not measured; a larger disagreement claimed by one
        /// measurement is clipped to it. Default 10°/s: the zero-rate offset a consumer MEMS
        /// gyroscope may have before calibration (phones' raw gyroscopes are seen up to 6°/s off;
        /// datasheet tolerances reach ±10°/s). It was 2°/s, which kept a rest from measuring the
        /// 5.7°/s bias of a raw iPhone gyroscope (<doc:AccuracyResults>). Valid range: > 0, finite.
        public var biasLimit: Scalar
        /// rad/s: the bias estimate's standard deviation reached in steady state while moving, which
        /// sets how much a motion measurement is trusted when the accelerometer is consistent (the
        /// measurement's variance grows further with the accelerometer's observed error, see
        /// <doc:InertialFrameFiltering>). Default 0.1°/s, VQF's value: 0.05°/s (a warmed-up MEMS
        /// gyroscope's stability) fitted a laboratory IMU but let phone gyroscopes, whose bias
        /// wanders with temperature, be corrected from accelerometer errors (the Inria smartphone
        /// trials moved it). Valid range: > 0, finite.
        public var biasMotionSigma: Scalar
        /// rad/s: the same at rest: a rest measurement's variance is the larger of its white noise
        /// (the gyroscope's noise over the number of still samples) and the steady-state variance
        /// this sets, because slow residual motion (a body's sway) is not white. Default 0.03°/s.
        /// Valid range: > 0, finite.
        public var biasRestSigma: Scalar
        /// rad/s: the same for the vertical component observed through the heading correction.
        /// Default 0.1°/s. Valid range: > 0, finite.
        public var biasMagnetometerSigma: Scalar
        /// rad: the magnetometer's heading error that persists for seconds (residual hard- and
        /// soft-iron, a field that is uneven across the room). While the device turns at Ω (over
        /// seconds), such an error turns with it and the heading correction that follows it looks
        /// like a vertical bias of about this times Ω; the vertical bias measurement's variance grows
        /// by that much. It also sets how much of the rejection budget the first field reference
        /// makes available: the time `ψ / σ_bz` in which the vertical bias's uncertainty turns the
        /// heading by this much (see ``maximumRejectionDuration``). Default 5° (indoors). 0 trusts
        /// the heading correction whatever the motion, and the first reference then makes no
        /// budget available. Valid range: ≥ 0, finite.
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
        /// s: how long the thresholds must hold before rest is declared. Every still sample counts,
        /// from the start of the stillness, with its own noise: the rest measurement's variance is
        /// the gyroscope's white noise (estimated over the stillness) over the number of samples,
        /// so a short rest is a weak measurement, not a wrong one. Default 0.5, the rest detector's
        /// own time constant ``restTimeConstant``: a stillness shorter than that has not been
        /// compared with a low-pass that has forgotten the motion before it. It was 1.5 s, longer
        /// than the second a walker stands before setting off (<doc:AccuracyResults>).
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
        /// s: the longest time the magnetometer is ignored in a disturbance. The budget starts spent
        /// and is earned back at ``rejectionGainFactor`` seconds per undisturbed second; the first
        /// field reference makes `ψ / σ_bz` of it available at once (``magneticHeadingUncertainty``
        /// over the vertical bias's standard deviation: 10 s at the prior, all of it once rest has
        /// measured the bias). Default 60. Valid range: ≥ 0, finite.
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
            magnetometerTimeConstant: Scalar = 30, adaptsHeadingTimeConstant: Bool = true,
            estimatesMagnetometerLatency: Bool = true,
            estimatesBiasAtRest: Bool = true, estimatesBiasInMotion: Bool = true,
            estimatesVerticalBiasFromMagnetometer: Bool = true,
            biasInitialSigma: Scalar = 0.5 * .pi / 180, biasForgettingTime: Scalar = 100,
            biasDrift: Scalar = 0.1 * .pi / 180,
            biasLimit: Scalar = 10 * .pi / 180, biasMotionSigma: Scalar = 0.1 * .pi / 180,
            biasRestSigma: Scalar = 0.03 * .pi / 180, biasMagnetometerSigma: Scalar = 0.1 * .pi / 180,
            magneticHeadingUncertainty: Scalar = 5 * .pi / 180,
            correctionInterval: Scalar = 0.1,
            restTimeConstant: Scalar = 0.5, restGyroscopeThreshold: Scalar = 2 * .pi / 180,
            restAccelerometerThreshold: Scalar = 0.5, restMinimumDuration: Scalar = 0.5,
            rejectsMagneticDisturbances: Bool = true, magneticNormThreshold: Scalar = 0.1,
            magneticDipThreshold: Scalar = 10 * .pi / 180, magneticReferenceTimeConstant: Scalar = 20,
            magneticCurrentTimeConstant: Scalar = 0.05, newFieldDuration: Scalar = 20,
            firstFieldDuration: Scalar = 5, newFieldMinimumRate: Scalar = 20 * .pi / 180,
            undisturbedDuration: Scalar = 0.5, maximumRejectionDuration: Scalar = 60,
            rejectionGainFactor: Scalar = 2, frame: EarthFrame = .enu
        ) {
            self.accelerometerTimeConstant = accelerometerTimeConstant
            self.magnetometerTimeConstant = magnetometerTimeConstant
            self.adaptsHeadingTimeConstant = adaptsHeadingTimeConstant
            self.estimatesMagnetometerLatency = estimatesMagnetometerLatency
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
        if let v = try c.decodeIfPresent(type(of: s.adaptsHeadingTimeConstant), forKey: .adaptsHeadingTimeConstant) { s.adaptsHeadingTimeConstant = v }
        if let v = try c.decodeIfPresent(type(of: s.estimatesMagnetometerLatency), forKey: .estimatesMagnetometerLatency) { s.estimatesMagnetometerLatency = v }
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
