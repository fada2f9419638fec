/// The calibrations a sample passes through before the filter: each sensor's is optional (nil:
/// the sensor is used raw). `Codable` as `{"accelerometer": {…}, "gyroscope": {…},
/// "magnetometer": {…}}` with the members of ``InertialCalibration`` and
/// ``MagnetometerCalibration``.
public struct SensorCalibration: Sendable, Hashable {
    /// Applied to the gyroscope (rad/s in, rad/s out).
    public var gyroscope: InertialCalibration?
    /// Applied to the accelerometer (m/s² in, m/s² out).
    public var accelerometer: InertialCalibration?
    /// Applied to the magnetometer (µT in, µT out).
    public var magnetometer: MagnetometerCalibration?

    /// A calibration of the given sensors.
    public init(
        gyroscope: InertialCalibration? = nil, accelerometer: InertialCalibration? = nil,
        magnetometer: MagnetometerCalibration? = nil
    ) {
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
    }

    /// One sample's readings with each sensor's calibration applied (a sensor without one is
    /// passed raw): the one place where calibrations are applied, by ``FusionStream`` before its
    /// filter and by ``DeviceMotionProcessor`` for the calibrated outputs it reports.
    @inlinable
    public func apply<Scalar: FusionScalar>(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?
    ) -> (gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?) {
        // Uncalibrated (the common case): nothing to copy. Mapping the optionals copied all three
        // calibrations (150 bytes each) at every sample.
        if self.gyroscope == nil && self.accelerometer == nil && self.magnetometer == nil {
            return (gyroscope, accelerometer, magnetometer)
        }
        return (
            self.gyroscope.map { $0.apply(gyroscope) } ?? gyroscope,
            self.accelerometer.map { $0.apply(accelerometer) } ?? accelerometer,
            magnetometer.map { m in self.magnetometer.map { $0.apply(m) } ?? m }
        )
    }

    /// True when no sensor is calibrated.
    public var isEmpty: Bool { gyroscope == nil && accelerometer == nil && magnetometer == nil }

    /// The magnetometer's accuracy level: ``MagneticFieldAccuracy/uncalibrated`` without a
    /// magnetometer calibration, otherwise from its fit residual.
    public var magneticFieldAccuracy: MagneticFieldAccuracy {
        magnetometer?.accuracy ?? .uncalibrated
    }
}

#if !hasFeature(Embedded)
extension SensorCalibration: Codable {}
#endif
