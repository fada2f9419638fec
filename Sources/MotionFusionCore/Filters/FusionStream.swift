/// Runs an ``AttitudeFilter`` on timestamped samples: sample periods from timestamps
/// (``SampleClock``), optional gyroscope bias estimation (``GyroscopeBiasEstimator``), sensor
/// range checks, and the derived outputs (``FusionOutput``). Streaming with ``update(timestamp:gyroscope:accelerometer:magnetometer:)``
/// (no allocation), or batch with ``process(timestamps:gyroscope:accelerometer:magnetometer:into:)``.
///
/// Per sample: the ``calibration`` (if any) is applied to the raw readings, then the
/// ``magnetometerCalibrator`` (on by default) learns from the magnetometer and calibrates it; the clock turns the
/// timestamp into `dt`; the bias estimator (if any) sees the raw
/// gyroscope and its bias is subtracted before the filter; an accelerometer component at or beyond
/// ``Settings-swift.struct/accelerometerRange`` is treated as saturated and the accelerometer is not
/// used that step; then the filter updates. The first sample with a usable accelerometer initializes
/// the filter (tilt, and heading when a magnetometer is given); until then outputs carry the
/// ``FusionFlags/notInitialized`` flag and the identity attitude.
@frozen
public struct FusionStream<Filter: AttitudeFilter>: Sendable {
    public typealias Scalar = Filter.Scalar

    /// Sensor ranges and the gravity used for the derived outputs. Every numeric field has a valid
    /// range, given at the end of its documentation; ``validate()`` reports a value outside it, and
    /// the stream moves such values into their ranges (see ``FusionStream/settings``).
    public struct Settings: Sendable, Hashable {
        /// Magnitude of gravity for ``FusionOutput/gravity``, m/s². Default 9.80665.
        /// Valid range: > 0, finite.
        public var gravityMagnitude: Scalar
        /// Gyroscope full-scale range, rad/s; a component at or beyond it sets
        /// ``FusionFlags/gyroscopeSaturated`` (the sample is still integrated: it is the best
        /// information there is). Default nil: unknown (as `.infinity`).
        /// Valid range: nil, or > 0, +∞ allowed.
        public var gyroscopeRange: Scalar?
        /// Accelerometer full-scale range, m/s²; a component at or beyond it makes the step skip the
        /// accelerometer correction. Default nil: unknown (as `.infinity`).
        /// Valid range: nil, or > 0, +∞ allowed.
        public var accelerometerRange: Scalar?

        /// Settings; defaults as stated on each property.
        public init(
            gravityMagnitude: Scalar = 9.80665, gyroscopeRange: Scalar? = nil,
            accelerometerRange: Scalar? = nil
        ) {
            self.gravityMagnitude = gravityMagnitude
            self.gyroscopeRange = gyroscopeRange
            self.accelerometerRange = accelerometerRange
        }
    }

    /// The filter, with its own state and settings.
    public var filter: Filter
    /// The timestamp handling.
    public var clock: SampleClock
    /// The bias estimator, or nil to leave bias to the filter alone.
    public var biasEstimator: GyroscopeBiasEstimator<Scalar>?
    /// Sensor calibrations applied to every sample before anything else (none by default).
    public var calibration: SensorCalibration
    /// The magnetometer's online calibration (hard and soft iron learned while the device moves),
    /// applied after ``calibration``; nil to use the field as ``calibration`` leaves it. On by
    /// default. Its state is the calibration a client saves and restores across sessions. Setting
    /// it tells the filter before its next step that the field's calibration changed
    /// (``AttitudeFilter/magnetometerCalibrationChanged()``: the default filter forgets the field it
    /// had learned to expect).
    public var magnetometerCalibrator: OnlineMagnetometerCalibrator<Scalar>? {
        get { learnsMagnetometer ? learner : nil }
        set {
            learnsMagnetometer = newValue != nil
            learner = newValue ?? OnlineMagnetometerCalibrator()
            calibrationChanged = true
        }
    }
    /// The calibrator, stored unwrapped so that the per-sample path updates it in place (an
    /// optional's unwrapping copied its 3 KB several times per sample), and whether it runs.
    @usableFromInline var learner: OnlineMagnetometerCalibrator<Scalar>
    @usableFromInline var learnsMagnetometer: Bool
    /// Set when the online calibration's field changed by more than a refinement
    /// (``OnlineMagnetometerCalibrator/majorChanges``); the filter is told before its next step.
    @usableFromInline var calibrationChanged = false
    /// Ranges and gravity.
    ///
    /// Each value outside its valid range (see ``Settings-swift.struct``) is moved into it when the
    /// settings are set, here and in the initializer, never per sample: NaN, 0 or less (or an
    /// infinite gravity) becomes the default (nil for the sensor ranges). Call
    /// ``Settings-swift.struct/validate()`` to refuse such settings instead. The filter, the clock
    /// and the bias estimator clamp their own settings.
    public var settings: Settings {
        didSet { settings = settings.clamped() }
    }

    /// A stream around a filter. Settings outside their valid ranges are moved into them (see
    /// ``settings``); call ``Settings-swift.struct/validate()`` first to refuse them instead.
    @inlinable
    public init(
        filter: Filter, clock: SampleClock = SampleClock(),
        biasEstimator: GyroscopeBiasEstimator<Scalar>? = nil, calibration: SensorCalibration = SensorCalibration(),
        magnetometerCalibrator: OnlineMagnetometerCalibrator<Scalar>? = OnlineMagnetometerCalibrator(),
        settings: Settings = Settings()
    ) {
        self.filter = filter
        self.clock = clock
        self.biasEstimator = biasEstimator
        self.calibration = calibration
        learnsMagnetometer = magnetometerCalibrator != nil
        learner = magnetometerCalibrator ?? OnlineMagnetometerCalibrator()
        self.settings = settings.clamped()
    }

    /// Processes one sample: gyroscope rad/s, accelerometer (specific force) m/s², magnetometer µT
    /// or nil for 6D, timestamp in seconds.
    @inlinable @inline(__always)
    public mutating func update(
        timestamp: Double, gyroscope rawGyroscope: SIMD3<Scalar>, accelerometer rawAccelerometer: SIMD3<Scalar>,
        magnetometer rawMagnetometer: SIMD3<Scalar>? = nil
    ) -> FusionOutput<Scalar> {
        let calibrated = calibrate(
            gyroscope: rawGyroscope, accelerometer: rawAccelerometer, magnetometer: rawMagnetometer)
        return update(
            timestamp: timestamp, calibratedGyroscope: calibrated.gyroscope,
            accelerometer: calibrated.accelerometer, magnetometer: calibrated.magnetometer)
    }

    /// One sample's readings through ``calibration`` and, for the magnetometer, the
    /// ``magnetometerCalibrator``, which learns from it: the one place where both are applied, for
    /// the filter and for the calibrated outputs that ``DeviceMotionProcessor`` reports. NaN,
    /// infinite and zero readings pass through the calibrations as arithmetic makes them (the
    /// online calibrator passes such a magnetometer reading unchanged and does not learn from it);
    /// the filter's step then treats them as its documentation says.
    @inlinable @inline(__always)
    public mutating func calibrate(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?
    ) -> (gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?) {
        var calibrated = calibration.apply(gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer)
        if learnsMagnetometer, let m = calibrated.magnetometer {
            let changes = learner.major
            calibrated.magnetometer = learner.update(m)
            if learner.major != changes { calibrationChanged = true }
        }
        return calibrated
    }

    /// Whether the filter may see this (calibrated) field: always, except while the online
    /// calibration has accepted nothing yet and the field's strength is not an earth field's
    /// (``OnlineMagnetometerCalibrator/earthFieldStrengths``, 15–80 µT): a raw magnetometer's hard iron of hundreds of µT is
    /// withheld (the step is 6D) until the calibration has removed it.
    @inlinable
    func filterMayUse(_ field: SIMD3<Scalar>) -> Bool {
        guard learnsMagnetometer, !learner.isCalibrated else { return true }
        return OnlineMagnetometerCalibrator<Scalar>.hasEarthFieldStrength(field)
    }

    /// The magnetometer's accuracy: the online calibrator's once it has accepted a fit, otherwise
    /// that of ``calibration`` (``MagneticFieldAccuracy/uncalibrated`` without either).
    @inlinable
    public var magneticFieldAccuracy: MagneticFieldAccuracy {
        if learnsMagnetometer, learner.isCalibrated { return learner.level }
        return calibration.magneticFieldAccuracy
    }

    /// The square of the rate, (rad/s)², from which a gyroscope reading is corrupt: 1000 rad/s.
    @inlinable static var implausibleRate2: Scalar { 1_000_000 }

    /// Whether a gyroscope reading is corrupt: not finite, or of 1000 rad/s or more. The filter gets
    /// such a reading as NaN (and the output the ``FusionFlags/gyroscopeInvalid`` flag).
    @inlinable @inline(__always)
    package static func isCorrupt(gyroscope: SIMD3<Scalar>) -> Bool {
        !VectorCheck.isFinite(gyroscope) || !((gyroscope * gyroscope).sum() < implausibleRate2)
    }

    /// ``update(timestamp:gyroscope:accelerometer:magnetometer:)`` for readings the
    /// ``calibration`` has already been applied to (``SensorCalibration/apply(gyroscope:accelerometer:magnetometer:)``).
    @inlinable @inline(__always)
    mutating func update(
        timestamp: Double, calibratedGyroscope gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>,
        magnetometer: SIMD3<Scalar>?
    ) -> FusionOutput<Scalar> {
        let (step, event) = clock.step(to: timestamp)
        let dt = Scalar(step)
        var flags: FusionFlags = []
        switch event {
        case .regular, .first: break
        case .repeated: flags.insert(.timestampRepeated)
        case .backward: flags.insert(.timestampBackward)
        case .gap: flags.insert(.timestampGap)
        case .invalid: flags.insert(.timestampInvalid)
        }
        if let range = settings.gyroscopeRange, VectorCheck.largestMagnitude(gyroscope) >= range {
            flags.insert(.gyroscopeSaturated)
        }
        var gyroscope = gyroscope
        // No gyroscope measures 1000 rad/s: such a reading is corrupt, and every filter is given
        // it as NaN, which none integrates (they differed: one skipped it, others integrated it).
        if Self.isCorrupt(gyroscope: gyroscope) {
            flags.insert(.gyroscopeInvalid)
            gyroscope = SIMD3(repeating: .nan)
        }
        var acc = accelerometer
        if let range = settings.accelerometerRange, VectorCheck.largestMagnitude(accelerometer) >= range {
            flags.insert(.accelerometerSaturated)
            acc = .zero  // no usable direction: the filter skips its correction
        }
        var rate = gyroscope
        var externalBias = SIMD3<Scalar>.zero
        if var estimator = biasEstimator {
            externalBias = estimator.update(gyroscope: gyroscope, accelerometer: acc, dt: dt)
            if estimator.isResting { flags.insert(.restDetected) }
            biasEstimator = estimator
            rate -= externalBias
        }
        if calibrationChanged {
            filter.magnetometerCalibrationChanged()
            calibrationChanged = false
        }
        let field = magnetometer.flatMap { filterMayUse($0) ? $0 : nil }
        filter.update(gyroscope: rate, accelerometer: acc, magnetometer: field, dt: dt)
        let initialized = filter.isInitialized
        if !initialized { flags.insert(.notInitialized) }
        if filter.isRestDetected { flags.insert(.restDetected) }
        if initialized && VectorCheck.isUsableReading(acc) && dt > 0
            && !flags.contains(.gyroscopeInvalid)
        {
            flags.insert(.accelerometerUsed)
            if let field, VectorCheck.isUsableReading(field) {
                flags.insert(.magnetometerUsed)
            }
        }
        let q = initialized ? filter.quaternion : .identity
        let gravity = q.inverseAct(on: filter.frame.up(Scalar.self) * -settings.gravityMagnitude)
        let linear = VectorCheck.isFinite(accelerometer) ? accelerometer + gravity : .zero
        return FusionOutput(
            timestamp: timestamp, quaternion: q, gyroscopeBias: externalBias + filter.gyroscopeBias,
            gravity: gravity, linearAcceleration: linear, earthLinearAcceleration: q.act(on: linear),
            flags: flags)
    }

    /// Processes a recording from contiguous buffers into a preallocated output buffer; allocates
    /// nothing. `magnetometer` nil means 6D.
    ///
    /// - Throws: ``FusionError/lengthMismatch(expected:found:what:)`` when the buffers differ in
    ///   length; nothing is processed then.
    @inlinable
    public mutating func process(
        timestamps: UnsafeBufferPointer<Double>, gyroscope: UnsafeBufferPointer<SIMD3<Scalar>>,
        accelerometer: UnsafeBufferPointer<SIMD3<Scalar>>,
        magnetometer: UnsafeBufferPointer<SIMD3<Scalar>>?,
        into output: UnsafeMutableBufferPointer<FusionOutput<Scalar>>
    ) throws(FusionError) {
        let n = timestamps.count
        guard gyroscope.count == n else {
            throw .lengthMismatch(expected: n, found: gyroscope.count, what: "gyroscope")
        }
        guard accelerometer.count == n else {
            throw .lengthMismatch(expected: n, found: accelerometer.count, what: "accelerometer")
        }
        if let magnetometer, magnetometer.count != n {
            throw .lengthMismatch(expected: n, found: magnetometer.count, what: "magnetometer")
        }
        guard output.count >= n else {
            throw .lengthMismatch(expected: n, found: output.count, what: "output buffer")
        }
        for i in 0..<n {
            output[i] = update(
                timestamp: timestamps[i], gyroscope: gyroscope[i], accelerometer: accelerometer[i],
                magnetometer: magnetometer?[i])
        }
    }

    /// Processes a recording held in arrays and returns one output per sample.
    ///
    /// - Throws: ``FusionError/lengthMismatch(expected:found:what:)`` when the arrays differ in length.
    @inlinable
    public mutating func process(
        timestamps: [Double], gyroscope: [SIMD3<Scalar>], accelerometer: [SIMD3<Scalar>],
        magnetometer: [SIMD3<Scalar>]? = nil
    ) throws(FusionError) -> [FusionOutput<Scalar>] {
        let n = timestamps.count
        var result = [FusionOutput<Scalar>]()
        result.reserveCapacity(n)
        var failure: FusionError?
        let zero = FusionOutput<Scalar>(
            timestamp: 0, quaternion: .identity, gyroscopeBias: .zero, gravity: .zero,
            linearAcceleration: .zero, earthLinearAcceleration: .zero, flags: [])
        result = [FusionOutput<Scalar>](repeating: zero, count: n)
        timestamps.withUnsafeBufferPointer { t in
            gyroscope.withUnsafeBufferPointer { g in
                accelerometer.withUnsafeBufferPointer { a in
                    result.withUnsafeMutableBufferPointer { out in
                        do throws(FusionError) {
                            if let magnetometer {
                                try magnetometer.withUnsafeBufferPointer { m throws(FusionError) in
                                    try process(
                                        timestamps: t, gyroscope: g, accelerometer: a, magnetometer: m,
                                        into: out)
                                }
                            } else {
                                try process(
                                    timestamps: t, gyroscope: g, accelerometer: a, magnetometer: nil,
                                    into: out)
                            }
                        } catch {
                            failure = error
                        }
                    }
                }
            }
        }
        if let failure { throw failure }
        return result
    }
}

extension FusionStream.Settings: RangedSettings {
    /// The valid range of every numeric setting (nil is always valid for the optional ones): the
    /// one table that ``validate()``, the clamp of ``FusionStream/settings`` and the tests read.
    static var rules: [SettingRule<Self>] {
        [
            SettingRule("gravityMagnitude", { $0.gravityMagnitude }, { $0.gravityMagnitude = $1 }, .positive),
            SettingRule("gyroscopeRange", { $0.gyroscopeRange }, { $0.gyroscopeRange = $1 }, .positiveOrInfinity),
            SettingRule("accelerometerRange", { $0.accelerometerRange }, { $0.accelerometerRange = $1 }, .positiveOrInfinity),
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

    /// These settings with every value moved into its range, as ``FusionStream/settings`` documents.
    @usableFromInline
    func clamped() -> Self { clampedToRanges() }
}

#if !hasFeature(Embedded)
extension FusionStream.Settings: Codable {}
#endif
