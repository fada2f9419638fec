/// One Core Motion-style device-motion sample (`CMDeviceMotion`) in Double: what
/// ``MotionManager`` delivers.
public typealias DeviceMotion = DeviceMotionSample<Double>

/// One Core Motion-style device-motion sample (`CMDeviceMotion`) in any precision;
/// ``DeviceMotion`` is the Double one.
public struct DeviceMotionSample<Scalar: FusionScalar>: Sendable, Hashable {
    /// Seconds, on the source's clock.
    public var timestamp: Double
    /// Device → reference frame.
    public var attitude: Attitude<Scalar>
    /// The gyroscope rate with the bias estimate removed, rad/s.
    public var rotationRate: SIMD3<Scalar>
    /// Gravity in the device frame, in g (lying flat, face up: (0, 0, −1)).
    public var gravity: SIMD3<Scalar>
    /// The acceleration the user gives the device, in g, with Core Motion's sign convention:
    /// `gravity + userAcceleration` is Core Motion's accelerometer reading, `−specific force / g₀`.
    public var userAcceleration: SIMD3<Scalar>
    /// The calibrated magnetic field in the device frame, µT, with its accuracy (zero and
    /// ``MagneticFieldAccuracy/uncalibrated`` without a magnetometer sample).
    public var magneticField: CalibratedMagneticField<Scalar>
    /// Degrees in [0, 360) (never 360), clockwise from the reference frame's X axis (north) to the
    /// device's X axis projected on the horizontal plane — 0 when the attitude matches the reference
    /// frame — in the north-referenced frames; −1 in the others, as in Core Motion.
    public var heading: Double

    @usableFromInline
    init(
        timestamp: Double, attitude: Attitude<Scalar>, rotationRate: SIMD3<Scalar>, gravity: SIMD3<Scalar>,
        userAcceleration: SIMD3<Scalar>, magneticField: CalibratedMagneticField<Scalar>, heading: Double
    ) {
        self.timestamp = timestamp
        self.attitude = attitude
        self.rotationRate = rotationRate
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.magneticField = magneticField
        self.heading = heading
    }
}
