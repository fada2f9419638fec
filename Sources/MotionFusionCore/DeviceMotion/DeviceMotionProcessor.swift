import RealModule

/// Turns a ``FusionStream`` into Core Motion-style ``DeviceMotion`` in a chosen
/// ``AttitudeReferenceFrame``.
///
/// The filter's attitude is taken in NWU (X north, Z up: Core Motion's magnetic-north frame). True north turns the
/// attitude by the declination (`q ← R_z(−D) ⊗ q`, declination D east-positive, from the World
/// Magnetic Model or given); the arbitrary frames turn it so that X is the device's heading at the
/// first sample. ``AttitudeReferenceFrame/xArbitraryZVertical`` ignores the magnetometer.
///
/// **The arbitrary frames' X axis.** At the first initialized sample the attitude q is split into a
/// turn about the vertical, T, and a tilt about a horizontal axis, S (q = T ⊗ S, the swing-twist
/// split), and T is removed: the first attitude is the pure tilt S, so a device lying flat starts
/// at the identity (yaw 0) and a tilted device's X axis keeps its compass direction as far as a
/// tilt allows. Unlike removing the Euler yaw, which jumps by 180° when the device passes upright
/// (pitch ±90°), this split changes continuously with the starting pose everywhere except for a
/// device that starts upside down (tilt of exactly 180°, no tilt axis), where T is the identity.
public struct DeviceMotionProcessor<Filter: AttitudeFilter>: Sendable {
    public typealias Scalar = Filter.Scalar
    /// The underlying stream (filter, clock, bias estimation, calibration).
    public var stream: FusionStream<Filter>
    /// The reference frame of the attitudes.
    public let referenceFrame: AttitudeReferenceFrame
    /// The magnetic declination that ``AttitudeReferenceFrame/xTrueNorthZVertical`` applies, **in
    /// degrees east of true north** (west negative), as ``MagneticDeclination`` and `motion
    /// declination` give it; nil in the other frames, which use none.
    public let declinationDegrees: Double?
    /// The declination in radians (0 outside true north).
    @usableFromInline let declinationRadians: Double
    @usableFromInline var arbitraryYaw: Quaternion<Scalar>?

    /// A processor. The filter may run in any ``EarthFrame``; its attitude is turned into NWU
    /// (Core Motion's X-north, Z-up frame) before the reference frame is applied.
    ///
    /// - Parameters:
    ///   - stream: the filter, clock, bias estimation and calibration that the samples go through.
    ///   - referenceFrame: the frame of the attitudes.
    ///   - declinationDegrees: for ``AttitudeReferenceFrame/xTrueNorthZVertical``, the magnetic
    ///     declination in degrees east of true north (``MagneticDeclination/degreesEast()`` gives
    ///     it for a place and date). Ignored by the other frames.
    /// - Throws: ``DeviceMotionError/trueNorthNotAvailable`` for true north without a declination,
    ///   ``DeviceMotionError/declinationNotAvailable(_:)`` for true north with a non-finite one. The
    ///   processor never falls back to magnetic north.
    public init(
        stream: FusionStream<Filter>, referenceFrame: AttitudeReferenceFrame, declinationDegrees: Double? = nil
    ) throws(DeviceMotionError) {
        self.stream = stream
        self.referenceFrame = referenceFrame
        if referenceFrame == .xTrueNorthZVertical {
            guard let declinationDegrees else { throw .trueNorthNotAvailable }
            guard declinationDegrees.isFinite else {
                throw .declinationNotAvailable(.notFinite(parameter: "declinationDegrees"))
            }
            self.declinationDegrees = declinationDegrees
            declinationRadians = declinationDegrees * .pi / 180
        } else {
            self.declinationDegrees = nil
            declinationRadians = 0
        }
    }

    /// Processes one raw sample (units as ``FusionStream/update(timestamp:gyroscope:accelerometer:magnetometer:)``).
    @inlinable
    public mutating func update(
        timestamp: Double, gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?
    ) -> DeviceMotionSample<Scalar> {
        // Calibrated once, for the filter and for the outputs below.
        let calibrated = stream.calibrate(
            gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer)
        let output = stream.update(
            timestamp: timestamp, calibratedGyroscope: calibrated.gyroscope, accelerometer: calibrated.accelerometer,
            magnetometer: referenceFrame.usesMagnetometer ? calibrated.magnetometer : nil)
        var q = stream.filter.frame.fromNWU(Scalar.self).conjugate * output.quaternion
        switch referenceFrame {
        case .xMagneticNorthZVertical:
            break
        case .xTrueNorthZVertical:
            q = Quaternion(angle: Scalar(-declinationRadians), axis: SIMD3(0, 0, 1)) * q
        case .xArbitraryZVertical, .xArbitraryCorrectedZVertical:
            if arbitraryYaw == nil, !output.flags.contains(.notInitialized) {
                arbitraryYaw = Self.verticalTurn(of: q).conjugate
            }
            q = (arbitraryYaw ?? .identity) * q
        }
        let rate = calibrated.gyroscope
        let force = calibrated.accelerometer
        var field = CalibratedMagneticField<Scalar>.noSample
        if let m = calibrated.magnetometer {
            field.field = m
            field.accuracy = stream.magneticFieldAccuracy
        }
        let attitude = Attitude(unitQuaternion: q)
        let heading = referenceFrame.isNorthReferenced ? Self.heading(yaw: Double(attitude.yaw)) : -1
        return DeviceMotionSample(
            timestamp: timestamp, attitude: attitude, rotationRate: rate - output.gyroscopeBias,
            gravity: CoreMotionConversion.gravity(output.gravity),
            userAcceleration: CoreMotionConversion.userAcceleration(
                specificForce: force, gravitationalAcceleration: output.gravity),
            magneticField: field, heading: heading)
    }

    /// The turn about the vertical T of `q = T ⊗ S`, S a rotation about a horizontal axis: the
    /// normalized (w, 0, 0, z) part of q; the identity when that part vanishes (q turns the device
    /// upside down, tilt 180°, where no split exists).
    @inlinable
    static func verticalTurn(of q: Quaternion<Scalar>) -> Quaternion<Scalar> {
        let turn = Quaternion(w: q.w, x: 0, y: 0, z: q.z)
        guard Quaternion.hasDirection(turn) else { return .identity }
        return turn.normalized()
    }

    /// Core Motion's heading in degrees from a yaw in radians (counter-clockwise about Z): the
    /// clockwise angle in [0, 360). A tiny positive yaw gives 360 − tiny, which rounds to 360.0 in
    /// Double; that is reported as 0, the same direction.
    @inlinable
    static func heading(yaw: Double) -> Double {
        var heading = (-yaw * 180 / .pi).truncatingRemainder(dividingBy: 360)
        if heading < 0 { heading += 360 }
        return heading < 360 ? heading : 0
    }
}

extension DeviceMotionProcessor {
    /// A processor around MotionFusion's default filter: ``InertialFrameFilter`` at its defaults (in
    /// NWU), with the given sensor calibration. The declination and the errors are those of
    /// ``init(stream:referenceFrame:declinationDegrees:)``.
    public init<S: FusionScalar>(
        referenceFrame: AttitudeReferenceFrame, declinationDegrees: Double? = nil,
        calibration: SensorCalibration = SensorCalibration()
    ) throws(DeviceMotionError) where Filter == InertialFrameFilter<S> {
        try self.init(
            stream: FusionStream(filter: InertialFrameFilter<S>(settings: .init(frame: .nwu)), calibration: calibration),
            referenceFrame: referenceFrame, declinationDegrees: declinationDegrees)
    }
}
