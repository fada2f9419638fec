import RealModule

/// ``InertialFrameFilter``'s estimator of the gyroscope's bias and sensitivity: a six-state Kalman
/// filter, x = (b, k) with measured rate = (1 + k) ⊙ true rate + b, whose covariance
/// (``Covariance6``) is kept in the filter's own precision.
///
/// At each correction step (``step(interval:rateSum:sixD:restMeasurement:accCorrectionRate:headingCorrectionRate:accelerometerLowPass:headingGain:)``)
/// the variances grow toward their ceilings (random walks), then one measurement is used:
/// - at rest, the mean raw rate of the still samples since the last step, which is the bias plus
///   the white noise of those samples (its variance, estimated over the whole stillness, is the
///   measurement's, never below the steady state of `biasRestSigma`);
/// - in motion, the inclination correction rate (rows x and y of R = sensor → E6) and, in 9D, the
///   heading correction rate (the vertical row), explained by the residual (Δb, Δk) through the same
///   low-pass filters the corrections went through; in 6D nothing observes the vertical bias, which
///   keeps its estimate while its variance grows.
///
/// The variance of the motion measurement grows with the accelerometer's error as the filter sees it
/// (``trackGravityNorm(_:interval:starting:accelerometerGain:)``: the deviation of the low-pass
/// specific force's norm from its long-run mean).
@frozen @usableFromInline
struct BiasKalmanFilter<Scalar: FusionScalar>: Sendable {
    @usableFromInline var bias: SIMD3<Scalar> = .zero
    @usableFromInline var scaleError: SIMD3<Scalar> = .zero  // k̂: measured = (1 + k) true + b
    @usableFromInline var inverseScale: SIMD3<Scalar> = SIMD3(repeating: 1)  // 1 / (1 + k̂)
    /// Covariance of (b, k), in `Scalar`. Float's 24 bits are enough: a variance lies between its
    /// steady state σ² and its prior ceiling (bias about 1e-7 to 1e-4 rad²/s², sensitivity about
    /// 1e-7 to 1e-5), and each measurement variance is set to w ≈ σ⁴/V (V the growth per step), so
    /// in steady state an update removes V/σ², about 1 %, of a variance, never a near-total
    /// cancellation. An update that would still make a variance negative is refused
    /// (``Covariance6/update(rows:_:_:innovation:variance:)``). In Float the scores stay close to
    /// Double's (<doc:AccuracyResults>), and the long run (`scripts/long-run`) keeps the filter
    /// bounded. (In 0.5 it was Double whatever `Scalar` was, which a single-precision FPU such as
    /// the Cortex-M4F's runs in software: <doc:Performance> gives the cost.)
    @usableFromInline var covariance = Covariance6<Scalar>(diagonal: .zero)
    // The low-pass specific force: its last value (in I), the long-run mean of its norm (gravity
    // as this accelerometer reads it) and the low-pass (τ_a) of the squared deviation from that.
    @usableFromInline var filteredAcc: SIMD3<Scalar> = .zero
    @usableFromInline var gravityNorm: Scalar = 0
    @usableFromInline var gravityNormDeviation2: Scalar = 0
    // The low-pass (τ_a) of the rotation rate in the earth frame: how fast the device turns over seconds.
    @usableFromInline var lowPassEarthRate = (z1: SIMD3<Scalar>.zero, z2: SIMD3<Scalar>.zero)
    @usableFromInline var slowEarthRate: SIMD3<Scalar> = .zero
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

    /// The settings a step uses, kept here and refreshed by the filter whenever its settings are
    /// set: a step then reads a few scalars instead of taking the whole settings value (241 bytes
    /// in Double, which a call out of line copied at every correction step).
    @usableFromInline
    struct Parameters: Sendable {
        @usableFromInline var accelerometerTimeConstant: Scalar
        @usableFromInline var biasDrift: Scalar
        @usableFromInline var biasForgettingTime: Scalar
        @usableFromInline var biasInitialSigma: Scalar
        @usableFromInline var biasLimit: Scalar
        @usableFromInline var biasMagnetometerSigma: Scalar
        @usableFromInline var biasMotionSigma: Scalar
        @usableFromInline var biasRestSigma: Scalar
        @usableFromInline var gyroscopeScaleUncertainty: Scalar
        @usableFromInline var magneticHeadingUncertainty: Scalar
        @usableFromInline var scaleForgettingTime: Scalar
        @usableFromInline var estimatesBiasAtRest: Bool
        @usableFromInline var estimatesBiasInMotion: Bool
        @usableFromInline var estimatesScaleInMotion: Bool
        @usableFromInline var estimatesVerticalBiasFromMagnetometer: Bool

        @inlinable
        init(_ settings: InertialFrameFilter<Scalar>.Settings) {
            accelerometerTimeConstant = settings.accelerometerTimeConstant
            biasDrift = settings.biasDrift
            biasForgettingTime = settings.biasForgettingTime
            biasInitialSigma = settings.biasInitialSigma
            biasLimit = settings.biasLimit
            biasMagnetometerSigma = settings.biasMagnetometerSigma
            biasMotionSigma = settings.biasMotionSigma
            biasRestSigma = settings.biasRestSigma
            gyroscopeScaleUncertainty = settings.gyroscopeScaleUncertainty
            magneticHeadingUncertainty = settings.magneticHeadingUncertainty
            scaleForgettingTime = settings.scaleForgettingTime
            estimatesBiasAtRest = settings.estimatesBiasAtRest
            estimatesBiasInMotion = settings.estimatesBiasInMotion
            estimatesScaleInMotion = settings.estimatesScaleInMotion
            estimatesVerticalBiasFromMagnetometer = settings.estimatesVerticalBiasFromMagnetometer
        }
    }

    /// The settings in use (see ``Parameters``).
    @usableFromInline var parameters: Parameters

    /// Zero bias, unit sensitivity, and the prior covariance of the settings.
    @inlinable
    init(settings: InertialFrameFilter<Scalar>.Settings) {
        let s0 = settings.biasInitialSigma * settings.biasInitialSigma
        let k0 = settings.gyroscopeScaleUncertainty * settings.gyroscopeScaleUncertainty
        covariance = Covariance6(diagonal: SIMD8(s0, s0, s0, k0, k0, k0, 0, 0))
        parameters = Parameters(settings)
    }

    /// Sets the bias estimate and, if given, its standard deviation (the sensitivity's variances are
    /// kept); the measurement low-passes restart.
    @inlinable
    mutating func setBias(_ value: SIMD3<Scalar>, sigma: Scalar?) {
        bias = value
        if let sigma {
            let d = covariance.diagonal
            let v = sigma * sigma
            covariance = Covariance6(diagonal: SIMD8(v, v, v, d[3], d[4], d[5], 0, 0))
        }
        lowPassSeeded = false
    }

    /// Forgets the measurement low-passes and the gravity norm (the attitude was replaced).
    @inlinable
    mutating func restartMeasurements() {
        lowPassSeeded = false
        gravityNorm = 0
        gravityNormDeviation2 = 0
    }

    /// The variance of the bias along the unit vector `r` of the sensor frame (for the earth's
    /// vertical seen in the sensor frame: the vertical bias's variance): `rᵀ P_b r`, rad²/s². NaN
    /// stays NaN.
    @inlinable
    func biasVariance(along r: SIMD3<Scalar>) -> Scalar {
        let v = covariance.times(SIMD8(r.x, r.y, r.z, 0, 0, 0, 0, 0))
        let v0: Scalar = v[0], v1: Scalar = v[1], v2: Scalar = v[2]
        let p: Scalar = r.x * v0 + r.y * v1 + r.z * v2
        return p < 0 ? 0 : p
    }

    /// The corrected rate `(ω − b̂) / (1 + k̂)`.
    @inlinable @inline(__always)
    func correctedRate(_ gyroscope: SIMD3<Scalar>) -> SIMD3<Scalar> {
        (gyroscope - bias) * inverseScale
    }

    /// Follows the norm of the low-pass specific force. A perfect accelerometer reads the same
    /// gravity in every orientation; offsets, sensitivity and cross-axis errors, saturation and a
    /// delay between accelerometer and gyroscope make the norm move by about as much as the
    /// direction errs (m/s²), so the deviation of the norm from its long-run mean measures the
    /// accelerometer's error as the filter sees it.
    @inlinable
    mutating func trackGravityNorm(
        _ filtered: SIMD3<Scalar>, interval: Scalar, starting accStarting: Bool,
        accelerometerGain: Scalar
    ) {
        filteredAcc = filtered
        // The reference is seeded by the low-pass output after the fast start (a mean over τ_a), not
        // by one step that may hold a stride's worth of linear acceleration.
        guard !accStarting else { return }
        let norm = (filtered * filtered).sum().squareRoot()
        guard norm.isFinite else { return }
        if gravityNorm > 0 {
            let d = norm - gravityNorm
            FirstOrder.step(&gravityNormDeviation2, toward: d * d, gain: accelerometerGain)
            FirstOrder.step(
                &gravityNorm, toward: norm, gain: FirstOrder.gain(dt: interval, timeConstant: parameters.biasForgettingTime))
        } else {
            gravityNorm = norm
        }
    }

    /// One step of the bias and scale estimator over `interval` seconds, `sixD` being the attitude
    /// sensor → E6 (``SplitAttitude/sixD``): the model inputs (the earth axes seen in the sensor
    /// frame, rows of R = sensor → E6, the same rows times the step's mean rate, and the drift the
    /// current estimates predict) go through the same low-pass filters as the corrections they
    /// explain, then one Kalman update with the rest or motion measurement.
    ///
    /// State x = (b, k): measured rate = (1 + k) ⊙ true rate + b. A residual (Δb, Δk) turns I at
    /// `R (Δb + ω ⊙ Δk)` in the earth frame, so the inclination correction rate φ/T satisfies
    /// `LP(R) b + LP(R diag ω) k = LP(R b̂ + R diag(ω) k̂) − φ/T` (rows x and y); the heading
    /// correction gives the vertical row with the first-order low-pass of τ_m.
    @inlinable
    mutating func step(
        interval: Scalar, rateSum: SIMD3<Scalar>, sixD q6: Quaternion<Scalar>,
        restMeasurement: (mean: SIMD3<Scalar>, variance: Scalar, duration: Scalar)?,
        accCorrectionRate: SIMD2<Scalar>?, headingCorrectionRate: Scalar?,
        accelerometerLowPass: ButterworthLowPass<Scalar>, headingGain: Scalar
    ) {
        let meanRate = interval > 0 ? rateSum / interval : .zero
        let estimatesScale = parameters.estimatesScaleInMotion
        if parameters.estimatesBiasInMotion {
            let rx = q6.inverseAct(on: SIMD3(1, 0, 0))
            let ry = q6.inverseAct(on: SIMD3(0, 1, 0))
            let rz = rx.cross(ry)
            let kx = rx * meanRate
            let ky = ry * meanRate
            let kz = rz * meanRate
            let predicted = SIMD2(
                (rx * bias).sum() + (kx * scaleError).sum(), (ry * bias).sum() + (ky * scaleError).sum())
            let predictedZ = (rz * bias).sum() + (kz * scaleError).sum()
            let filter = accelerometerLowPass
            let earthRate = SIMD3(kx.sum(), ky.sum(), kz.sum())  // R ω
            if lowPassSeeded {
                slowEarthRate = filter.step(earthRate, &lowPassEarthRate.z1, &lowPassEarthRate.z2)
                filteredRx = filter.step(rx, &lowPassRx.z1, &lowPassRx.z2)
                filteredRy = filter.step(ry, &lowPassRy.z1, &lowPassRy.z2)
                filteredKx = filter.step(kx, &lowPassKx.z1, &lowPassKx.z2)
                filteredKy = filter.step(ky, &lowPassKy.z1, &lowPassKy.z2)
                filteredRb = filter.step(predicted, &lowPassRb1, &lowPassRb2)
                let g = headingGain
                FirstOrder.step(&lowPassVertical, toward: rz, gain: g)
                FirstOrder.step(&lowPassVerticalK, toward: kz, gain: g)
                FirstOrder.step(&lowPassVerticalB, toward: predictedZ, gain: g)
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
        let s0 = parameters.biasInitialSigma * parameters.biasInitialSigma
        let k0 = parameters.gyroscopeScaleUncertainty * parameters.gyroscopeScaleUncertainty
        let growth = parameters.biasDrift * parameters.biasDrift / parameters.biasForgettingTime * interval
        let scaleGrowth = k0 * (interval / parameters.scaleForgettingTime)
        covariance.grow(
            SIMD8(growth, growth, growth, scaleGrowth, scaleGrowth, scaleGrowth, 0, 0),
            ceiling: SIMD8(s0, s0, s0, k0, k0, k0, 0, 0))

        // A measurement variance w whose steady state (growth V per step, w ≈ σ⁴ / V) is σ²: the
        // sigma settings are the estimate's standard deviations in steady state.
        // Without drift (biasDrift 0) there is no steady state to aim at: each measurement then
        // counts with variance σ².
        func measurementVariance(_ sigma: Scalar) -> Scalar {
            let v = sigma * sigma
            return growth > 0 ? v * v / growth + v : v
        }
        @inline(__always) func row(_ b: SIMD3<Scalar>, _ k: SIMD3<Scalar>) -> SIMD8<Scalar> {
            return estimatesScale ? SIMD8(b.x, b.y, b.z, k.x, k.y, k.z, 0, 0) : SIMD8(b.x, b.y, b.z, 0, 0, 0, 0, 0)
        }
        var h0: SIMD8<Scalar>
        var h1: SIMD8<Scalar>
        var h2: SIMD8<Scalar>
        var innovation: SIMD3<Scalar>
        var variance: SIMD3<Scalar>
        if let rest = restMeasurement, parameters.estimatesBiasAtRest {
            // A rate beyond the largest plausible bias is a steady turn, not a bias.
            guard VectorCheck.largestMagnitude(rest.mean) <= parameters.biasLimit else { return }
            h0 = SIMD8(1, 0, 0, 0, 0, 0, 0, 0)
            h1 = SIMD8(0, 1, 0, 0, 0, 0, 0, 0)
            h2 = SIMD8(0, 0, 1, 0, 0, 0, 0, 0)
            innovation = rest.mean - bias
            // The mean of the still samples since the last use: the bias plus the white noise of
            // those samples (rest.variance), and never trusted more than biasRestSigma's steady
            // state allows for the time they cover (slow residual motion, such as a body's sway, is
            // not white): that variance is per step of `interval`, so a mean over the first
            // stillness, longer than a step, counts as that many steps.
            let floor = measurementVariance(parameters.biasRestSigma)
                * (rest.duration > 0 ? interval / rest.duration : 1)
            variance = SIMD3(repeating: max(rest.variance, floor))
        } else if parameters.estimatesBiasInMotion, let corrRate = accCorrectionRate {
            h0 = row(filteredRx, filteredKx)
            h1 = row(filteredRy, filteredKy)
            let (b, k) = (bias, scaleError)
            let state = SIMD8(b.x, b.y, b.z, k.x, k.y, k.z, 0, 0)
            let ex = (filteredRb.x - corrRate.x) - (h0 * state).sum()
            let ey = (filteredRb.y - corrRate.y) - (h1 * state).sum()
            // The motion measurement is the inclination correction rate, whose errors are not only
            // the gyroscope's: an accelerometer that errs by δ (m/s², see trackGravityNorm) tilts
            // the low-pass gravity by δ/g, a tilt that changes over τ_a as the device moves, which
            // the correction follows at about δ/(g τ_a). Correlated over τ_a, such errors count
            // τ_a/T times in the variance of each step of length T: δ² / (g² τ_a T) in all.
            let tauA = parameters.accelerometerTimeConstant
            let g2 = (filteredAcc * filteredAcc).sum()
            let accelerometerVariance = g2 > 1 && interval > 0
                ? gravityNormDeviation2 / (g2 * tauA * interval) : 0
            let vm = measurementVariance(parameters.biasMotionSigma) + accelerometerVariance
            var ez: Scalar
            var vz: Scalar
            if parameters.estimatesVerticalBiasFromMagnetometer, let headingRate = headingCorrectionRate {
                h2 = row(lowPassVertical, lowPassVerticalK)
                ez = (lowPassVerticalB - headingRate) - (h2 * state).sum()
                // A heading error ψ that persists while the device turns at Ω (the low-pass earth
                // rate) reads as a vertical bias of ψ Ω, correlated over τ_a (T: the step).
                let psi = parameters.magneticHeadingUncertainty
                let turn2 = (slowEarthRate * slowEarthRate).sum()
                let steps = interval > 0 ? max(1, tauA / interval) : 1
                vz = measurementVariance(parameters.biasMagnetometerSigma) + psi * psi * turn2 * steps
            } else {
                // Nothing observes the vertical bias: it keeps its estimate (from a rest, or the
                // magnetometer earlier), and its variance grows as a random walk. (It was pulled
                // weakly toward zero at every step, a second use of the prior that a rest's
                // measurement of a raw gyroscope's bias has no reason to obey.)
                h2 = .zero
                ez = 0
                vz = 1
            }
            innovation = SIMD3(ex, ey, ez)
            variance = SIMD3(vm, vm, vz)
        } else {
            return
        }
        let limit = parameters.biasLimit
        innovation = Self.clamp(innovation, limit)
        guard let correction = covariance.update(rows: h0, h1, h2, innovation: innovation, variance: variance)
        else { return }
        bias += SIMD3<Scalar>(SIMD3(correction[0], correction[1], correction[2]))
        if estimatesScale {
            let limitK = 3 * parameters.gyroscopeScaleUncertainty
            scaleError = Self.clamp(scaleError + SIMD3<Scalar>(SIMD3(correction[3], correction[4], correction[5])), limitK)
            inverseScale = 1 / (1 + scaleError)
        }
    }

    /// `v.clamped(lowerBound: −limit, upperBound: limit)` lane by lane, the same operations
    /// (`minimum(limit, maximum(−limit, v))`) written out: the standard library's generic
    /// `pointwiseMin` and `pointwiseMax` were calls out of line at every step.
    @inlinable @inline(__always)
    static func clamp(_ v: SIMD3<Scalar>, _ limit: Scalar) -> SIMD3<Scalar> {
        SIMD3(
            Scalar.minimum(limit, Scalar.maximum(-limit, v.x)), Scalar.minimum(limit, Scalar.maximum(-limit, v.y)),
            Scalar.minimum(limit, Scalar.maximum(-limit, v.z)))
    }
}
