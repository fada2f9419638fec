import RealModule

/// One Core Motion-style device-motion sample (`CMDeviceMotion`).
public struct DeviceMotion<Scalar: FusionScalar>: Sendable, Hashable {
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
    /// The calibrated magnetic field in the device frame, µT (nil without a magnetometer sample).
    public var magneticField: SIMD3<Scalar>?
    /// How far the magnetic field can be trusted.
    public var magneticFieldAccuracy: MagneticFieldAccuracy
    /// Degrees 0 ..< 360, clockwise from the reference frame's X axis (north) to the device's X axis
    /// projected on the horizontal plane — 0 when the attitude matches the reference frame — in the
    /// north-referenced frames; −1 in the others, as in Core Motion.
    public var heading: Double
}

/// Turns a ``FusionStream`` into Core Motion-style ``DeviceMotion`` in a chosen
/// ``AttitudeReferenceFrame``.
///
/// The filter's attitude is taken in NWU (X north, Z up: Core Motion's magnetic-north frame). True north turns the
/// attitude by the declination (`q ← R_z(−D) ⊗ q`, declination D east-positive, from the World
/// Magnetic Model or given); the arbitrary frames turn it so that X is the device's heading at the
/// first sample. ``AttitudeReferenceFrame/xArbitraryZVertical`` ignores the magnetometer.
public struct DeviceMotionProcessor<Filter: AttitudeFilter>: Sendable {
    public typealias Scalar = Filter.Scalar
    /// The underlying stream (filter, clock, bias estimation, calibration).
    public var stream: FusionStream<Filter>
    /// The reference frame of the attitudes.
    public let referenceFrame: AttitudeReferenceFrame
    /// Magnetic declination, radians east of true north (used by the true-north frame).
    public let declination: Double
    @usableFromInline var arbitraryYaw: Quaternion<Scalar>?

    /// A processor. The filter may run in any ``EarthFrame``; its attitude is turned into NWU
    /// (Core Motion's X-north, Z-up frame) before the reference frame is applied.
    public init(stream: FusionStream<Filter>, referenceFrame: AttitudeReferenceFrame, declination: Double = 0) {
        self.stream = stream
        self.referenceFrame = referenceFrame
        self.declination = declination
    }

    /// Processes one raw sample (units as ``FusionStream/update(timestamp:gyroscope:accelerometer:magnetometer:)``).
    public mutating func update(
        timestamp: Double, gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?
    ) -> DeviceMotion<Scalar> {
        let magnetic = referenceFrame.usesMagnetometer ? magnetometer : nil
        let output = stream.update(
            timestamp: timestamp, gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetic)
        var q = stream.filter.frame.fromNWU(Scalar.self).conjugate * output.quaternion
        switch referenceFrame {
        case .xMagneticNorthZVertical:
            break
        case .xTrueNorthZVertical:
            q = Quaternion(angle: Scalar(-declination), axis: SIMD3(0, 0, 1)) * q
        case .xArbitraryZVertical, .xArbitraryCorrectedZVertical:
            if arbitraryYaw == nil, !output.flags.contains(.notInitialized) {
                let yaw = q.eulerAngles(.coreMotion).angles[0]
                arbitraryYaw = Quaternion(angle: -yaw, axis: SIMD3(0, 0, 1))
            }
            q = (arbitraryYaw ?? .identity) * q
        }
        let rate = stream.calibration.gyroscope.map { $0.apply(gyroscope) } ?? gyroscope
        let force = stream.calibration.accelerometer.map { $0.apply(accelerometer) } ?? accelerometer
        let field = magnetometer.map { m in stream.calibration.magnetometer.map { $0.apply(m) } ?? m }
        let attitude = Attitude(unitQuaternion: q)
        var heading = -1.0
        if referenceFrame.isNorthReferenced {
            let yawDegrees = Double(attitude.yaw) * 180 / .pi
            heading = (-yawDegrees).truncatingRemainder(dividingBy: 360)
            if heading < 0 { heading += 360 }
        }
        return DeviceMotion(
            timestamp: timestamp, attitude: attitude, rotationRate: rate - output.gyroscopeBias,
            gravity: CoreMotionConversion.gravity(output.gravity),
            userAcceleration: CoreMotionConversion.userAcceleration(
                specificForce: force, gravitationalAcceleration: output.gravity),
            magneticField: field, magneticFieldAccuracy: stream.calibration.magneticFieldAccuracy,
            heading: heading)
    }
}

extension DeviceMotionProcessor {
    /// A processor around MotionFusion's default filter: ``InertialFrameFilter`` at its defaults (in
    /// NWU), with the given sensor calibration.
    public init<S: FusionScalar>(
        referenceFrame: AttitudeReferenceFrame, declination: Double = 0,
        calibration: SensorCalibration = SensorCalibration()
    ) where Filter == InertialFrameFilter<S> {
        self.init(
            stream: FusionStream(filter: InertialFrameFilter<S>(settings: .init(frame: .nwu)), calibration: calibration),
            referenceFrame: referenceFrame, declination: declination)
    }
}
