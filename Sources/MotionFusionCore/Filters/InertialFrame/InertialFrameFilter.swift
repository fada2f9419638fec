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
///   moved a fraction `1 − exp(−T/τ)` of the disagreement per correction step, so the magnetometer
///   never touches the inclination. τ is ``Settings-swift.struct/magnetometerTimeConstant`` (τ_m)
///   while the device does not turn and shorter while the gyroscope's sensitivity errors make the
///   heading drift faster (``Settings-swift.struct/adaptsHeadingTimeConstant``); each reading is
///   first corrected for the magnetometer's estimated lag behind the gyroscope
///   (``Settings-swift.struct/estimatesMagnetometerLatency``, ``magnetometerLatency``).
///   `c ⊗ g` is the 6D estimate (``quaternion6D``), `h ⊗ c ⊗ g` the 9D one.
///
/// **Gyroscope bias and sensitivity** are a six-state Kalman filter: measured rate =
/// (1 + k) ⊙ true rate + b (``gyroscopeBias``, ``gyroscopeBiasSigma``, ``gyroscopeScale``,
/// ``gyroscopeScaleSigma``):
/// - at rest (the gyroscope and accelerometer stay within their thresholds of their own low-pass
///   values for ``Settings-swift.struct/restMinimumDuration``), it measures the bias directly: the
///   mean raw rate of the still samples, from the start of the stillness, with the variance of
///   their white noise over their number (never below ``Settings-swift.struct/biasRestSigma``'s
///   steady state), unless a component is beyond ``Settings-swift.struct/biasLimit``;
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
///   it a vertical bias `b_z` would leave a steady heading lag of `b_z τ_m`. In 6D nothing observes
///   the vertical bias, which keeps its estimate while its variance grows. A persistent magnetometer heading error
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
/// becomes the reference. A field that turns with the sensor (hard iron, a magnet carried along:
/// still in the sensor frame while it moves in the almost inertial frame) is not used at all
/// (``magneticFieldTurnsWithSensor``).
///
/// **Cost**: at every sample only the strapdown integration, the rest detector and the rotation of
/// the accelerometer and magnetometer into I (where they are summed) run; the corrections and the
/// Kalman step run every ``Settings-swift.struct/correctionInterval`` seconds on those averages, so
/// the cost per sample falls as the sampling rate rises and no sample's information is dropped.
///
/// **Parts**: the filter composes value types stored inline: `SplitAttitude` (the three rotations),
/// `RestDetector` (shared with ``GyroscopeBiasEstimator``), `InertialAccelerometerLowPass` (the
/// low-pass in I and its start-up), `HeadingStartUp`, `BiasKalmanFilter` (bias and sensitivity),
/// `MagneticDisturbanceRejection`, `SensorFixedFieldTest` and `MagnetometerLatency`. Settings flow
/// one way: setting them clamps them, gives the parts their parameters and empties the cached gains
/// (extensions in their own files), which the next update and correction step make anew from the
/// settings; the state never writes back to either. The composition keeps the averages between
/// correction steps.
///
/// All time constants are in seconds and every gain is computed from the actual intervals, so the
/// same settings mean the same thing at 50 Hz and at 1 kHz, and irregular timestamps are handled.
///
/// The structure — correction in an almost inertial frame, Kalman bias estimation from the
/// inclination correction, norm-and-dip disturbance detection — follows D. Laidig and T. Seel, "VQF:
/// Highly accurate IMU orientation estimation with bias estimation and magnetic disturbance
/// rejection", Information Fusion 91, 2023. Differences: the gyroscope's sensitivity is estimated
/// with its bias; the magnetometer also observes the vertical bias; the corrections run at a fixed
/// rate on averages in I; the heading time constant is longer (see the settings); the first field
/// reference makes as much of the magnetic rejection budget available as the vertical bias's
/// uncertainty allows (<doc:InertialFrameFiltering>).
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
    /// The parameters. Changing them between updates takes effect at the next update.
    ///
    /// Each value outside its valid range (see ``Settings-swift.struct``) is moved into it when the
    /// settings are set, here and in ``init(settings:)``, never per sample: beyond a closed end of
    /// its range to that end (`rejectionGainFactor` 0.5 becomes 1, `gyroscopeScaleUncertainty` 0.5
    /// becomes 0.1, a negative `correctionInterval` 0), and NaN or a value at or beyond an open end
    /// to the field's default (`biasLimit` −1 or 0 becomes 10°/s, `accelerometerTimeConstant` 0 or
    /// +∞ becomes 4 s). Reading `settings` back shows the values in use. Call
    /// ``Settings-swift.struct/validate()`` to refuse such settings instead.
    public var settings: Settings {
        didSet {
            settings = settings.clamped()
            // Settings → gains → state, one way: the gains are made anew from the new settings at
            // the next update and correction step.
            sampleGains = SampleGains()
            stepGains = StepGains()
            kalman.parameters = .init(settings)
            magnetic.parameters = .init(settings)
            // Switched off, the lag is 0 (as documented); switched on again it is learned afresh.
            if !settings.estimatesMagnetometerLatency { latency = MagnetometerLatency() }
        }
    }

    /// The attitude: `heading ⊗ inclination ⊗ strapdown` (all NWU-based).
    @usableFromInline var attitude = SplitAttitude<Scalar>()
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

    /// The accelerometer's low-pass in I and its start-up.
    @usableFromInline var accLowPass = InertialAccelerometerLowPass<Scalar>()

    /// Rest detection (its gyroscope low-pass also tells the magnetometer's new-field test whether
    /// the device turns).
    @usableFromInline var rest = RestDetector<Scalar>()
    @inlinable var restGyro: SIMD3<Scalar> { rest.lowPassRate }

    /// The bias-and-sensitivity Kalman filter and its filtered inputs.
    @usableFromInline var kalman: BiasKalmanFilter<Scalar>

    /// Magnetic disturbance detection and rejection.
    @usableFromInline var magnetic: MagneticDisturbanceRejection<Scalar>
    /// The magnetometer's lag behind the gyroscope and its compensation.
    @usableFromInline var latency = MagnetometerLatency<Scalar>()
    /// Whether the field turns with the sensor (hard iron, a magnet carried along).
    @usableFromInline var fieldTest = SensorFixedFieldTest<Scalar>()
    /// The heading gain of the last correction step when nothing reduces it (0: none yet), which
    /// the Kalman filter's vertical measurement model follows.
    @usableFromInline var nominalHeadingGain: Scalar = 0
    /// The mean square heading disagreement over τ_m at undisturbed steps, rad² (0: none yet).
    @usableFromInline var disagreementVariance: Scalar = 0
    /// The last adaptive heading time constant below τ_m, s (0: none yet), where the next cube root
    /// starts.
    @usableFromInline var headingTimeConstant: Scalar = 0
    /// The heading's start-up.
    @usableFromInline var headingStartUp = HeadingStartUp<Scalar>()
    @usableFromInline var lastHeadingDisagreement: Scalar = 0

    /// A filter that initializes itself from its first usable accelerometer sample.
    ///
    /// Settings outside their valid ranges are moved into them (see ``settings``); call
    /// ``Settings-swift.struct/validate()`` first to refuse them instead.
    @inlinable
    public init(settings: Settings = Settings()) {
        let settings = settings.clamped()
        self.settings = settings
        kalman = BiasKalmanFilter(settings: settings)
        magnetic = MagneticDisturbanceRejection(settings: settings)
    }

    /// Forgets the field's reference norm and dip and the verdict that it turns with the sensor:
    /// both were learned from the field as calibrated before. The attitude, the bias and the
    /// magnetometer's latency are kept.
    @inlinable
    public mutating func magnetometerCalibrationChanged() {
        magnetic = MagneticDisturbanceRejection(settings: settings)
        fieldTest = SensorFixedFieldTest()
    }

    @inlinable public var frame: EarthFrame { settings.frame }
    @inlinable public var isInitialized: Bool { initialized }

    /// The 9D attitude (the 6D one until a magnetometer sample arrives), sensor → ``frame``.
    /// Always inlined: an out-of-line getter copied the whole filter per read, which `scripts/embedded`
    /// counts on a Cortex-M4F.
    @inlinable @inline(__always) public var quaternion: Quaternion<Scalar> {
        if outputFrame == settings.frame { return Self.outputAttitude(output: output9, strapdown: attitude.strapdown) }
        return settings.frame.fromNWU()
            * (attitude.heading * (attitude.inclination * attitude.strapdown)).normalizedFast()
    }

    /// The attitude, sensor → ``frame``, from a cached output rotation (`output9` or `output6`) and
    /// the strapdown rotation: the one formula ``quaternion``, ``quaternion6D`` and the many-stream
    /// engine's ``InertialFrameStreams/quaternion(stream:)`` share, so that they agree bit for bit.
    @inlinable @inline(__always)
    static func outputAttitude(output: Quaternion<Scalar>, strapdown: Quaternion<Scalar>) -> Quaternion<Scalar> {
        (output * strapdown).normalizedFast()
    }

    /// The 6D attitude (gyroscope and accelerometer only; its heading drifts), sensor → ``frame``.
    @inlinable public var quaternion6D: Quaternion<Scalar> {
        if outputFrame == settings.frame { return Self.outputAttitude(output: output6, strapdown: attitude.strapdown) }
        return settings.frame.fromNWU() * (attitude.inclination * attitude.strapdown).normalizedFast()
    }

    /// Remakes the cached output rotations after the heading or inclination changed.
    @inlinable
    mutating func refreshOutputRotations() {
        let fromNWU = settings.frame.fromNWU(Scalar.self)
        output6 = fromNWU * attitude.inclination
        output9 = fromNWU * (attitude.heading * attitude.inclination)
        outputFrame = settings.frame
    }

    /// The gyroscope bias estimate, rad/s (sensor frame).
    @inlinable public var gyroscopeBias: SIMD3<Scalar> { kalman.bias }

    /// The bias estimate's standard deviation per axis (sensor frame), rad/s.
    @inlinable public var gyroscopeBiasSigma: SIMD3<Scalar> {
        let d = kalman.covariance.diagonal
        return SIMD3(d[0], d[1], d[2]).squareRoot()
    }

    /// The gyroscope sensitivity estimate per axis (1 = nominal): the filter divides the
    /// bias-corrected rate by it.
    @inlinable public var gyroscopeScale: SIMD3<Scalar> { 1 + kalman.scaleError }

    /// The standard deviation of ``gyroscopeScale`` per axis.
    @inlinable public var gyroscopeScaleSigma: SIMD3<Scalar> {
        let d = kalman.covariance.diagonal
        return SIMD3(d[3], d[4], d[5]).squareRoot()
    }

    /// True while the rest detector sees the sensor at rest.
    @inlinable public var isRestDetected: Bool { rest.isResting }

    /// True while the magnetic field is judged disturbed (also before the first reference exists,
    /// and while the field turns with the sensor).
    @inlinable public var isMagneticDisturbanceDetected: Bool { magnetic.disturbed || fieldTest.turnsWithSensor }

    /// True while the magnetometer's field turns with the sensor instead of staying fixed in the
    /// earth frame (an uncalibrated magnetometer's hard iron, a magnet carried with the device):
    /// such a field carries no heading, and the magnetometer is not used. Decided while the sensor
    /// turns (see <doc:InertialFrameFiltering>); false until then. Core Motion would call such a
    /// magnetometer uncalibrated.
    @inlinable public var magneticFieldTurnsWithSensor: Bool { fieldTest.turnsWithSensor }

    /// The last heading disagreement, rad: how far the 9D heading is from the magnetometer's.
    @inlinable public var headingDisagreement: Scalar { lastHeadingDisagreement }

    /// The estimated lag of the magnetometer's readings behind the gyroscope's, s (0 until the
    /// sensor has turned, and always 0 without
    /// ``Settings-swift.struct/estimatesMagnetometerLatency``).
    @inlinable public var magnetometerLatency: Scalar { latency.estimate }

    /// The learned reference field norm (µT) and dip angle (rad, positive downward), or nil before the
    /// first reference.
    @inlinable public var magneticReference: (norm: Scalar, dip: Scalar)? {
        magnetic.hasReference ? (magnetic.reference.x, magnetic.reference.y) : nil
    }

    @inlinable
    public mutating func reset(to attitude: Quaternion<Scalar>) {
        self.attitude = SplitAttitude(
            strapdown: (settings.frame.fromNWU(Scalar.self).conjugate * attitude).normalized())
        accLowPass.restart()
        kalman.restartMeasurements()
        latency.restart()
        fieldTest.restart()
        clearAverages()
        headingStartUp.seedFromAttitude()
        initialized = true
        refreshOutputRotations()
    }

    /// Sets the bias estimate, rad/s, and its standard deviation (default: unchanged).
    @inlinable
    public mutating func setGyroscopeBias(_ value: SIMD3<Scalar>, sigma: Scalar? = nil) {
        kalman.setBias(value, sigma: sigma)
    }

    @inlinable @discardableResult
    public mutating func initialize(
        accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?
    ) -> Bool {
        guard let up = VectorCheck.readingDirection(accelerometer),
            let tilt = try? Quaternion.rotation(from: up, to: SIMD3<Scalar>(0, 0, 1))
        else { return false }
        attitude = SplitAttitude(strapdown: tilt)
        accLowPass.restart()
        kalman.restartMeasurements()
        latency.restart()
        fieldTest.restart()
        clearAverages()
        headingStartUp.restart()
        if let magnetometer, let m = VectorCheck.readingDirection(magnetometer) {
            let h = tilt.act(on: m)
            if h.x * h.x + h.y * h.y > 0 {
                let half = -Scalar.atan2(y: h.y, x: h.x) / 2
                attitude.heading = Quaternion(w: .cos(half), x: 0, y: 0, z: .sin(half))
                headingStartUp.seedFromField()
            }
        }
        initialized = true
        refreshOutputRotations()
        return true
    }

    // Always inlined: called per sample from the caller's loop, an out-of-line update saved and
    // restored the callee-saved floating-point registers at every sample on a Cortex-M4F (57 of
    // 787 estimated cycles, `scripts/embedded`); the correction step stays out of line.
    @inlinable @inline(__always)
    public mutating func update(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?,
        dt: Scalar
    ) {
        guard initialized else {
            initialize(accelerometer: accelerometer, magnetometer: magnetometer)
            return
        }
        guard dt > 0, dt.isFinite else { return }
        if !(abs(dt - sampleGains.dt) <= sampleGains.tolerance) {
            sampleGains = SampleGains(dt: dt, settings: settings)
        }

        // Strapdown integration of the bias-corrected rate (normalized at each correction step). A
        // rate beyond 1000 rad/s (no gyroscope measures that; a corrupt sample), a non-finite one
        // (it fails the same test: the bias is finite) or a rotation too large to represent is not
        // integrated: the sample is skipped.
        let rate = kalman.correctedRate(gyroscope)
        let halfRotation = rate * (dt / 2)
        guard (rate * rate).sum() < 1e6, (halfRotation * halfRotation).sum().isFinite else { return }
        attitude.integrate(halfRotation: halfRotation)
        rateSum += rate * dt

        // Rest detection, gyroscope part: deviation from a first-order low-pass (the low-pass rate
        // also tells the magnetometer's new-field test whether the device turns).
        let gyroscopeDeviation = rest.gyroscope.squaredDeviation(gyroscope, gain: sampleGains.rest)
        let quiet = gyroscopeDeviation < sampleGains.gyroscopeThreshold2

        // The accelerometer in I, averaged until the next correction step.
        let a2 = (accelerometer * accelerometer).sum()
        if a2.isNormal {
            if settings.estimatesBiasAtRest {
                let still = rest.accelerometer.squaredDeviation(accelerometer, gain: sampleGains.rest)
                    < sampleGains.accelerometerThreshold2 && quiet
                rest.hold(still: still, dt: dt, minimumDuration: settings.restMinimumDuration)
                if still { rest.accumulate(gyroscope, squaredDeviation: gyroscopeDeviation) }
            }
            // Beyond 1000 m/s² (about 100 g) a reading is an impact or a saturated sensor, not
            // gravity: it ends rest (above) but does not enter the inclination average, where one
            // absurd value would outweigh minutes of real ones.
            if a2 < 1e6 {
                accSum += attitude.strapdown.act(on: accelerometer)
                accCount += 1
            }
        } else {
            rest.interrupt()
        }

        // The magnetometer in I, averaged the same way.
        if let magnetometer {
            let m2 = (magnetometer * magnetometer).sum()
            if m2.isNormal {
                let reading = settings.estimatesMagnetometerLatency
                    ? latency.compensated(magnetometer, rate: rate) : magnetometer
                magSum += attitude.strapdown.act(on: reading)
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
        if abs(interval - stepGains.dt) > stepGains.dt * 1e-3 {
            stepGains = StepGains(settings: settings, dt: interval)
        }
        attitude.normalizeStrapdown()
        var accCorrection = SIMD2<Scalar>.zero
        var accUsed = false
        if accCount > 0 {
            let filtered = accLowPass.step(
                accSum / accCount, interval: interval, filter: stepGains.acc,
                timeConstant: settings.accelerometerTimeConstant)
            kalman.trackGravityNorm(
                filtered, interval: interval, starting: accLowPass.isStarting,
                accelerometerGain: stepGains.accFirstOrder)
            if let correction = attitude.correctInclination(toward: filtered) {
                accCorrection = correction
                accUsed = true
            }
        }
        var headingCorrection: Scalar? = nil
        if magCount > 0 {
            if settings.estimatesMagnetometerLatency {
                latency.step(
                    strapdown: attitude.strapdown, highPassGain: stepGains.latencyHighPass,
                    averagingGain: stepGains.mag, learns: !(magnetic.disturbed && magnetic.hasReference))
            }
            headingCorrection = correctHeading(inertialField: magSum / magCount, interval: interval)
        }
        if settings.estimatesBiasAtRest || settings.estimatesBiasInMotion {
            kalman.step(
                interval: interval, rateSum: rateSum, sixD: attitude.sixD,
                restMeasurement: rest.isResting ? rest.takeMean() : nil,
                accCorrectionRate: accUsed ? accCorrection / interval : nil,
                headingCorrectionRate: headingCorrection.map { $0 / interval },
                accelerometerLowPass: stepGains.acc,
                headingGain: nominalHeadingGain > 0 ? nominalHeadingGain : stepGains.mag)
        }
        clearAverages()
        refreshOutputRotations()
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
        // A field that turns with the sensor carries no heading: not used at all.
        if settings.rejectsMagneticDisturbances
            && fieldTest.step(
                inertialField: inertialField, strapdown: attitude.strapdown, lowPass: stepGains.fieldLowPass,
                averaging: stepGains.fieldAveraging)
        {
            return nil
        }
        let field = attitude.inclination.act(on: inertialField)  // in E6
        let norm2 = (field * field).sum()
        guard norm2.isNormal else { return nil }
        let norm = norm2.squareRoot()
        let e = field / norm
        var gain = settings.adaptsHeadingTimeConstant ? adaptiveHeadingGain(interval: dt) : stepGains.mag
        nominalHeadingGain = gain
        var nominal = true

        if settings.rejectsMagneticDisturbances {
            nominal = magnetic.judge(
                norm: norm, direction: e, lowPassRate: restGyro, dt: dt, currentGain: stepGains.magCurrent,
                referenceGain: stepGains.magReference,
                verticalBiasSigma: kalman.biasVariance(
                    along: attitude.sixD.inverseAct(on: SIMD3(0, 0, 1))
                ).squareRoot(),
                gain: &gain)
        }

        // Disagreement: the angle about +z that takes the horizontal field (in E9) to north (+x).
        guard let disagreement = attitude.headingDisagreement(fieldDirection: e) else { return nil }
        lastHeadingDisagreement = disagreement

        // The first usable field (at initialization, or later if the first samples had none) sets
        // the heading outright; for τ_m after it the heading follows the fields' running mean.
        let pastStartUp = headingStartUp.adjust(
            gain: &gain, interval: dt, counts: !(magnetic.disturbed && magnetic.hasReference),
            timeConstant: settings.magnetometerTimeConstant)
        if !pastStartUp { nominal = false }
        if nominal {
            let psi = settings.magneticHeadingUncertainty
            if disagreementVariance > 0 {
                FirstOrder.step(&disagreementVariance, toward: disagreement * disagreement, gain: stepGains.mag)
            } else {
                disagreementVariance = max(psi * psi, disagreement * disagreement)
            }
        }
        let angle = gain * disagreement
        attitude.rotateHeading(by: angle)
        return nominal ? angle : nil
    }

    /// The heading gain for a step of `interval` seconds with the time constant that balances the
    /// heading's drift against the magnetometer's error (``Settings-swift.struct/adaptsHeadingTimeConstant``):
    /// `τ = (ψ² · 1 s / (4 σ_d²))^(1/3)`, at most τ_m, with `σ_d² = σ_0² + Σᵢ P_kᵢ ūᵢ²`. σ_0 is the
    /// drift for which τ_m is the balance at the configured ψ, `P_kᵢ` the sensitivity variances and
    /// `ū` the low-pass rate contributions to the turn about the vertical (the Kalman filter's
    /// vertical row for the sensitivities); ψ² is the larger of the configured one and the mean
    /// square disagreement.
    @inlinable
    mutating func adaptiveHeadingGain(interval dt: Scalar) -> Scalar {
        let tauM = settings.magnetometerTimeConstant
        let psi = settings.magneticHeadingUncertainty
        guard psi > 0 else { return stepGains.mag }
        let longest = tauM * tauM * tauM
        let base = psi * psi / (4 * longest)  // σ_0²
        let p = kalman.covariance.diagonal
        let u = kalman.lowPassVerticalK
        let drift2 = base + p[3] * u.x * u.x + p[4] * u.y * u.y + p[5] * u.z * u.z
        let cube = max(psi * psi, disagreementVariance) / (4 * drift2)  // τ³, s³
        guard cube.isFinite, cube > 0, cube < longest else {
            headingTimeConstant = 0
            return stepGains.mag
        }
        // The cube root by Newton's method, from the last one (τ changes slowly, so a step or two
        // suffice) or τ_m: one step lands at or above the root, from where each step decreases
        // monotonically until rounding stops it. Plain arithmetic, so a microcontroller's result is
        // the host's bit for bit (a libm `pow` need not be).
        var tau = headingTimeConstant > 0 && headingTimeConstant < tauM ? headingTimeConstant : tauM
        tau = min(tauM, (2 * tau + cube / (tau * tau)) / 3)
        for _ in 0..<64 {
            let next = (2 * tau + cube / (tau * tau)) / 3
            guard next < tau else { break }
            tau = next
        }
        headingTimeConstant = tau
        // At least 16 steps: the magnetometer's noise cannot take the heading over, and
        // FirstOrder.gain stays in its series (no libm, so a microcontroller's bits are the host's).
        // With the defaults τ stays above 3.9 s on BROAD and the phones.
        return FirstOrder.gain(dt: dt, timeConstant: max(tau, 16 * dt))
    }
}
