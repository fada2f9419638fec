/// Madgwick's gradient-descent orientation filter, IMU (6D) and MARG (9D), with magnetic distortion
/// compensation and gyroscope bias drift compensation.
///
/// This follows the equations of S. O. H. Madgwick, A. J. L. Harrison and R. Vaidyanathan,
/// "Estimation of IMU and MARG orientation using a gradient descent algorithm", IEEE ICORR 2011, and
/// Madgwick's 2010 report. Per step, with the attitude `q` (sensor → NWU, the paper's frame):
/// 1. the objective `f` — gravity `(0, 0, 1)` and, in 9D, the reference field
///    `b = (b_x, 0, b_z)` seen from the sensor, minus the normalized measurements — and its
///    Jacobian `J` (paper eqs. 25–26, 31–32);
/// 2. magnetic distortion compensation: `h = q ⊗ m̂ ⊗ q*`, `b_x = √(h_x² + h_y²)`, `b_z = h_z`
///    (eqs. 45–46), so the magnetometer only corrects heading;
/// 3. the normalized gradient `∇f = Jᵀf / |Jᵀf|`;
/// 4. bias drift compensation: `ω_ε = 2 q* ⊗ ∇f`, `b ← b + ζ ω_ε Δt`, `ω_c = ω − b` (eqs. 47–49),
///    with each component of `b` kept within ±``Settings-swift.struct/maximumBias``;
/// 5. `q̇ = ½ q ⊗ (0, ω_c) − β ∇f`, `q ← normalize(q + q̇ Δt)` (eqs. 42–44).
///
/// The objective uses `2 b_x` and `2 b_z` exactly as the paper writes them. The widely copied C
/// implementation (`MadgwickAHRS.c`) stores `√(h_x² + h_y²)` in a variable named `_2bx` and uses it
/// where the paper has `2 b_x` — a factor-of-two slip that halves the magnetometer's reference field
/// and so changes the balance between the accelerometer and magnetometer terms; this implementation
/// does not copy it. It agrees sample by sample with the `ahrs` Python package, which follows the
/// paper (see `Tests/MotionFusionTests/FilterReferenceTests.swift`).
///
/// Deliberate differences from `ahrs`: a gyroscope reading of exactly zero is integrated (as zero
/// rotation) and still corrected; `ahrs` returns the attitude unchanged for it. The bias estimate
/// is bounded (``Settings-swift.struct/maximumBias``), and a step longer than ``longestStep`` (1 s)
/// is integrated as 1 s, so that one absurd `dt` cannot disable the filter.
@frozen
public struct MadgwickFilter<Scalar: FusionScalar>: AttitudeFilter {
    /// Madgwick's parameters. Every numeric field has a valid range, given at the end of its
    /// documentation; ``validate()`` reports a value outside it, and the filter moves such values
    /// into their ranges (see ``MadgwickFilter/settings``).
    public struct Settings: Sendable, Hashable {
        /// β, rad/s: the gradient-descent step, `√(3/4) ω̃_β` for a gyroscope measurement error
        /// `ω̃_β`. Larger corrects faster and follows accelerometer noise more. Default 0.1. 0 leaves
        /// the gyroscope alone. Valid range: ≥ 0, finite.
        public var beta: Scalar
        /// ζ, rad/s²: the gyroscope bias drift gain, `√(3/4) ω̃̇_β` for a bias drift rate `ω̃̇_β`.
        /// 0 (the default) turns bias compensation off. Valid range: ≥ 0, finite.
        public var zeta: Scalar
        /// The largest magnitude of each component of the bias estimate, rad/s: a physical bound for
        /// MEMS gyroscopes, so that steps whose gradient is mostly motion or noise (or one absurd
        /// step) cannot drive the estimate beyond any real bias. Each bias update clamps the
        /// components to ±this (``MahonyFilter`` bounds the length instead). Default 0.1 rad/s
        /// (5.7°/s, as Mahony's); `.infinity` removes the bound (as in the paper); 0 keeps the
        /// estimate at zero. Settings encoded without it decode with the default.
        /// Valid range: ≥ 0, +∞ allowed.
        public var maximumBias: Scalar
        /// The earth frame of the output attitude. Default ENU.
        public var frame: EarthFrame

        /// Settings with the given gains, bias bound and frame.
        public init(beta: Scalar = 0.1, zeta: Scalar = 0, maximumBias: Scalar = 0.1, frame: EarthFrame = .enu) {
            self.beta = beta
            self.zeta = zeta
            self.maximumBias = maximumBias
            self.frame = frame
        }

#if !hasFeature(Embedded)
        private enum CodingKeys: String, CodingKey { case beta, zeta, maximumBias, frame }

        /// Decodes the settings; `maximumBias`, added later, may be absent (then 0.1 rad/s).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            beta = try c.decode(Scalar.self, forKey: .beta)
            zeta = try c.decode(Scalar.self, forKey: .zeta)
            maximumBias = try c.decodeIfPresent(Scalar.self, forKey: .maximumBias) ?? 0.1
            frame = try c.decode(EarthFrame.self, forKey: .frame)
        }
#endif
    }

    /// The longest step the filter integrates, 1 s: an update with a longer `dt` is the update
    /// with `dt` = 1 s. No measured rate holds over a longer gap (``SampleClock``, in front of every
    /// filter in a ``FusionStream``, by default replaces steps beyond 1 s by the typical period),
    /// and the first-order step — `q + q̇ Δt`, with its gradient step `β Δt` and bias step `ζ Δt` —
    /// is only meaningful while these are small: one absurd `dt` (300 s) would otherwise throw the
    /// attitude far off and the bias estimate beyond any real bias, and 1e300 s would overflow the
    /// state. (``ComplementaryFilter``'s gains `1 − e^(−Δt/τ)` are bounded by their form, and
    /// ``MahonyFilter`` bounds its bias; this bound and ``Settings-swift.struct/maximumBias`` do the
    /// same here.)
    @inlinable public static var longestStep: Scalar { 1 }

    /// `(p₀² + p₁²) + (p₂² + p₃²)`, summed in that order (as ``MadgwickStreams`` sums its lanes).
    @inlinable @inline(__always)
    static func squaredLength(_ p: SIMD4<Scalar>) -> Scalar {
        let w: Scalar = p[0], x: Scalar = p[1], y: Scalar = p[2], z: Scalar = p[3]
        return (w * w + x * x) + (y * y + z * z)
    }

    /// The parameters; they may be changed between updates.
    ///
    /// Each value outside its valid range (see ``Settings-swift.struct``) is moved into it when the
    /// settings are set, here and in ``init(settings:)``, never per sample: a negative `beta`,
    /// `zeta` or `maximumBias` becomes 0; NaN, or an infinite `beta` or `zeta`, the default.
    /// Reading `settings` back shows the values in use. Call ``Settings-swift.struct/validate()``
    /// to refuse such settings instead.
    public var settings: Settings {
        didSet { settings = settings.clamped() }
    }
    /// The attitude state. Between updates it holds `p`, a positive multiple of the attitude
    /// (renormalized whenever |p|² leaves (0.25, 4)); `q = p / |p|` is formed where it is read.
    /// Never normalizing inside the step takes square roots and divisions off the chain of
    /// dependent operations from one step to the next (see ``update(gyroscope:accelerometer:magnetometer:dt:)``).
    @usableFromInline var state: NWUAttitudeState<Scalar>
    @inlinable var q: Quaternion<Scalar> {
        get { state.q.normalized() }
        set { state.q = newValue }
    }
    @inlinable var initialized: Bool { state.initialized }
    @usableFromInline var bias: SIMD3<Scalar>
    @usableFromInline var lastError: Scalar  // |f|² × lastErrorScale; the rest is done where it is read
    @usableFromInline var lastErrorScale: Scalar
    @usableFromInline var usedAcc: Bool
    @usableFromInline var usedMag: Bool

    /// The attitude, sensor → NWU (the frame the equations are written in).
    @inlinable public var nwuQuaternion: Quaternion<Scalar> { q }
    /// The bias estimate `b` of step 4 (rad/s); zero unless ζ > 0; each component within
    /// ±``Settings-swift.struct/maximumBias``.
    @inlinable public var gyroscopeBias: SIMD3<Scalar> { bias }
    /// True once the filter has an attitude.
    @inlinable public var isInitialized: Bool { initialized }
    /// `|f|` of the last step: how far the measured directions were from the predicted ones (0 to 2
    /// per sensor; 0 when no correction was possible).
    @inlinable public var objectiveError: Scalar { (lastError / lastErrorScale).squareRoot() }
    /// Whether the last step used the accelerometer.
    @inlinable public var usedAccelerometer: Bool { usedAcc }
    /// Whether the last step used the magnetometer.
    @inlinable public var usedMagnetometer: Bool { usedMag }

    /// A filter that initializes itself from its first usable accelerometer sample.
    ///
    /// Settings outside their valid ranges are moved into them (see ``settings``); call
    /// ``Settings-swift.struct/validate()`` first to refuse them instead.
    @inlinable
    public init(settings: Settings = Settings()) {
        self.settings = settings.clamped()
        state = NWUAttitudeState()
        bias = .zero
        lastError = 0
        lastErrorScale = 1
        usedAcc = false
        usedMag = false
    }

    /// The earth frame of ``quaternion``.
    @inlinable
    public var frame: EarthFrame { settings.frame }

    /// The attitude, sensor → ``frame``.
    @inlinable
    public var quaternion: Quaternion<Scalar> { settings.frame.fromNWU() * nwuQuaternion }

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
        usedAcc = false
        usedMag = false
        guard dt > 0, dt.isFinite, VectorCheck.isFinite(gyroscope) else { return }
        let dt = min(dt, Self.longestStep)

        // The state p is a positive multiple of q, q = p / |p|, kept unnormalized (see `state`).
        // Quadratic forms of q are those of p divided by |p|²; the Jacobian is linear in q, so with
        // p it is |p| times q's. Only the gradient's direction counts, so each path below works
        // with some positive multiple ∇f_s of ∇f, and the step follows from
        //   |p| (q + q̇ Δt) = p + ½ Δt p ⊗ (0, ω) − ∇f_s √(|p|² β² Δt² / |∇f_s|²):
        // one division and one square root. The next state is that multiple of the paper's
        // q + q̇ Δt. Square roots and divisions share one slow unit, and each path keeps the ones
        // on its chain of dependent operations to a minimum: 6D divides by nothing that depends on
        // p (it multiplies the objective by |p|² instead); 9D divides by |p|² alongside the square
        // root of the field's horizontal part, which is longer.
        var p = state.q.components
        var n2 = Self.squaredLength(p)
        if !(n2 > 0.25 && n2 < 4) {
            // Keep |p| near 1 (it grows by about (|ω|Δt)²/8 per step); also the recovery for a
            // state that a non-finite input would otherwise have poisoned.
            p = Quaternion(components: p).normalized().components
            n2 = Self.squaredLength(p)
        }
        let w = p[0], x = p[1], y = p[2], z = p[3]
        let inv = 1 / n2  // (used by the 9D path only)
        var gw: Scalar = 0, gx: Scalar = 0, gy: Scalar = 0, gz: Scalar = 0
        var g2: Scalar = 0
        // (MadgwickStreams repeats this step lane by lane, operation for operation; keep the two
        // identical.)
        let a2 = (accelerometer.x * accelerometer.x + accelerometer.y * accelerometer.y) + accelerometer.z * accelerometer.z
        if a2.isNormal {  // zero, subnormal, infinite and NaN have no direction
            usedAcc = true
            let ra = 1 / a2.squareRoot()
            let a = SIMD3(accelerometer.x * ra, accelerometer.y * ra, accelerometer.z * ra)
            let x2 = 2 * x, y2 = 2 * y, z2 = 2 * z, w2 = 2 * w
            if let m = magnetometer {
                // With a magnetometer (9D). Objective for gravity (0, 0, 1) and its Jacobian
                // (paper eqs. 25–26), with (b1, b2, b3) the predicted up direction, a quadratic
                // form of q.
                let inv2 = 2 * inv
                let b1 = inv2 * (x * z - w * y)
                let b2 = inv2 * (w * x + y * z)
                let b3 = 1 - inv2 * (x * x + y * y)
                let f1 = b1 - a.x, f2 = b2 - a.y, f3 = b3 - a.z
                var error2 = (f1 * f1 + f2 * f2) + f3 * f3
                let m2 = (m.x * m.x + m.y * m.y) + m.z * m.z
                // Usable: a direction, and |m|² ≤ 2⁶⁴ (|m| below 4.3e9, far beyond any
                // magnetometer), so that the rows below cannot overflow even in Float; an absurd
                // field is skipped like a missing one.
                if m2.isNormal && m2 <= 0x1p64 {
                    usedMag = true
                    // Heading-only correction (eqs. 45–46) with the raw field m = |m| m̂: the reference
                    // field h = q ⊗ m̂ ⊗ q*, b = (√(h_x² + h_y²), 0, h_z), and the objective rows
                    // f = b_x A + b_z B − m̂ (A the predicted north direction) all scale with |m|, so
                    // this block works with |m| f and |m| J and divides their product by |m|² (one
                    // division instead of normalizing m). p ⊗ m ⊗ p* = |p|² m + w t + u × t with
                    // t = 2 u × m. b_x needs the chain's one extra square root; what does not need b_x
                    // is ready before it.
                    let tx = y2 * m.z - z2 * m.y
                    let ty = z2 * m.x - x2 * m.z
                    let tz = x2 * m.y - y2 * m.x
                    let hx = n2 * m.x + (w * tx + (y * tz - z * ty))
                    let hy = n2 * m.y + (w * ty + (z * tx - x * tz))
                    let hz = n2 * m.z + (w * tz + (x * ty - y * tx))
                    let sx = (hx * hx + hy * hy).squareRoot()  // b_x = sx / |p|²
                    let bz = hz * inv
                    let a4 = 1 - inv2 * (y * y + z * z)
                    let a5 = inv2 * (x * y - w * z)
                    let a6 = inv2 * (w * y + x * z)
                    let f4 = sx * (inv * a4) + (bz * b1 - m.x)
                    let f5 = sx * (inv * a5) + (bz * b2 - m.y)
                    let f6 = sx * (inv * a6) + (bz * b3 - m.z)
                    // Jacobian rows (paper eq. 32) with p in place of q: J = b_x K + b_z G, where G is
                    // the gravity rows' Jacobian. So Jᵀf = Gᵀ(f₁₋₃ + b_z f₄₋₆) + b_x Kᵀ f₄₋₆, with
                    // the field's part divided by |m|² (folded into b_z and b_x).
                    let r2 = 1 / m2
                    let bzr = bz * r2, bxr = sx * (inv * r2)
                    let u1 = f1 + bzr * f4, u2 = f2 + bzr * f5, u3 = f3 + bzr * f6
                    let kw = y2 * f6 - z2 * f5
                    let kx = y2 * f5 + z2 * f6
                    let ky = (x2 * f5 + w2 * f6) - 2 * y2 * f4
                    let kz = (x2 * f6 - w2 * f5) - 2 * z2 * f4
                    gw = (x2 * u2 - y2 * u1) + bxr * kw
                    gx = ((z2 * u1 + w2 * u2) - 2 * x2 * u3) + bxr * kx
                    gy = ((z2 * u2 - w2 * u1) - 2 * y2 * u3) + bxr * ky
                    gz = (x2 * u1 + y2 * u2) + bxr * kz
                    error2 += ((f4 * f4 + f5 * f5) + f6 * f6) * r2
                } else {
                    gw = x2 * f2 - y2 * f1
                    gx = (z2 * f1 + w2 * f2) - 2 * x2 * f3
                    gy = (z2 * f2 - w2 * f1) - 2 * y2 * f3
                    gz = x2 * f1 + y2 * f2
                }
                lastError = error2
                lastErrorScale = 1
            } else {
                // Without a magnetometer (6D). The objective for gravity (0, 0, 1) times |p|² (no division on the chain):
                // (b1, b2, b3) is |p|² times the predicted up direction. Its Jacobian (paper
                // eqs. 25–26) with p in place of q.
                let b1 = 2 * (x * z - w * y)
                let b2 = 2 * (w * x + y * z)
                let b3 = n2 - 2 * (x * x + y * y)
                let f1 = b1 - n2 * a.x, f2 = b2 - n2 * a.y, f3 = b3 - n2 * a.z
                gw = x2 * f2 - y2 * f1
                gx = (z2 * f1 + w2 * f2) - 2 * x2 * f3
                gy = (z2 * f2 - w2 * f1) - 2 * y2 * f3
                gz = x2 * f1 + y2 * f2
                lastError = (f1 * f1 + f2 * f2) + f3 * f3
                lastErrorScale = n2 * n2
            }
            g2 = (gw * gw + gx * gx) + (gy * gy + gz * gz)
        } else {
            lastError = 0
            lastErrorScale = 1
        }
        var stepScale: Scalar = 0  // β Δt |p| / |∇f_s|, zero when there is no gradient
        var rate = gyroscope - bias
        if !g2.isNormal {
            // No gradient, or one that overflowed (a finite but absurd magnetometer in Float).
            gw = 0
            gx = 0
            gy = 0
            gz = 0
        } else {
            let betaDt = settings.beta * dt
            // (n2 < 4 and a normal g2 keep the root finite whatever Δt.)
            stepScale = betaDt * (n2 / g2).squareRoot()
            if settings.zeta > 0 {
                // Gyroscope bias drift compensation (eqs. 47–48): ω_ε = 2 q* ⊗ ∇f/|∇f|, with
                // q* = p*/|p| and ∇f/|∇f| = ∇f_s/|∇f_s|; the step integrates ω − b with the
                // updated b. The vector part of p* ⊗ ∇f_s:
                let ex = ((w * gx - x * gw) - y * gz) + z * gy
                let ey = ((w * gy + x * gz) - y * gw) - z * gx
                let ez = ((w * gz - x * gy) + y * gx) - z * gw
                let k = 2 * settings.zeta * dt * (1 / (n2 * g2)).squareRoot()
                if k.isFinite {
                    // Each component kept within ±maximumBias (MadgwickStreams selects the same way).
                    let limit = settings.maximumBias
                    @inline(__always) func bounded(_ b: Scalar) -> Scalar {
                        b < -limit ? -limit : (b > limit ? limit : b)
                    }
                    bias = SIMD3(bounded(bias.x + ex * k), bounded(bias.y + ey * k), bounded(bias.z + ez * k))
                }
                rate = gyroscope - bias
            }
        }
        // |p| (q + q̇ Δt) = p + ½ Δt p ⊗ (0, ω) − β Δt |p| ∇f/|∇f|.
        let h = dt / 2
        let rx = rate.x * h, ry = rate.y * h, rz = rate.z * h
        let pw = w - ((x * rx + y * ry) + z * rz)
        let px = x + ((w * rx + y * rz) - z * ry)
        let py = y + ((w * ry - x * rz) + z * rx)
        let pz = z + ((w * rz + x * ry) - y * rx)
        state.q = Quaternion(
            w: pw - gw * stepScale, x: px - gx * stepScale, y: py - gy * stepScale, z: pz - gz * stepScale)
    }
}

extension MadgwickFilter.Settings: RangedSettings {
    /// The valid range of every numeric setting: the one table that ``validate()``, the clamp of
    /// ``MadgwickFilter/settings`` and the tests read.
    static var rules: [SettingRule<Self>] {
        [
            SettingRule("beta", { $0.beta }, { $0.beta = $1 }, .nonNegative),
            SettingRule("zeta", { $0.zeta }, { $0.zeta = $1 }, .nonNegative),
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

    /// These settings with every value moved into its range, as ``MadgwickFilter/settings`` documents.
    @usableFromInline
    func clamped() -> Self { clampedToRanges() }
}

#if !hasFeature(Embedded)
extension MadgwickFilter.Settings: Codable {}
#endif
