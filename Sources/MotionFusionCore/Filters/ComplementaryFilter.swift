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
    /// Time constants. Every numeric field has a valid range, given at the end of its
    /// documentation; ``validate()`` reports a value outside it, and the filter moves such values
    /// into their ranges (see ``ComplementaryFilter/settings``).
    public struct Settings: Sendable, Hashable {
        /// τ_a, s: time constant of the tilt correction. Longer trusts the gyroscope more and
        /// rejects linear acceleration better. Default 1 s. `.infinity` turns the correction off;
        /// 0 applies it in full at every step. A negative value or NaN is outside the range, and the
        /// filter treats it as `.infinity`. Valid range: ≥ 0, +∞ allowed.
        public var accelerometerTimeConstant: Scalar
        /// τ_m, s: time constant of the heading correction. Default 2 s. The same special values as
        /// ``accelerometerTimeConstant``. Valid range: ≥ 0, +∞ allowed.
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
    ///
    /// A time constant outside its valid range (negative or NaN) becomes `.infinity` when the
    /// settings are set, here and in ``init(settings:)``, never per sample: the correction is off,
    /// which is what such values always did here. Reading `settings` back shows the values in use.
    /// Call ``Settings-swift.struct/validate()`` to refuse such settings instead.
    public var settings: Settings {
        didSet { settings = settings.clamped() }
    }
    @usableFromInline var state: NWUAttitudeState<Scalar>
    @inlinable var q: Quaternion<Scalar> {
        get { state.q }
        set { state.q = newValue }
    }
    @inlinable var initialized: Bool { state.initialized }
    // The tilt error before the last correction as the measured up direction in the earth frame,
    // its horizontal part (g_x, g_y) and cos θ = g_z (the angle is computed when read).
    @usableFromInline var lastTiltX: Scalar = 0
    @usableFromInline var lastTiltY: Scalar = 0
    @usableFromInline var lastTiltCosine: Scalar = 1
    // The heading error before the last correction as the field's horizontal part (h_x, h_y) in the
    // earth frame (the angle is computed when read).
    @usableFromInline var lastHeadingX: Scalar = 1
    @usableFromInline var lastHeadingY: Scalar = 0
    // The gains k = 1 − e^(−Δt/τ) for (τ_a, τ_m) = `gainKey` and the step `gainStep`, and 1/τ.
    @usableFromInline var gainKey: SIMD2<Scalar> = SIMD2(repeating: .nan)
    @usableFromInline var gainStep: Scalar = .nan
    @usableFromInline var gains: SIMD2<Scalar> = .zero
    @usableFromInline var inverseTimeConstants: SIMD2<Scalar> = .zero
    /// `s₀ … s₇` and `c₀ … c₇` of ``fractionalRotation(halfAngleSineSquared:sineCoefficients:cosineCoefficients:)``
    /// for the tilt gain `gains.x` and for the heading gain `gains.y`.
    @usableFromInline var tiltSineCoefficients: SIMD8<Scalar> = .zero
    @usableFromInline var tiltCosineCoefficients: SIMD8<Scalar> = .zero
    @usableFromInline var headingSineCoefficients: SIMD8<Scalar> = .zero
    @usableFromInline var headingCosineCoefficients: SIMD8<Scalar> = .zero
    /// False when the gains changed since the heading coefficients were computed (they are computed
    /// when a heading step needs them, so that 6D steps never pay for them).
    @usableFromInline var headingCoefficientsCurrent = false

    /// A filter that initializes itself from its first usable accelerometer sample.
    ///
    /// Settings outside their valid ranges are moved into them (see ``settings``); call
    /// ``Settings-swift.struct/validate()`` first to refuse them instead.
    @inlinable
    public init(settings: Settings = Settings()) {
        self.settings = settings.clamped()
        state = NWUAttitudeState()
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
        Scalar.atan2(y: (lastTiltX * lastTiltX + lastTiltY * lastTiltY).squareRoot(), x: lastTiltCosine)
    }
    /// The heading error ψ (rad, positive when the field points west of north) before the last
    /// correction; 0 in 6D steps.
    @inlinable public var headingError: Scalar {
        Scalar.atan2(y: lastHeadingY, x: lastHeadingX)
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

    @inlinable @inline(__always)
    public mutating func update(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?,
        dt: Scalar
    ) {
        guard initialized else {
            initialize(accelerometer: accelerometer, magnetometer: magnetometer)
            return
        }
        lastTiltX = 0
        lastTiltY = 0
        lastTiltCosine = 1
        lastHeadingX = 1
        lastHeadingY = 0
        guard dt > 0, dt.isFinite, VectorCheck.isFinite(gyroscope) else { return }
        refreshGains(dt: dt)
        if let p = fastTiltStep(gyroscope: gyroscope, accelerometer: accelerometer, dt: dt) {
            headingStep(p, magnetometer: magnetometer, dt: dt)
        } else {
            generalStep(gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer, dt: dt)
        }
    }

    /// Steps 1 and 2 for the usual case, written out in scalars: a rotation of less than 0.1 rad
    /// in the step, a usable accelerometer and a tilt error below 11.48° (`cos θ ≥ 0.98`). Returns the
    /// attitude after the tilt correction, or nil (having changed nothing) when a condition fails.
    ///
    /// Measured on this step, the time goes to the number of floating-point instructions more than to
    /// the chain of operations that waits for the previous attitude, so the step does the least
    /// arithmetic: the gyroscope's rotation `e` (series, no square root), `p = q ⊗ e`, the measured up
    /// direction in the earth frame `g = p â p*` (one rotation of a vector), two series in
    /// `sin²(θ/2) = (1 − g_z)/2` and one combination of `p` with `d = (0, g_y, −g_x, 0) ⊗ p`. Instead
    /// of a normalization, the result is multiplied by one Newton step toward unit length,
    /// `(3 − |q|²)/2`, folded into the two series' values: every rotation here is unit to within
    /// rounding, so |q| stays within a few ulps of 1, and `p`'s length (that of `q`) changes `g` by as
    /// little.
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
        // e = exp(v) = (cos|v|, sin|v|/|v| · v) by its series.
        let (ew, k) = Self.exponentialSeries(t2)
        let ex = vx * k, ey = vy * k, ez = vz * k
        let ra = 1 / an2.squareRoot()
        let ax = accelerometer.x * ra, ay = accelerometer.y * ra, az = accelerometer.z * ra
        let w: Scalar = q.w, x: Scalar = q.x, y: Scalar = q.y, z: Scalar = q.z
        let n2: Scalar = (w * w + x * x) + (y * y + z * z)
        let f: Scalar = (3 - n2) * (1 / 2 as Scalar)
        // p = q ⊗ e.
        let pw = (w * ew - x * ex) - (y * ey + z * ez)
        let px = (w * ex + x * ew) + (y * ez - z * ey)
        let py = (w * ey - x * ez) + (y * ew + z * ex)
        let pz = (w * ez + x * ey) + (z * ew - y * ex)
        // g = p â p* = â + p_w u + p_v × u with u = 2 p_v × â.
        let cx: Scalar = py * az - pz * ay, cy: Scalar = pz * ax - px * az, cz: Scalar = px * ay - py * ax
        let ux: Scalar = 2 * cx, uy: Scalar = 2 * cy, uz: Scalar = 2 * cz
        let gx = ax + (pw * ux + (py * uz - pz * uy))
        let gy = ay + (pw * uy + (pz * ux - px * uz))
        let gz = az + (pw * uz + (px * uy - py * ux))
        guard gz >= 0.98 else { return nil }  // also false for NaN
        // The tilt correction c = (cos(k_a θ/2), sin(k_a θ/2)/s · (g_y, −g_x, 0)), then c ⊗ p, as
        // cos(k_a θ/2) p + sin(k_a θ/2)/s · d with d = (0, g_y, −g_x, 0) ⊗ p, which does not wait for
        // the series.
        let dw = gx * py - gy * px, dx = gy * pw - gx * pz
        let dy = -(gx * pw + gy * pz), dz = gy * py + gx * px
        let (sine, cosine) = tiltRotation(halfAngleSineSquared: (1 - gz) * (1 / 2 as Scalar))
        let fs = sine * f, fc = cosine * f
        lastTiltX = gx
        lastTiltY = gy
        lastTiltCosine = gz
        return Quaternion(
            w: fc * pw + fs * dw, x: fc * px + fs * dx,
            y: fc * py + fs * dy, z: fc * pz + fs * dz)
    }

    /// Step 3, the heading correction, after the tilt correction gave `p`; stores the attitude.
    ///
    /// The field's horizontal part in the earth frame, `(h_x, h_y)` of `h = p m̂ p*`, is turned
    /// toward north by the fraction `k_m` of its angle `ψ = atan2(h_y, h_x)`. For `|ψ| ≤ 11.48°`
    /// (`cos ψ ≥ 0.98`) the rotation `(cos(k_m ψ/2), 0, 0, −sin(k_m ψ/2))` comes from the same series
    /// in `sin²(ψ/2) = (1 − cos ψ)/2` as the tilt's (``headingRotation(halfAngleSineSquared:)``), after
    /// one square root and one division; beyond, from `atan2`.
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
        // h = p m̂ p* (the angle does not depend on |m|; with m̂ the squares below cannot overflow).
        let rm = 1 / m2.squareRoot()
        let mx = magnetometer.x * rm, my = magnetometer.y * rm, mz = magnetometer.z * rm
        let pw = p.w, px = p.x, py = p.y, pz = p.z
        let tx = 2 * (py * mz - pz * my), ty = 2 * (pz * mx - px * mz), tz = 2 * (px * my - py * mx)
        let hx = mx + (pw * tx + (py * tz - pz * ty))
        let hy = my + (pw * ty + (pz * tx - px * tz))
        let h2 = hx * hx + hy * hy
        guard h2.isNormal else {  // field vertical (or not finite): no heading
            q = p
            return
        }
        lastHeadingX = hx
        lastHeadingY = hy
        let rh = 1 / h2.squareRoot()
        let cosPsi = hx * rh
        if cosPsi >= 0.98 {
            // cos ψ = h_x/|h|, sin ψ = h_y/|h|; the rotation by −k_m ψ about up.
            if !headingCoefficientsCurrent { refreshHeadingCoefficients() }
            let (sine, cosine) = headingRotation(halfAngleSineSquared: (1 - cosPsi) * (1 / 2 as Scalar))
            let cz = -(sine * (hy * rh))
            q = Quaternion(w: cosine * pw - cz * pz, x: cosine * px - cz * py, y: cosine * py + cz * px, z: cosine * pz + cz * pw)
        } else {
            let psi = Scalar.atan2(y: hy, x: hx)
            q = Self.exponential(halfRotation: SIMD3(0, 0, -gains.y * psi / 2)) * p
        }
    }

    /// The whole step for every case (large rotations or tilt errors, no usable accelerometer).
    /// Kept out of line, so that the usual step stays small.
    @inlinable @inline(never)
    mutating func generalStep(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?, dt: Scalar
    ) {
        // A finite rotation too large to represent (|ω| Δt beyond the largest Float) is not integrated.
        let rotation = Self.exponential(halfRotation: gyroscope * (dt / 2))
        let e = rotation.isFinite ? rotation : .identity
        var p = q * (e * ((3 - q.lengthSquared) / 2))
        guard let a = VectorCheck.readingDirection(accelerometer) else {
            q = p
            return
        }
        let g = p.act(on: a)
        let s2 = g.x * g.x + g.y * g.y
        lastTiltX = g.x
        lastTiltY = g.y
        lastTiltCosine = g.z
        if s2 > 0 {
            let half = gains.x * Self.angleRatio(sineSquared: s2, cosine: g.z) / 2
            p = Self.exponential(halfRotation: SIMD3(g.y * half, -g.x * half, 0)) * p
        }
        headingStep(p, magnetometer: magnetometer, dt: dt)
    }

    /// Recomputes the gains when the time constants change or the step differs from the one they
    /// were computed for by more than 1 ppm (timestamps' rounding makes steady steps differ in their
    /// last bits; within 1 ppm the gain changes by less than 1 ppm of itself), and with them the tilt
    /// series' coefficients (the heading's are recomputed when a heading step next needs them). The
    /// gains are series in `Δt/τ` (no call into `libm` for ordinary steps), the coefficients products
    /// of constants: about 100 operations for each set.
    @inlinable @inline(__always)
    mutating func refreshGains(dt: Scalar) {
        // `+ 0` turns −0 into +0, so that τ = −0 means 0 (1/τ = +∞) and the cache tells them apart.
        let timeConstants = SIMD2(settings.accelerometerTimeConstant, settings.magnetometerTimeConstant) + 0
        if timeConstants != gainKey {
            gainKey = timeConstants
            inverseTimeConstants = 1 / timeConstants
            gainStep = .nan
        }
        guard !(abs(dt - gainStep) <= gainStep * (1 / 1_000_000 as Scalar)) else { return }
        gainStep = dt
        // A negative or NaN time constant has no meaning: its gain is 0 (no correction); 0 gives 1.
        let raw = SIMD2(FirstOrder.gain(dt * inverseTimeConstants.x), FirstOrder.gain(dt * inverseTimeConstants.y))
        gains = SIMD2(raw.x >= 0 ? min(raw.x, 1) : 0, raw.y >= 0 ? min(raw.y, 1) : 0)
        (tiltSineCoefficients, tiltCosineCoefficients) = Self.rotationSeriesCoefficients(gain: gains.x)
        headingCoefficientsCurrent = false
    }

    /// Computes the heading series' coefficients for the current heading gain (out of line: it runs
    /// only after the gains changed).
    @inlinable @inline(never)
    mutating func refreshHeadingCoefficients() {
        (headingSineCoefficients, headingCosineCoefficients) = Self.rotationSeriesCoefficients(gain: gains.y)
        headingCoefficientsCurrent = true
    }

    /// The coefficients `s₀ … s₇`, `c₀ … c₇` of
    /// ``fractionalRotation(halfAngleSineSquared:sineCoefficients:cosineCoefficients:)`` for the
    /// fraction `k`. With `y = sin²φ`, `φ = θ/2`, `v = k²/4`:
    /// - `cos(kφ) = ₂F₁(−k/2, k/2; 1/2; y)`: `c₀ = 1`, `c_{n+1} = c_n (n² − v) / ((n + ½)(n + 1))`;
    /// - `sin(kφ)/sin φ = k ₂F₁((1+k)/2, (1−k)/2; 3/2; y)`: `a₀ = k`,
    ///   `a_{n+1} = a_n ((n + ½)² − v) / ((n + 3/2)(n + 1))`;
    /// - `sin(kφ)/sin θ = (sin(kφ)/sin φ) / (2 cos φ)`, and `1/cos φ = (1 − y)^(−½) = Σ e_n yⁿ` with
    ///   `e_n = C(2n, n)/4ⁿ`, so `s_n = ½ Σ_{j ≤ n} a_j e_{n−j}`.
    /// The reciprocals and `e_n` are constants: no division at run time, about 100 operations.
    @inlinable @inline(__always)
    static func rotationSeriesCoefficients(gain k: Scalar) -> (sine: SIMD8<Scalar>, cosine: SIMD8<Scalar>) {
        let v = k * k * (1 / 4 as Scalar)
        let a0: Scalar = k
        let a1: Scalar = a0 * ((1 / 4 as Scalar) - v) * (2 / 3 as Scalar)
        let a2: Scalar = a1 * ((9 / 4 as Scalar) - v) * (1 / 5 as Scalar)
        let a3: Scalar = a2 * ((25 / 4 as Scalar) - v) * (2 / 21 as Scalar)
        let a4: Scalar = a3 * ((49 / 4 as Scalar) - v) * (1 / 18 as Scalar)
        let a5: Scalar = a4 * ((81 / 4 as Scalar) - v) * (2 / 55 as Scalar)
        let a6: Scalar = a5 * ((121 / 4 as Scalar) - v) * (1 / 39 as Scalar)
        let a7: Scalar = a6 * ((169 / 4 as Scalar) - v) * (2 / 105 as Scalar)
        let c1: Scalar = -2 * v
        let c2: Scalar = c1 * (1 - v) * (1 / 3 as Scalar)
        let c3: Scalar = c2 * (4 - v) * (2 / 15 as Scalar)
        let c4: Scalar = c3 * (9 - v) * (1 / 14 as Scalar)
        let c5: Scalar = c4 * (16 - v) * (2 / 45 as Scalar)
        let c6: Scalar = c5 * (25 - v) * (1 / 33 as Scalar)
        let c7: Scalar = c6 * (36 - v) * (2 / 91 as Scalar)
        // ½ e_n: ½ C(2n, n)/4ⁿ for n = 0 … 7.
        let e0: Scalar = 1 / 2, e1: Scalar = 1 / 4, e2: Scalar = 3 / 16, e3: Scalar = 5 / 32
        let e4: Scalar = 35 / 256, e5: Scalar = 63 / 512, e6: Scalar = 231 / 2048, e7: Scalar = 429 / 4096
        let s0: Scalar = a0 * e0
        let s1: Scalar = a0 * e1 + a1 * e0
        let s2: Scalar = (a0 * e2 + a1 * e1) + a2 * e0
        let s3: Scalar = (a0 * e3 + a1 * e2) + (a2 * e1 + a3 * e0)
        let s4: Scalar = ((a0 * e4 + a1 * e3) + (a2 * e2 + a3 * e1)) + a4 * e0
        let s5: Scalar = ((a0 * e5 + a1 * e4) + (a2 * e3 + a3 * e2)) + (a4 * e1 + a5 * e0)
        let s6: Scalar = ((a0 * e6 + a1 * e5) + (a2 * e4 + a3 * e3)) + ((a4 * e2 + a5 * e1) + a6 * e0)
        let s7: Scalar = ((a0 * e7 + a1 * e6) + (a2 * e5 + a3 * e4)) + ((a4 * e3 + a5 * e2) + (a6 * e1 + a7 * e0))
        return (SIMD8(s0, s1, s2, s3, s4, s5, s6, s7), SIMD8(1, c1, c2, c3, c4, c5, c6, c7))
    }

    /// True for `Float`-like precision (24 significand bits or fewer): shorter series suffice there.
    @inlinable static var isSinglePrecision: Bool { Scalar.significandBitCount <= 23 }

    /// ``fractionalRotation(halfAngleSineSquared:sineCoefficients:cosineCoefficients:)`` for the tilt
    /// gain.
    @inlinable @inline(__always)
    func tiltRotation(halfAngleSineSquared y: Scalar) -> (sine: Scalar, cosine: Scalar) {
        Self.fractionalRotation(
            halfAngleSineSquared: y, sineCoefficients: tiltSineCoefficients, cosineCoefficients: tiltCosineCoefficients)
    }

    /// ``fractionalRotation(halfAngleSineSquared:sineCoefficients:cosineCoefficients:)`` for the
    /// heading gain.
    @inlinable @inline(__always)
    func headingRotation(halfAngleSineSquared y: Scalar) -> (sine: Scalar, cosine: Scalar) {
        Self.fractionalRotation(
            halfAngleSineSquared: y, sineCoefficients: headingSineCoefficients, cosineCoefficients: headingCosineCoefficients)
    }

    /// `(sin(k θ / 2) / sin θ, cos(k θ / 2))` for `y = sin²(θ/2) ≤ 0.01` (θ ≤ 11.48°), with the
    /// coefficients of ``rotationSeriesCoefficients(gain:)`` for the fraction `k`: in `Double` to `y⁷`
    /// (truncation below 4e-17 relative), in `Float` to `y³` (below 5e-9), as a tree (Estrin).
    ///
    /// `y` comes from `(1 − cos θ)/2`, where `1 − cos θ` is exact: `y` is 0 or at least a quarter of
    /// an ulp of 1 in magnitude (slightly negative when `cos θ` rounds above 1), so its powers here
    /// never become subnormal (which would be slow; only absurd time constants, beyond 10²⁰ steps,
    /// make the products with the coefficients subnormal in `Float`). The rounding of `cos θ` moves
    /// `y` by up to an ulp of 1, which changes the result by about an ulp: nothing for the attitude.
    @inlinable @inline(__always)
    static func fractionalRotation(
        halfAngleSineSquared y: Scalar, sineCoefficients s: SIMD8<Scalar>, cosineCoefficients c: SIMD8<Scalar>
    ) -> (sine: Scalar, cosine: Scalar) {
        let y2: Scalar = y * y
        let s0: Scalar = s[0], s1: Scalar = s[1], s2: Scalar = s[2], s3: Scalar = s[3]
        let c1: Scalar = c[1], c2: Scalar = c[2], c3: Scalar = c[3]
        let s03: Scalar = (s0 + s1 * y) + y2 * (s2 + s3 * y)
        let c03: Scalar = (1 + c1 * y) + y2 * (c2 + c3 * y)
        if isSinglePrecision { return (s03, c03) }
        let y4: Scalar = y2 * y2
        let s4: Scalar = s[4], s5: Scalar = s[5], s6: Scalar = s[6], s7: Scalar = s[7]
        let c4: Scalar = c[4], c5: Scalar = c[5], c6: Scalar = c[6], c7: Scalar = c[7]
        let s47: Scalar = (s4 + s5 * y) + y2 * (s6 + s7 * y)
        let c47: Scalar = (c4 + c5 * y) + y2 * (c6 + c7 * y)
        return (s03 + y4 * s47, c03 + y4 * c47)
    }

    /// `exp` of a pure quaternion with vector part `v`, `(cos|v|, sin|v| v/|v|)`: the rotation by the
    /// rotation vector `2v`. For |v| < 0.05 by the Taylor series of ``exponentialSeries(_:)``, whose
    /// truncation is under the type's rounding; beyond, by ``Quaternion/init(rotationVector:)``.
    @inlinable @inline(__always)
    static func exponential(halfRotation v: SIMD3<Scalar>) -> Quaternion<Scalar> {
        let t2 = (v.x * v.x + v.y * v.y) + v.z * v.z
        if t2 < 0.0025 {
            let (c, k) = exponentialSeries(t2)
            return Quaternion(w: c, x: v.x * k, y: v.y * k, z: v.z * k)
        }
        return Quaternion(rotationVector: v * 2)
    }

    /// `(cos t, sin t / t)` for `t² = t2 < 0.0025` by their Taylor series, in Horner's form with
    /// the coefficients as constants (no division at run time): in `Double` to `t⁸` (truncation below
    /// 3e-20), in `Float` to `t⁴` (truncation below 3e-11, far under `Float`'s rounding).
    @inlinable @inline(__always)
    static func exponentialSeries(_ t2: Scalar) -> (cosine: Scalar, sinc: Scalar) {
        if isSinglePrecision {
            let c: Scalar = 1 + t2 * (-1 / 2 as Scalar + t2 * (1 / 24 as Scalar))
            let k: Scalar = 1 + t2 * (-1 / 6 as Scalar + t2 * (1 / 120 as Scalar))
            return (c, k)
        }
        let c: Scalar = 1 + t2 * (-1 / 2 as Scalar + t2 * (1 / 24 as Scalar
            + t2 * (-1 / 720 as Scalar + t2 * (1 / 40_320 as Scalar))))
        let k: Scalar = 1 + t2 * (-1 / 6 as Scalar + t2 * (1 / 120 as Scalar
            + t2 * (-1 / 5_040 as Scalar + t2 * (1 / 362_880 as Scalar))))
        return (c, k)
    }

    /// `atan2(s, c) / s` for `s = √sineSquared ≥ 0` (0 when s = 0), for the angles beyond the series
    /// of ``tiltRotation(halfAngleSineSquared:)``.
    @inlinable
    static func angleRatio(sineSquared s2: Scalar, cosine c: Scalar) -> Scalar {
        let s = s2.squareRoot()
        return s > 0 ? Scalar.atan2(y: s, x: c) / s : 0
    }
}

extension ComplementaryFilter.Settings: RangedSettings {
    /// The valid range of every numeric setting: the one table that ``validate()``, the clamp of
    /// ``ComplementaryFilter/settings`` and the tests read.
    static var rules: [SettingRule<Self>] {
        [
            SettingRule(
                "accelerometerTimeConstant", { $0.accelerometerTimeConstant }, { $0.accelerometerTimeConstant = $1 }, .nonNegativeOrInfinity,
                invalidBecomes: .infinity),
            SettingRule(
                "magnetometerTimeConstant", { $0.magnetometerTimeConstant }, { $0.magnetometerTimeConstant = $1 }, .nonNegativeOrInfinity,
                invalidBecomes: .infinity),
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

    /// These settings with every value moved into its range, as ``ComplementaryFilter/settings`` documents.
    @usableFromInline
    func clamped() -> Self { clampedToRanges() }
}

#if !hasFeature(Embedded)
extension ComplementaryFilter.Settings: Codable {}
#endif
