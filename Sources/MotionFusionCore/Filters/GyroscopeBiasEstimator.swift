import RealModule

/// Estimates the gyroscope's bias from rest: usable in front of any filter.
///
/// Rest is detected when, for at least ``Settings-swift.struct/minimumDuration`` seconds, the
/// gyroscope and the accelerometer both stay close to their own low-pass filtered values (the
/// sensor is not moving; a constant bias does not disturb this test) and the low-passed rate is
/// below ``Settings-swift.struct/maximumBias`` (a steady rotation is not mistaken for a bias).
/// During rest the bias is the average of the gyroscope, with a memory of
/// ``Settings-swift.struct/averagingTimeConstant`` seconds so that it follows slow drift; between
/// rests it is held. Every constant is in seconds, so the behaviour does not depend on the sample rate.
///
/// Bad input: a sample with a NaN or infinite gyroscope or accelerometer component, or `dt ≤ 0`,
/// is ignored and ends a rest in progress.
@frozen
public struct GyroscopeBiasEstimator<Scalar: FusionScalar>: Sendable {
    /// Thresholds and time constants. Every numeric field has a valid range, given at the end of
    /// its documentation; ``validate()`` reports a value outside it, and the estimator moves such
    /// values into their ranges (see ``GyroscopeBiasEstimator/settings``).
    public struct Settings: Sendable, Hashable {
        /// Largest deviation of the gyroscope from its low-pass value at rest, rad/s. Default 2°/s.
        /// Valid range: > 0, finite.
        public var gyroscopeThreshold: Scalar
        /// Largest deviation of the accelerometer from its low-pass value at rest, m/s². Default 0.5.
        /// Valid range: > 0, finite.
        public var accelerometerThreshold: Scalar
        /// How long the conditions must hold before rest is declared, s. Default 1.5.
        /// Valid range: ≥ 0, finite.
        public var minimumDuration: Scalar
        /// Time constant of the low-pass filters the deviations are measured against, s. Default 0.5.
        /// (0 would make every sample its own low-pass value, so that everything looks still.)
        /// Valid range: > 0, finite.
        public var lowPassTimeConstant: Scalar
        /// Memory of the bias average during rest, s. Default 10. Valid range: > 0, finite.
        public var averagingTimeConstant: Scalar
        /// A low-passed rate above this is motion, not bias, rad/s. Default 5°/s.
        /// Valid range: > 0, finite.
        public var maximumBias: Scalar

        /// Settings; every default is stated on its property.
        public init(
            gyroscopeThreshold: Scalar = 2 * .pi / 180, accelerometerThreshold: Scalar = 0.5,
            minimumDuration: Scalar = 1.5, lowPassTimeConstant: Scalar = 0.5,
            averagingTimeConstant: Scalar = 10, maximumBias: Scalar = 5 * .pi / 180
        ) {
            self.gyroscopeThreshold = gyroscopeThreshold
            self.accelerometerThreshold = accelerometerThreshold
            self.minimumDuration = minimumDuration
            self.lowPassTimeConstant = lowPassTimeConstant
            self.averagingTimeConstant = averagingTimeConstant
            self.maximumBias = maximumBias
        }
    }

    /// The settings; they may be changed between updates.
    ///
    /// Each value outside its valid range (see ``Settings-swift.struct``) is moved into it when the
    /// settings are set, here and in ``init(settings:)``, never per sample: a negative
    /// `minimumDuration` becomes 0; NaN, or 0 or less (or +∞) where the range is > 0, the default.
    /// Reading `settings` back shows the values in use. Call ``Settings-swift.struct/validate()``
    /// to refuse such settings instead.
    public var settings: Settings {
        didSet { settings = settings.clamped() }
    }
    /// The low-passes and the stillness time (shared with ``InertialFrameFilter``; the rule is this
    /// estimator's own, see ``update(gyroscope:accelerometer:dt:)``).
    @usableFromInline var rest: RestDetector<Scalar>
    @usableFromInline var restTime: Scalar
    @usableFromInline var estimate: SIMD3<Scalar>
    @usableFromInline var squaredSpread: SIMD3<Scalar>
    @usableFromInline var samplesAtRest: Int
    @usableFromInline var lastWeight: Scalar

    /// An estimator with no bias known yet. Settings outside their valid ranges are moved into
    /// them (see ``settings``).
    @inlinable
    public init(settings: Settings = Settings()) {
        self.settings = settings.clamped()
        rest = RestDetector()
        restTime = 0
        estimate = .zero
        squaredSpread = .zero
        samplesAtRest = 0
        lastWeight = 1
    }

    /// The bias estimate, rad/s (zero until the first rest).
    @inlinable public var bias: SIMD3<Scalar> { estimate }
    /// True while rest is detected.
    @inlinable public var isResting: Bool { restTime > 0 }
    /// How long the current rest has lasted, s (0 when moving).
    @inlinable public var restDuration: Scalar { restTime }
    /// The standard error of the bias estimate per axis, rad/s: the spread of the gyroscope at rest
    /// over the square root of the number of samples the average remembers; nil before the first
    /// rest of at least two samples.
    @inlinable public var biasUncertainty: SIMD3<Scalar>? {
        guard samplesAtRest >= 2 else { return nil }
        let v = squaredSpread * lastWeight
        return SIMD3(v.x.squareRoot(), v.y.squareRoot(), v.z.squareRoot())
    }

    /// Sets the bias (for example from a calibration) without waiting for rest.
    @inlinable
    public mutating func setBias(_ bias: SIMD3<Scalar>) {
        estimate = bias
    }

    /// Feeds one sample (gyroscope in rad/s, accelerometer in m/s², `dt` in s); returns the bias.
    @inlinable @discardableResult
    public mutating func update(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, dt: Scalar
    ) -> SIMD3<Scalar> {
        guard dt > 0, dt.isFinite, VectorCheck.isFinite(gyroscope), VectorCheck.isFinite(accelerometer)
        else {
            rest.interrupt()
            restTime = 0
            return estimate
        }
        guard rest.gyroscope.seeded else {
            rest.gyroscope.seed(gyroscope)
            rest.accelerometer.seed(accelerometer)
            return estimate
        }
        // This estimator's rest rule (InertialFrameFilter's differs, see RestDetector): deviations
        // compared as lengths, the low-passed rate's length as the limit.
        let k = FirstOrder.gain(dt: dt, timeConstant: settings.lowPassTimeConstant)
        let gyroDeviation = rest.gyroscope.squaredDeviation(gyroscope, gain: k).squareRoot()
        let accelDeviation = rest.accelerometer.squaredDeviation(accelerometer, gain: k).squareRoot()
        let still =
            gyroDeviation < settings.gyroscopeThreshold
            && accelDeviation < settings.accelerometerThreshold
            && rest.lowPassRate.length < settings.maximumBias
        guard rest.hold(still: still, dt: dt, minimumDuration: settings.minimumDuration) else {
            if !still { restTime = 0 }
            return estimate
        }
        if restTime == 0 {
            // A new rest: restart the average from the low-passed rate over the last seconds.
            estimate = rest.lowPassRate
            squaredSpread = .zero
            samplesAtRest = 0
        }
        restTime += dt
        samplesAtRest += 1
        let weight = max(1 / Scalar(samplesAtRest), FirstOrder.gain(dt: dt, timeConstant: settings.averagingTimeConstant))
        lastWeight = weight
        let difference = gyroscope - estimate
        FirstOrder.step(&estimate, toward: gyroscope, gain: weight)
        // Exponentially weighted variance of the rate around the estimate.
        FirstOrder.step(&squaredSpread, toward: difference * difference * (1 - weight), gain: weight)
        return estimate
    }
}

extension GyroscopeBiasEstimator.Settings: RangedSettings {
    /// The valid range of every numeric setting: the one table that ``validate()``, the clamp of
    /// ``GyroscopeBiasEstimator/settings`` and the tests read.
    static var rules: [SettingRule<Self>] {
        [
            SettingRule("gyroscopeThreshold", { $0.gyroscopeThreshold }, { $0.gyroscopeThreshold = $1 }, .positive),
            SettingRule("accelerometerThreshold", { $0.accelerometerThreshold }, { $0.accelerometerThreshold = $1 }, .positive),
            SettingRule("minimumDuration", { $0.minimumDuration }, { $0.minimumDuration = $1 }, .nonNegative),
            SettingRule("lowPassTimeConstant", { $0.lowPassTimeConstant }, { $0.lowPassTimeConstant = $1 }, .positive),
            SettingRule("averagingTimeConstant", { $0.averagingTimeConstant }, { $0.averagingTimeConstant = $1 }, .positive),
            SettingRule("maximumBias", { $0.maximumBias }, { $0.maximumBias = $1 }, .positive),
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

    /// These settings with every value moved into its range, as ``GyroscopeBiasEstimator/settings`` documents.
    @usableFromInline
    func clamped() -> Self { clampedToRanges() }
}

#if !hasFeature(Embedded)
extension GyroscopeBiasEstimator.Settings: Codable {}
#endif
