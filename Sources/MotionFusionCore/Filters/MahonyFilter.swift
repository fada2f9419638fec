/// Mahony's explicit complementary filter: a proportional-integral correction of the gyroscope rate
/// toward the directions of gravity and the magnetic field; the integral term is the gyroscope bias
/// estimate.
///
/// R. Mahony, T. Hamel and J.-M. Pflimlin, "Nonlinear Complementary Filters on the Special
/// Orthogonal Group", IEEE Transactions on Automatic Control 53(5), 2008. Per step, with the attitude
/// `q` (sensor → NWU internally):
/// 1. the predicted gravity direction in the sensor frame `v_a = q* ⊗ (0, 0, 1) ⊗ q` and the error
///    `e = â × v_a`;
/// 2. in 9D, the field rotated to earth `h = q ⊗ m̂ ⊗ q*`, its reference with the horizontal part put on
///    north `(√(h_x² + h_y²), 0, h_z)`, seen from the sensor as `v_m`, and `e ← e + m̂ × v_m` (heading
///    only, the dip angle is taken from the measurement);
/// 3. the bias (integral) `b ← b − K_i e Δt`, limited to a length of
///    ``Settings-swift.struct/maximumBias``, then the corrected rate `Ω = ω − b + K_p e`;
/// 4. `q ← normalize(q + ½ q ⊗ (0, Ω) Δt)`.
///
/// This is the update of the `ahrs` Python package (which writes the magnetic reference with north
/// on +y, its ENU frame — the same filter in a rotated frame), and the tests match it sample by
/// sample (with the bias bound removed). Deliberate differences: when the accelerometer is unusable the bias estimate is still
/// subtracted (`ahrs` integrates the raw rate then), and a gyroscope reading of exactly zero is
/// integrated and corrected (`ahrs` returns the attitude unchanged).
@frozen
public struct MahonyFilter<Scalar: FusionScalar>: AttitudeFilter {
    /// Mahony's gains. Every numeric field has a valid range, given at the end of its
    /// documentation; ``validate()`` reports a value outside it, and the filter moves such values
    /// into their ranges (see ``MahonyFilter/settings``).
    public struct Settings: Sendable, Hashable {
        /// K_p, 1/s (rad/s of correction per unit of direction error). Default 1. 0 leaves the
        /// gyroscope alone. Valid range: ≥ 0, finite.
        public var kp: Scalar
        /// K_i, 1/s² (rad/s of bias per unit of error and second). 0 turns the integral (bias) off.
        /// Default 0.01: a gyroscope's bias drifts over minutes, so the bias loop is slow (its natural
        /// frequency √K_i is 0.1 rad/s) and well damped (K_p / (2√K_i) = 5). Mahony's paper and the
        /// `ahrs` package use 0.3, which on real recordings with fast motion lets the integral grow to
        /// tens of degrees per second. Valid range: ≥ 0, finite.
        public var ki: Scalar
        /// The largest bias magnitude the integral may reach, rad/s: a physical bound for MEMS
        /// gyroscopes that stops the integral from absorbing motion. Default 0.1 rad/s (5.7°/s);
        /// `.infinity` removes the bound (as in the paper); 0 keeps the integral at zero.
        /// Valid range: ≥ 0, +∞ allowed.
        public var maximumBias: Scalar
        /// The earth frame of the output attitude. Default ENU.
        public var frame: EarthFrame

        /// Settings with the given gains, bias bound and frame.
        public init(kp: Scalar = 1, ki: Scalar = 0.01, maximumBias: Scalar = 0.1, frame: EarthFrame = .enu) {
            self.kp = kp
            self.ki = ki
            self.maximumBias = maximumBias
            self.frame = frame
        }
    }

    /// The gains; they may be changed between updates.
    ///
    /// Each value outside its valid range (see ``Settings-swift.struct``) is moved into it when the
    /// settings are set, here and in ``init(settings:)``, never per sample: a negative value
    /// becomes 0, NaN (or an infinite `kp` or `ki`) the default. Reading `settings` back shows the
    /// values in use. Call ``Settings-swift.struct/validate()`` to refuse such settings instead.
    public var settings: Settings {
        didSet { settings = settings.clamped() }
    }
    @usableFromInline var state: NWUAttitudeState<Scalar>
    @inlinable var q: Quaternion<Scalar> {
        get { state.q }
        set { state.q = newValue }
    }
    @inlinable var initialized: Bool { state.initialized }
    @usableFromInline var bias: SIMD3<Scalar>
    @usableFromInline var lastError: SIMD3<Scalar>

    /// A filter that initializes itself from its first usable accelerometer sample.
    ///
    /// Settings outside their valid ranges are moved into them (see ``settings``); call
    /// ``Settings-swift.struct/validate()`` first to refuse them instead.
    @inlinable
    public init(settings: Settings = Settings()) {
        self.settings = settings.clamped()
        state = NWUAttitudeState()
        bias = .zero
        lastError = .zero
    }

    @inlinable public var frame: EarthFrame { settings.frame }
    /// The attitude, sensor → ``frame``.
    @inlinable public var quaternion: Quaternion<Scalar> { settings.frame.fromNWU() * q }
    /// The attitude, sensor → NWU.
    @inlinable public var nwuQuaternion: Quaternion<Scalar> { q }
    /// The integral term `b`: the gyroscope bias estimate, rad/s.
    @inlinable public var gyroscopeBias: SIMD3<Scalar> { bias }
    @inlinable public var isInitialized: Bool { initialized }
    /// The error vector `e` of the last step (sensor frame; its length is about the sine of the
    /// direction error, up to 2 in 9D). Zero when no correction was possible.
    @inlinable public var errorVector: SIMD3<Scalar> { lastError }

    @inlinable
    public mutating func reset(to attitude: Quaternion<Scalar>) {
        state.reset(to: attitude, in: settings.frame)
    }

    /// Sets the bias (integral) state, rad/s.
    @inlinable
    public mutating func setGyroscopeBias(_ value: SIMD3<Scalar>) {
        bias = value
    }

    @inlinable @discardableResult
    public mutating func initialize(
        accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?
    ) -> Bool {
        state.initialize(accelerometer: accelerometer, magnetometer: magnetometer)
    }

    /// The longest step the filter integrates, 1 s: an update with a longer `dt` is the update
    /// with `dt` = 1 s, as in ``MadgwickFilter/longestStep``. One absurd `dt` (1e300 s) overflowed
    /// the integral and the attitude into NaN for good.
    @inlinable public static var longestStep: Scalar { 1 }

    @inlinable
    public mutating func update(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?,
        dt: Scalar
    ) {
        guard initialized else {
            initialize(accelerometer: accelerometer, magnetometer: magnetometer)
            return
        }
        lastError = .zero
        guard dt > 0, dt.isFinite, VectorCheck.isFinite(gyroscope) else { return }
        let dt = Swift.min(dt, Self.longestStep)
        var rate = gyroscope
        if let a = VectorCheck.readingDirection(accelerometer) {
            let predictedUp = q.inverseAct(on: SIMD3(0, 0, 1))
            var e = a.cross(predictedUp)
            if let magnetometer, let m = VectorCheck.readingDirection(magnetometer) {
                let h = q.act(on: m)
                let reference = SIMD3((h.x * h.x + h.y * h.y).squareRoot(), 0, h.z)
                if let predictedField = VectorCheck.readingDirection(q.inverseAct(on: reference)) {
                    e += m.cross(predictedField)
                }
            }
            lastError = e
            let integral = e * (settings.ki * dt)
            if VectorCheck.isFinite(integral) { bias -= integral }  // an overflow (ki near its maximum) is skipped
            let size2 = (bias * bias).sum()
            let limit = settings.maximumBias
            if size2 > limit * limit {
                bias *= limit / size2.squareRoot()
            }
            rate += e * settings.kp
        }
        rate -= bias
        let qDot = (q * Quaternion(real: 0, imaginary: rate)).components * 0.5
        q = Quaternion(components: q.components + qDot * dt).normalized()
    }
}

extension MahonyFilter.Settings: RangedSettings {
    /// The valid range of every numeric setting: the one table that ``validate()``, the clamp of
    /// ``MahonyFilter/settings`` and the tests read.
    static var rules: [SettingRule<Self>] {
        [
            SettingRule("kp", { $0.kp }, { $0.kp = $1 }, .nonNegative),
            SettingRule("ki", { $0.ki }, { $0.ki = $1 }, .nonNegative),
            SettingRule("maximumBias", { $0.maximumBias }, { $0.maximumBias = $1 }, .nonNegativeOrInfinity),
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

    /// These settings with every value moved into its range, as ``MahonyFilter/settings`` documents.
    @usableFromInline
    func clamped() -> Self { clampedToRanges() }
}

#if !hasFeature(Embedded)
extension MahonyFilter.Settings: Codable {}
#endif
