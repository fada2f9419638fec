import RealModule

/// A complementary filter: exact gyroscope integration, corrected toward the accelerometer's tilt and
/// the magnetometer's heading with gains given as time constants in seconds.
///
/// Per step, with the attitude `q` (sensor → NWU internally):
/// 1. gyroscope strapdown integration `q ← q ⊗ exp(½ ω Δt)` (exact for a constant rate over the step);
/// 2. tilt: the measured up direction in the earth frame `g = q ⊗ â ⊗ q*` is rotated toward `(0, 0, 1)`
///    by the fraction `k_a = 1 − e^(−Δt/τ_a)` of the angle between them, about their (horizontal)
///    common normal — an earth-frame rotation that leaves heading alone;
/// 3. heading (9D): the horizontal part of the field in the earth frame `h = q ⊗ m̂ ⊗ q*` is rotated
///    about the vertical toward north by the fraction `k_m = 1 − e^(−Δt/τ_m)` of its angle `ψ` — a
///    rotation that leaves tilt alone.
///
/// With the sensor at rest, a tilt or heading error therefore decays exactly as `e^(−t/τ)`,
/// whatever the sample rate. (The `ahrs` package's `Complementary` blends Euler angles instead and is
/// not the same filter; the tests check this one against that decay law.)
@frozen
public struct ComplementaryFilter<Scalar: FusionScalar>: AttitudeFilter {
    /// Time constants.
    public struct Settings: Sendable, Hashable, Codable {
        /// τ_a, s: time constant of the tilt correction. Longer trusts the gyroscope more and
        /// rejects linear acceleration better. Default 1 s.
        public var accelerometerTimeConstant: Scalar
        /// τ_m, s: time constant of the heading correction. Default 2 s.
        public var magnetometerTimeConstant: Scalar
        /// The earth frame of the output attitude. Default ENU.
        public var frame: EarthFrame

        /// Settings with the given time constants (seconds) and frame.
        public init(
            accelerometerTimeConstant: Scalar = 1, magnetometerTimeConstant: Scalar = 2,
            frame: EarthFrame = .enu
        ) {
            self.accelerometerTimeConstant = accelerometerTimeConstant
            self.magnetometerTimeConstant = magnetometerTimeConstant
            self.frame = frame
        }
    }

    /// The time constants; they may be changed between updates.
    public var settings: Settings
    @usableFromInline var state: NWUAttitudeState<Scalar>
    @inlinable var q: Quaternion<Scalar> {
        get { state.q }
        set { state.q = newValue }
    }
    @inlinable var initialized: Bool { state.initialized }
    // The tilt error before the last correction as sin²θ and cos θ (the angle is computed when read).
    @usableFromInline var lastTiltSquaredSine: Scalar
    @usableFromInline var lastTiltCosine: Scalar
    // The heading error before the last correction as the field's horizontal part (h_x, h_y) in the
    // earth frame (the angle is computed when read).
    @usableFromInline var lastHeadingX: Scalar = 1
    @usableFromInline var lastHeadingY: Scalar = 0
    // The gains k = 1 − e^(−Δt/τ) (τ_a, τ_m) and the tilt correction's series coefficients, for the
    // time constants `gainKey` and the step `gainStep`. A step within 1 ppm of `gainStep` reuses
    // them (timestamps' rounding makes consecutive steps differ in their last bits).
    @usableFromInline var gainKey: SIMD2<Scalar> = SIMD2(repeating: .nan)
    @usableFromInline var gainStep: Scalar = .nan
    @usableFromInline var gains: SIMD2<Scalar> = .zero
    /// `a₀ … a₇` and `b₁ … b₇` (then 0) of ``fractionalRotation(sineSquared:)``.
    @usableFromInline var sineCoefficients: SIMD8<Scalar> = .zero
    @usableFromInline var cosineCoefficients: SIMD8<Scalar> = .zero
    /// The coefficients of ``headingRotation(tangentSquared:)``, from `u⁰` to `u⁷`.
    @usableFromInline var headingSineCoefficients: SIMD8<Scalar> = .zero
    @usableFromInline var headingCosineCoefficients: SIMD8<Scalar> = .zero

    /// A filter that initializes itself from its first usable accelerometer sample.
    @inlinable
    public init(settings: Settings = Settings()) {
        self.settings = settings
        state = NWUAttitudeState()
        lastTiltSquaredSine = 0
        lastTiltCosine = 1
    }

    @inlinable public var frame: EarthFrame { settings.frame }
    /// The attitude, sensor → ``frame``.
    @inlinable public var quaternion: Quaternion<Scalar> { settings.frame.fromNWU() * q }
    /// The attitude, sensor → NWU.
    @inlinable public var nwuQuaternion: Quaternion<Scalar> { q }
    /// Always zero: this filter does not estimate bias (put a ``GyroscopeBiasEstimator`` in front).
    @inlinable public var gyroscopeBias: SIMD3<Scalar> { .zero }
    @inlinable public var isInitialized: Bool { initialized }
    /// The tilt error (rad) between the accelerometer and the attitude before the last correction.
    @inlinable public var tiltError: Scalar {
        lastTiltSquaredSine > 0 ? Scalar.atan2(y: lastTiltSquaredSine.squareRoot(), x: lastTiltCosine) : 0
    }
    /// The heading error ψ (rad, positive when the field points west of north) before the last
    /// correction; 0 in 6D steps.
    @inlinable public var headingError: Scalar {
        lastHeadingY != 0 ? Scalar.atan2(y: lastHeadingY, x: lastHeadingX) : 0
    }

    @inlinable
    public mutating func reset(to attitude: Quaternion<Scalar>) {
        state.reset(to: attitude, in: settings.frame)
    }

    @inlinable @discardableResult
    public mutating func initialize(
        accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?
    ) -> Bool {
        state.initialize(accelerometer: accelerometer, magnetometer: magnetometer)
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
        lastTiltSquaredSine = 0
        lastTiltCosine = 1
        lastHeadingX = 1
        lastHeadingY = 0
        guard dt > 0, dt.isFinite, SensorCheck.isFinite(gyroscope) else { return }
        refreshGains(dt: dt)
        if let p = fastTiltStep(gyroscope: gyroscope, accelerometer: accelerometer, dt: dt) {
            headingStep(p, magnetometer: magnetometer, dt: dt)
        } else {
            generalStep(gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer, dt: dt)
        }
    }

    /// Steps 1 and 2 for the usual case, written out in scalars: a rotation of less than 0.1 rad
    /// in the step, a usable accelerometer and a tilt error below 5.7° (`sin²θ ≤ 0.01`). Returns the
    /// attitude after the tilt correction, or nil (having changed nothing) when a condition fails.
    ///
    /// The step is arranged so that little of it waits for the previous attitude (a step can only
    /// start when the previous one is done): the gyroscope's rotation `e`, the accelerometer's
    /// direction turned by it (`a₁ = e â e*`) and the gain depend on this sample alone. What
    /// remains on that chain is the measured up direction in the earth frame `g = q a₁ q*`, two
    /// series in `sin²θ` and one quaternion product. Instead of a normalization, the step
    /// multiplies by one Newton step toward unit length, `(3 − |q|²)/2`: every rotation here is unit
    /// to within rounding, so |q| stays within a few ulps of 1.
    @inlinable @inline(__always)
    mutating func fastTiltStep(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, dt: Scalar
    ) -> Quaternion<Scalar>? {
        let half = dt / 2
        let vx = gyroscope.x * half, vy = gyroscope.y * half, vz = gyroscope.z * half
        let t2 = (vx * vx + vy * vy) + vz * vz
        let an2 = (accelerometer.x * accelerometer.x + accelerometer.y * accelerometer.y)
            + accelerometer.z * accelerometer.z
        guard t2 < 0.0025, an2.isNormal else { return nil }
        // e = exp(v) by its series (see exponential(halfRotation:)).
        let c3: Scalar = 1 - t2 * (1 / 56 as Scalar)
        let c2: Scalar = 1 - t2 * (1 / 30 as Scalar) * c3
        let c1: Scalar = 1 - t2 * (1 / 12 as Scalar) * c2
        let ew: Scalar = 1 - t2 * (1 / 2 as Scalar) * c1
        let k3: Scalar = 1 - t2 * (1 / 72 as Scalar)
        let k2: Scalar = 1 - t2 * (1 / 42 as Scalar) * k3
        let k1: Scalar = 1 - t2 * (1 / 20 as Scalar) * k2
        let k: Scalar = 1 - t2 * (1 / 6 as Scalar) * k1
        let ex = vx * k, ey = vy * k, ez = vz * k
        // â and a₁ = e â e* = â + e_w t + e_v × t with t = 2 e_v × â.
        let ra = 1 / an2.squareRoot()
        let ax = accelerometer.x * ra, ay = accelerometer.y * ra, az = accelerometer.z * ra
        let tx = 2 * (ey * az - ez * ay), ty = 2 * (ez * ax - ex * az), tz = 2 * (ex * ay - ey * ax)
        let a1x = ax + (ew * tx + (ey * tz - ez * ty))
        let a1y = ay + (ew * ty + (ez * tx - ex * tz))
        let a1z = az + (ew * tz + (ex * ty - ey * tx))
        // g = q a₁ q*.
        let w = q.w, x = q.x, y = q.y, z = q.z
        let ux = 2 * (y * a1z - z * a1y), uy = 2 * (z * a1x - x * a1z), uz = 2 * (x * a1y - y * a1x)
        let gx = a1x + (w * ux + (y * uz - z * uy))
        let gy = a1y + (w * uy + (z * ux - x * uz))
        let gz = a1z + (w * uz + (x * uy - y * ux))
        let s2 = gx * gx + gy * gy
        guard gz > 0 && s2 <= 0.01 else { return nil }
        // p = q ⊗ e, times the Newton factor.
        let f = (3 - ((w * w + x * x) + (y * y + z * z))) * (1 / 2 as Scalar)
        let fw = ew * f, fx = ex * f, fy = ey * f, fz = ez * f
        let pw = (w * fw - x * fx) - (y * fy + z * fz)
        let px = (w * fx + x * fw) + (y * fz - z * fy)
        let py = (w * fy - x * fz) + (y * fw + z * fx)
        let pz = (w * fz + x * fy) + (z * fw - y * fx)
        // The tilt correction c = (cos(k_a θ/2), sin(k_a θ/2)/s · (g_y, −g_x, 0)), then c ⊗ p, as
        // cos(k_a θ/2) p + sin(k_a θ/2)/s · d with d = (0, g_y, −g_x, 0) ⊗ p, which does not wait for
        // the series.
        let dw = gy * px - gx * py, dx = gy * pw - gx * pz
        let dy = -(gx * pw + gy * pz), dz = gy * py + gx * px
        let (sine, cosine) = fractionalRotation(sineSquared: s2)
        lastTiltSquaredSine = s2
        lastTiltCosine = gz
        return Quaternion(
            w: cosine * pw - sine * dw, x: cosine * px + sine * dx,
            y: cosine * py + sine * dy, z: cosine * pz + sine * dz)
    }

    /// Step 3, the heading correction, after the tilt correction gave `p`; stores the attitude.
    ///
    /// The field's horizontal part in the earth frame, `(h_x, h_y)` of `h = p m̂ p*`, is turned
    /// toward north by the fraction `k_m` of its angle `ψ = atan2(h_y, h_x)`. For `|ψ| ≤ 5.7°` the
    /// rotation `(cos(k_m ψ/2), 0, 0, −sin(k_m ψ/2))` comes from series in `tan²ψ` (see
    /// ``refreshGains(dt:)``), with one division on the chain; beyond, from `atan2`.
    @inlinable @inline(__always)
    mutating func headingStep(_ p: Quaternion<Scalar>, magnetometer: SIMD3<Scalar>?, dt: Scalar) {
        guard let magnetometer else {
            q = p
            return
        }
        let m2 = (magnetometer.x * magnetometer.x + magnetometer.y * magnetometer.y) + magnetometer.z * magnetometer.z
        guard m2.isNormal else {
            q = p
            return
        }
        // h = p m p* (the length of m does not matter for the angle).
        let rm = 1 / m2.squareRoot()
        let mx = magnetometer.x * rm, my = magnetometer.y * rm, mz = magnetometer.z * rm
        let pw = p.w, px = p.x, py = p.y, pz = p.z
        let tx = 2 * (py * mz - pz * my), ty = 2 * (pz * mx - px * mz), tz = 2 * (px * my - py * mx)
        let hx = mx + (pw * tx + (py * tz - pz * ty))
        let hy = my + (pw * ty + (pz * tx - px * tz))
        guard (hx * hx + hy * hy).isNormal else {  // field vertical: no heading
            q = p
            return
        }
        lastHeadingX = hx
        lastHeadingY = hy
        if hx > 0 && hy * hy <= 0.01 * (hx * hx) {
            let t = hy / hx
            let (sine, cosine) = headingRotation(tangentSquared: t * t)
            let cz = -t * sine
            q = Quaternion(w: cosine * pw - cz * pz, x: cosine * px - cz * py, y: cosine * py + cz * px, z: cosine * pz + cz * pw)
        } else {
            let psi = Scalar.atan2(y: hy, x: hx)
            q = Self.exponential(halfRotation: SIMD3(0, 0, -gains.y * psi / 2)) * p
        }
    }

    /// `(sin(k ψ / 2) / tan ψ, cos(k ψ / 2))` for `ψ = atan(√u)`, `u = tan²ψ ≤ 0.01`, `k = k_m`: series to
    /// `u⁷` with the coefficients of ``refreshGains(dt:)``, evaluated as trees.
    @inlinable @inline(__always)
    func headingRotation(tangentSquared u: Scalar) -> (sine: Scalar, cosine: Scalar) {
        let a = headingSineCoefficients, b = headingCosineCoefficients
        let u2 = u * u
        let u4 = u2 * u2
        let a01: Scalar = a[0] + a[1] * u, a23: Scalar = a[2] + a[3] * u
        let a45: Scalar = a[4] + a[5] * u, a67: Scalar = a[6] + a[7] * u
        let a03: Scalar = a01 + u2 * a23, a47: Scalar = a45 + u2 * a67
        let b01: Scalar = b[0] + b[1] * u, b23: Scalar = b[2] + b[3] * u
        let b45: Scalar = b[4] + b[5] * u, b67: Scalar = b[6] + b[7] * u
        let b03: Scalar = b01 + u2 * b23, b47: Scalar = b45 + u2 * b67
        return (a03 + u4 * a47, b03 + u4 * b47)
    }

    /// The whole step for every case (large rotations or tilt errors, no usable accelerometer).
    @inlinable
    mutating func generalStep(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?, dt: Scalar
    ) {
        let e = Self.exponential(halfRotation: gyroscope * (dt / 2))
        var p = q * (e * ((3 - q.lengthSquared) / 2))
        guard let a = SensorCheck.direction(accelerometer) else {
            q = p
            return
        }
        let g = p.act(on: a)
        let s2 = g.x * g.x + g.y * g.y
        lastTiltSquaredSine = s2
        lastTiltCosine = g.z
        if s2 > 0 {
            let (tilt, ratio) = Self.angleAndRatio(sineSquared: s2, cosine: g.z)
            _ = tilt
            let half = gains.x * ratio / 2
            p = Self.exponential(halfRotation: SIMD3(g.y * half, -g.x * half, 0)) * p
        }
        headingStep(p, magnetometer: magnetometer, dt: dt)
    }

    /// The fraction `1 − e^(−x)` of a correction for `x = Δt/τ`: for x ≤ 1/16 by its series to
    /// x¹⁰ (truncation below 3e-19 relative, no call into `libm`), beyond by `expm1`.
    @inlinable @inline(__always)
    static func gain(_ x: Scalar) -> Scalar {
        if x >= 0 && x <= 0.0625 {
            let c8: Scalar = 1 - x * (1 / 10 as Scalar)
            let c7: Scalar = 1 - x * (1 / 9 as Scalar) * c8
            let c6: Scalar = 1 - x * (1 / 8 as Scalar) * c7
            let c5: Scalar = 1 - x * (1 / 7 as Scalar) * c6
            let c4: Scalar = 1 - x * (1 / 6 as Scalar) * c5
            let c3: Scalar = 1 - x * (1 / 5 as Scalar) * c4
            let c2: Scalar = 1 - x * (1 / 4 as Scalar) * c3
            let c1: Scalar = 1 - x * (1 / 3 as Scalar) * c2
            return x * (1 - x * (1 / 2 as Scalar) * c1)
        }
        return -Scalar.expMinusOne(-x)
    }

    /// Recomputes the gains and the tilt series' coefficients when the time constants change or
    /// the step differs from the one they were computed for by more than 1 ppm.
    @inlinable @inline(__always)
    mutating func refreshGains(dt: Scalar) {
        let timeConstants = SIMD2(settings.accelerometerTimeConstant, settings.magnetometerTimeConstant)
        guard timeConstants != gainKey || !(abs(dt - gainStep) <= gainStep * (1 / 1_000_000 as Scalar)) else { return }
        gainKey = timeConstants
        gainStep = dt
        gains = SIMD2(Self.gain(dt / timeConstants.x), Self.gain(dt / timeConstants.y))
        // The series of fractionalRotation(sineSquared:) for k = k_a, h = k/2, u = h²/4:
        // a_{n+1} = a_n ((n + ½)² − u) / ((n + 3/2)(n + 1)), a₀ = h;
        // b_{n+1} = b_n (n² − u) / ((n + ½)(n + 1)), b₀ = 1.
        let k = gains.x
        let u = k * k * (1 / 16 as Scalar)
        var a = SIMD8<Scalar>(repeating: 0)
        var b = SIMD8<Scalar>(repeating: 0)
        var an = k / 2
        var bn: Scalar = 1
        for n in 0..<8 {
            a[n] = an
            let m = Scalar(n)
            let mHalf: Scalar = m + (1 / 2 as Scalar)
            let aFactor: Scalar = (mHalf * mHalf - u) / ((mHalf + 1) * (m + 1))
            let bFactor: Scalar = (m * m - u) / (mHalf * (m + 1))
            an *= aFactor
            bn *= bFactor
            b[n] = bn
        }
        sineCoefficients = a
        b[7] = 0
        cosineCoefficients = b
        // The heading series, for k = k_m, h = k/2, ψ = atan t, u = t²: (1 + it)^h = (1 + u)^(h/2) ·
        // (cos hψ + i sin hψ), so cos hψ = (1 + u)^(−h/2) Σ_j (−1)^j C(h, 2j) u^j and
        // sin hψ / t = (1 + u)^(−h/2) Σ_j (−1)^j C(h, 2j+1) u^j, with binomial coefficients C.
        let hm = gains.y / 2
        var binomial = SIMD16<Scalar>(repeating: 0)  // C(h, n), n = 0 … 15
        var c: Scalar = 1
        for n in 0..<16 {
            binomial[n] = c
            c = c * (hm - Scalar(n)) / Scalar(n + 1)
        }
        var power = SIMD8<Scalar>(repeating: 0)  // C(−h/2, m), the series of (1 + u)^(−h/2)
        var d: Scalar = 1
        for m in 0..<8 {
            power[m] = d
            d = d * (-hm / 2 - Scalar(m)) / Scalar(m + 1)
        }
        var headingSine = SIMD8<Scalar>(repeating: 0)
        var headingCosine = SIMD8<Scalar>(repeating: 0)
        for n in 0..<8 {
            var sineSum: Scalar = 0
            var cosineSum: Scalar = 0
            for j in 0...n {
                let sign: Scalar = j % 2 == 0 ? 1 : -1
                sineSum += power[n - j] * sign * binomial[2 * j + 1]
                cosineSum += power[n - j] * sign * binomial[2 * j]
            }
            headingSine[n] = sineSum
            headingCosine[n] = cosineSum
        }
        headingSineCoefficients = headingSine
        headingCosineCoefficients = headingCosine
    }

    /// `(sin(k θ / 2) / sin θ, cos(k θ / 2))` for `θ = asin(√x)`, `x = sin²θ ≤ 0.01`, and the fraction
    /// `k = k_a`: the hypergeometric series `sin(h asin s) = h s ₂F₁((1+h)/2, (1−h)/2; 3/2; s²)` and
    /// `cos(h asin s) = ₂F₁(−h/2, h/2; 1/2; s²)` with `h = k/2`, to `x⁷` (the next terms are below
    /// 2e-18 relative for 0 ≤ k ≤ 1: `a₈/a₀ < 0.014`), evaluated as trees (Estrin), so that three
    /// multiply-adds and two squarings are on the step's chain. The coefficients depend on `k` alone (``refreshGains(dt:)``).
    @inlinable @inline(__always)
    func fractionalRotation(sineSquared x: Scalar) -> (sine: Scalar, cosine: Scalar) {
        let a = sineCoefficients, b = cosineCoefficients
        let x2 = x * x
        let x4 = x2 * x2
        let a01: Scalar = a[0] + a[1] * x, a23: Scalar = a[2] + a[3] * x
        let a45: Scalar = a[4] + a[5] * x, a67: Scalar = a[6] + a[7] * x
        let a03: Scalar = a01 + x2 * a23, a47: Scalar = a45 + x2 * a67
        let sine: Scalar = a03 + x4 * a47
        let b01: Scalar = 1 + b[0] * x, b23: Scalar = b[1] + b[2] * x
        let b45: Scalar = b[3] + b[4] * x, b67: Scalar = b[5] + b[6] * x
        let b03: Scalar = b01 + x2 * b23, b47: Scalar = b45 + x2 * b67
        let cosine: Scalar = b03 + x4 * b47
        return (sine, cosine)
    }

    @inlinable @inline(__always)
    static func exponential(halfRotation v: SIMD3<Scalar>) -> Quaternion<Scalar> {
        let t2 = (v.x * v.x + v.y * v.y) + v.z * v.z
        if t2 < 0.0025 {
            // Reciprocals as constants: no division at run time.
            let c3: Scalar = 1 - t2 * (1 / 56 as Scalar)
            let c2: Scalar = 1 - t2 * (1 / 30 as Scalar) * c3
            let c1: Scalar = 1 - t2 * (1 / 12 as Scalar) * c2
            let c: Scalar = 1 - t2 * (1 / 2 as Scalar) * c1
            let k3: Scalar = 1 - t2 * (1 / 72 as Scalar)
            let k2: Scalar = 1 - t2 * (1 / 42 as Scalar) * k3
            let k1: Scalar = 1 - t2 * (1 / 20 as Scalar) * k2
            let k: Scalar = 1 - t2 * (1 / 6 as Scalar) * k1
            return Quaternion(w: c, x: v.x * k, y: v.y * k, z: v.z * k)
        }
        return Quaternion(rotationVector: v * 2)
    }

    /// `(atan2(s, c), atan2(s, c) / s)` for `s = √sineSquared ≥ 0` (the ratio is 0 when s = 0),
    /// for the angles beyond the series of ``fractionalRotation(sineSquared:fraction:)``.
    @inlinable
    static func angleAndRatio(sineSquared s2: Scalar, cosine c: Scalar) -> (angle: Scalar, ratio: Scalar) {
        let s = s2.squareRoot()
        let angle = Scalar.atan2(y: s, x: c)
        return (angle, s > 0 ? angle / s : 0)
    }
}
