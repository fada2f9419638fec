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
        q = (q * Quaternion(rotationVector: gyroscope * dt)).normalized()
        guard let a = SensorCheck.direction(accelerometer) else { return }

        let key = SIMD3(dt, settings.accelerometerTimeConstant, settings.magnetometerTimeConstant)
        if key != gainKey {
            gainKey = key
            gains = SIMD2(
                -Scalar.expMinusOne(-dt / settings.accelerometerTimeConstant),
                -Scalar.expMinusOne(-dt / settings.magnetometerTimeConstant))
        }
        let g = q.act(on: a)
        // Rotation taking g to up: axis g × up = (g_y, −g_x, 0), angle atan2(|g × up|, g_z).
        let axis = SIMD3(g.y, -g.x, 0)
        let sine = axis.lengthOfVector
        let tilt = Scalar.atan2(y: sine, x: g.z)
        lastTilt = tilt
        if sine > 0 {
            q = (Quaternion(rotationVector: axis * (gains.x * tilt / sine)) * q).normalized()
        }
        guard let magnetometer, let m = SensorCheck.direction(magnetometer) else { return }
        let h = q.act(on: m)
        guard (h.x * h.x + h.y * h.y).isNormal else { return }  // field vertical: no heading
        let psi = Scalar.atan2(y: h.y, x: h.x)
        lastHeading = psi
        q = (Quaternion(rotationVector: SIMD3(0, 0, -gains.y * psi)) * q).normalized()
    }
}
