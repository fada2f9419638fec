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
/// 4. bias drift compensation: `ω_ε = 2 q* ⊗ ∇f`, `b ← b + ζ ω_ε Δt`, `ω_c = ω − b` (eqs. 47–49);
/// 5. `q̇ = ½ q ⊗ (0, ω_c) − β ∇f`, `q ← normalize(q + q̇ Δt)` (eqs. 42–44).
///
/// The objective uses `2 b_x` and `2 b_z` exactly as the paper writes them. The widely copied C
/// implementation (`MadgwickAHRS.c`) stores `√(h_x² + h_y²)` in a variable named `_2bx` and uses it
/// where the paper has `2 b_x` — a factor-of-two slip that halves the magnetometer's reference field
/// and so changes the balance between the accelerometer and magnetometer terms; this implementation
/// does not copy it. It agrees sample by sample with the `ahrs` Python package, which follows the
/// paper (see `Tests/MotionFusionTests/MadgwickReferenceTests.swift`).
///
/// Deliberate difference from `ahrs`: a gyroscope reading of exactly zero is integrated (as zero
/// rotation) and still corrected; `ahrs` returns the attitude unchanged for it.
@frozen
public struct MadgwickFilter<Scalar: FusionScalar>: AttitudeFilter {
    /// Madgwick's parameters.
    public struct Settings: Sendable, Hashable, Codable {
        /// β, rad/s: the gradient-descent step, `√(3/4) ω̃_β` for a gyroscope measurement error
        /// `ω̃_β`. Larger corrects faster and follows accelerometer noise more. Default 0.1.
        public var beta: Scalar
        /// ζ, rad/s²: the gyroscope bias drift gain, `√(3/4) ω̃̇_β` for a bias drift rate `ω̃̇_β`.
        /// 0 (the default) turns bias compensation off.
        public var zeta: Scalar
        /// The earth frame of the output attitude. Default ENU.
        public var frame: EarthFrame

        /// Settings with the given gains and frame.
        public init(beta: Scalar = 0.1, zeta: Scalar = 0, frame: EarthFrame = .enu) {
            self.beta = beta
            self.zeta = zeta
            self.frame = frame
        }
    }

    /// The parameters; they may be changed between updates.
    public var settings: Settings
    @usableFromInline var state: NWUAttitudeState<Scalar>
    @inlinable var q: Quaternion<Scalar> {
        get { state.q }
        set { state.q = newValue }
    }
    @inlinable var initialized: Bool { state.initialized }
    @usableFromInline var bias: SIMD3<Scalar>
    @usableFromInline var lastError: Scalar
    @usableFromInline var usedAcc: Bool
    @usableFromInline var usedMag: Bool

    /// The attitude, sensor → NWU (the frame the equations are written in).
    @inlinable public var nwuQuaternion: Quaternion<Scalar> { q }
    /// The bias estimate `b` of step 4 (rad/s); zero unless ζ > 0.
    @inlinable public var gyroscopeBias: SIMD3<Scalar> { bias }
    /// True once the filter has an attitude.
    @inlinable public var isInitialized: Bool { initialized }
    /// `|f|` of the last step: how far the measured directions were from the predicted ones (0 to 2
    /// per sensor; 0 when no correction was possible).
    @inlinable public var objectiveError: Scalar { lastError }
    /// Whether the last step used the accelerometer.
    @inlinable public var usedAccelerometer: Bool { usedAcc }
    /// Whether the last step used the magnetometer.
    @inlinable public var usedMagnetometer: Bool { usedMag }

    /// A filter that initializes itself from its first usable accelerometer sample.
    @inlinable
    public init(settings: Settings = Settings()) {
        self.settings = settings
        state = NWUAttitudeState()
        bias = .zero
        lastError = 0
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

    @inlinable
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
        guard dt > 0, dt.isFinite, SensorCheck.isFinite(gyroscope) else { return }

        let w = q.w, x = q.x, y = q.y, z = q.z
        var gradient = SIMD4<Scalar>.zero
        if let a = SensorCheck.direction(accelerometer) {
            usedAcc = true
            // Objective for gravity (0, 0, 1) and its Jacobian (paper eqs. 25–26).
            let f1 = 2 * (x * z - w * y) - a.x
            let f2 = 2 * (w * x + y * z) - a.y
            let f3 = 2 * (0.5 - x * x - y * y) - a.z
            gradient = SIMD4(
                -2 * y * f1 + 2 * x * f2,
                2 * z * f1 + 2 * w * f2 - 4 * x * f3,
                -2 * w * f1 + 2 * z * f2 - 4 * y * f3,
                2 * x * f1 + 2 * y * f2)
            var error2 = f1 * f1 + f2 * f2 + f3 * f3
            if let magnetometer, let m = SensorCheck.direction(magnetometer) {
                usedMag = true
                // Reference field from the measurement: heading-only correction (eqs. 45–46).
                let h = q.act(on: m)
                let bx = (h.x * h.x + h.y * h.y).squareRoot()
                let bz = h.z
                let f4 = 2 * bx * (0.5 - y * y - z * z) + 2 * bz * (x * z - w * y) - m.x
                let f5 = 2 * bx * (x * y - w * z) + 2 * bz * (w * x + y * z) - m.y
                let f6 = 2 * bx * (w * y + x * z) + 2 * bz * (0.5 - x * x - y * y) - m.z
                let bx2 = 2 * bx, bz2 = 2 * bz
                let gw = -bz2 * y * f4 + (bz2 * x - bx2 * z) * f5 + bx2 * y * f6
                let gx = bz2 * z * f4 + (bx2 * y + bz2 * w) * f5 + (bx2 * z - 2 * bz2 * x) * f6
                let gy = (-2 * bx2 * y - bz2 * w) * f4 + (bx2 * x + bz2 * z) * f5 + (bx2 * w - 2 * bz2 * y) * f6
                let gz = (bz2 * x - 2 * bx2 * z) * f4 + (bz2 * y - bx2 * w) * f5 + bx2 * x * f6
                gradient += SIMD4(gw, gx, gy, gz)
                error2 += f4 * f4 + f5 * f5 + f6 * f6
            }
            lastError = error2.squareRoot()
            let norm2 = (gradient * gradient).sum()
            if norm2.isNormal {
                gradient *= 1 / norm2.squareRoot()
            } else {
                gradient = .zero
            }
        } else {
            lastError = 0
        }

        if settings.zeta > 0, gradient != .zero {
            // Gyroscope bias drift compensation (eqs. 47–48): ω_ε = 2 q* ⊗ ∇f.
            let error = (q.conjugate * Quaternion(components: gradient)).vector * 2
            bias += error * (settings.zeta * dt)
        }
        let rate = gyroscope - bias
        var qDot = (q * Quaternion(real: 0, imaginary: rate)).components * 0.5
        qDot -= settings.beta * gradient
        q = Quaternion(components: q.components + qDot * dt).normalized()
    }
}
