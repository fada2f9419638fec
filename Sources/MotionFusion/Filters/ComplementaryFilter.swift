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
    @usableFromInline var lastTilt: Scalar
    @usableFromInline var lastHeading: Scalar
    // The gains k = 1 − e^(−Δt/τ) for the last (Δt, τ_a, τ_m): recomputed only when one changes.
    @usableFromInline var gainKey: SIMD3<Scalar> = SIMD3(repeating: .nan)
    @usableFromInline var gains: SIMD2<Scalar> = .zero

    /// A filter that initializes itself from its first usable accelerometer sample.
    @inlinable
    public init(settings: Settings = Settings()) {
        self.settings = settings
        state = NWUAttitudeState()
        lastTilt = 0
        lastHeading = 0
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
    @inlinable public var tiltError: Scalar { lastTilt }
    /// The heading error ψ (rad, positive when the field points west of north) before the last
    /// correction; 0 in 6D steps.
    @inlinable public var headingError: Scalar { lastHeading }

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
        lastTilt = 0
        lastHeading = 0
        guard dt > 0, dt.isFinite, SensorCheck.isFinite(gyroscope) else { return }
        // The attitude is normalized once, at the end: between the three rotations it stays unit
        // to within a few ulps, and the arctangents below do not depend on its length.
        var p = q * Self.exponential(halfRotation: gyroscope * (dt / 2))
        guard let a = SensorCheck.direction(accelerometer) else {
            q = p.normalized()
            return
        }

        let key = SIMD3(dt, settings.accelerometerTimeConstant, settings.magnetometerTimeConstant)
        if key != gainKey {
            gainKey = key
            gains = SIMD2(
                -Scalar.expMinusOne(-dt / settings.accelerometerTimeConstant),
                -Scalar.expMinusOne(-dt / settings.magnetometerTimeConstant))
        }
        let g = p.act(on: a)
        // Rotation taking g to up: axis g × up = (g_y, −g_x, 0), angle atan2(|g × up|, g_z); the
        // fraction k_a of it is the rotation vector axis × (k_a angle / |axis|).
        let s2 = g.x * g.x + g.y * g.y
        let (tilt, ratio) = Self.angleAndRatio(sineSquared: s2, cosine: g.z)
        lastTilt = tilt
        if s2 > 0 {
            let half = gains.x * ratio / 2
            p = Self.exponential(halfRotation: SIMD3(g.y * half, -g.x * half, 0)) * p
        }
        guard let magnetometer, let m = SensorCheck.direction(magnetometer) else {
            q = p.normalized()
            return
        }
        let h = p.act(on: m)
        guard (h.x * h.x + h.y * h.y).isNormal else {  // field vertical: no heading
            q = p.normalized()
            return
        }
        let psi = Self.arctangent(h.y, h.x)
        lastHeading = psi
        p = Self.exponential(halfRotation: SIMD3(0, 0, -gains.y * psi / 2)) * p
        q = p.normalized()
    }

    /// `exp` of a pure quaternion with vector part `v`, `(cos|v|, sin|v| v/|v|)`: the rotation by the
    /// rotation vector `2v`. For |v| < 0.05 by Taylor series to the ninth power, whose truncation
    /// error (below 3e-20) is under `Double`'s rounding; beyond, by ``Quaternion/init(rotationVector:)``.
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

    /// `(atan2(s, c), atan2(s, c) / s)` for `s = √sineSquared ≥ 0` (the ratio tends to 1/c as s → 0
    /// for c > 0; it is 0 when s = 0 and c ≤ 0). For s ≤ 0.05 c (an angle below 2.9°) by the arctangent's series in (s/c)²,
    /// to the tenth power (truncation below 2e-17 relative), without a square root; beyond, by
    /// `atan2`.
    @inlinable @inline(__always)
    static func angleAndRatio(sineSquared s2: Scalar, cosine c: Scalar) -> (angle: Scalar, ratio: Scalar) {
        if c > 0 && s2 <= 0.0025 * (c * c) {
            let inverse = 1 / c
            let u2 = s2 * (inverse * inverse)
            let series = Self.arctangentSeries(u2)
            let ratio = series * inverse  // atan(u)/u / c with u = s/c
            return (s2.squareRoot() * ratio, ratio)
        }
        let s = s2.squareRoot()
        let angle = Scalar.atan2(y: s, x: c)
        return (angle, s > 0 ? angle / s : 0)
    }

    /// `atan(u)/u` for `u² = u2 ≤ 0.0025`: the series to `u¹⁰` (truncation below 2e-17 relative).
    @inlinable @inline(__always)
    static func arctangentSeries(_ u2: Scalar) -> Scalar {
        let a4: Scalar = (1 / 9 as Scalar) - u2 * (1 / 11 as Scalar)
        let a3: Scalar = (1 / 7 as Scalar) - u2 * a4
        let a2: Scalar = (1 / 5 as Scalar) - u2 * a3
        let a1: Scalar = (1 / 3 as Scalar) - u2 * a2
        return 1 - u2 * a1
    }

    /// `atan2(y, x)`; for |y| ≤ 0.05 x by the arctangent's series (see
    /// ``angleAndRatio(sineSquared:cosine:)``).
    @inlinable @inline(__always)
    static func arctangent(_ y: Scalar, _ x: Scalar) -> Scalar {
        if x > 0 && y * y <= 0.0025 * (x * x) {
            let u = y / x
            let u2 = u * u
            return u * Self.arctangentSeries(u2)
        }
        return Scalar.atan2(y: y, x: x)
    }
}
