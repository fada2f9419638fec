
// MARK: The manager and its handlers

/// `CMMotionManager`: ``MotionManager``, which needs a source (`CMMotionManager(source: …)`).
public typealias CMMotionManager = MotionManager
/// `CMAccelerometerHandler`, `@Sendable` as Swift 6 requires of a handler run on another queue.
public typealias CMAccelerometerHandler = MotionManager.AccelerometerHandler
/// `CMGyroHandler`.
public typealias CMGyroHandler = MotionManager.GyroHandler
/// `CMMagnetometerHandler`.
public typealias CMMagnetometerHandler = MotionManager.MagnetometerHandler
/// `CMDeviceMotionHandler`.
public typealias CMDeviceMotionHandler = MotionManager.DeviceMotionHandler
/// `CMAttitudeReferenceFrame`: an enum here, not an option set;
/// `availableAttitudeReferenceFrames()` returns a `Set`, so `.contains(_:)` reads the same.
public typealias CMAttitudeReferenceFrame = AttitudeReferenceFrame

// MARK: Raw sensor data

/// `CMAcceleration`: g, `.x`, `.y`, `.z`.
public typealias CMAcceleration = SIMD3<Double>
/// `CMRotationRate`: rad/s, `.x`, `.y`, `.z`.
public typealias CMRotationRate = SIMD3<Double>
/// `CMMagneticField`: µT, `.x`, `.y`, `.z`.
public typealias CMMagneticField = SIMD3<Double>
/// `CMAccelerometerData`.
public typealias CMAccelerometerData = AccelerometerData
/// `CMGyroData`.
public typealias CMGyroData = GyroData
/// `CMMagnetometerData`.
public typealias CMMagnetometerData = MagnetometerData

// MARK: Device motion

/// `CMDeviceMotion`.
public typealias CMDeviceMotion = DeviceMotion
/// `CMAttitude`.
public typealias CMAttitude = Attitude<Double>
/// `CMRotationMatrix`: `m11` … `m33`.
public typealias CMRotationMatrix = RotationMatrix<Double>
/// `CMQuaternion`: `.x`, `.y`, `.z`, `.w`.
public typealias CMQuaternion = Quaternion<Double>
/// `CMCalibratedMagneticField`: `.field` (µT) and `.accuracy`.
public typealias CMCalibratedMagneticField = CalibratedMagneticField<Double>
/// `CMMagneticFieldCalibrationAccuracy`: `.uncalibrated`, `.low`, `.medium`, `.high`.
public typealias CMMagneticFieldCalibrationAccuracy = MagneticFieldAccuracy

extension Attitude where Scalar == Double {
    /// `CMAttitude.copy()`, returning `Any` as `NSCopying`'s does, so that
    /// `motion.attitude.copy() as? CMAttitude` reads as in Core Motion (and does not warn that the
    /// cast always succeeds). The copy is the value itself: `Attitude` is a struct.
    public func copy() -> Any { self }
}

extension DeviceMotionSample {
    /// `CMDeviceMotion.SensorLocation`: which device's sensors a sample comes from.
    public enum SensorLocation: Int, Sendable, Hashable {
        /// The device's own sensors: always, here.
        case `default`
        /// A left headphone (Core Motion's headphone motion); never reported here.
        case headphoneLeft
        /// A right headphone; never reported here.
        case headphoneRight
    }

    /// `CMDeviceMotion.sensorLocation`: always `.default`, the source's
    /// own sensors (there is no headphone motion here).
    public var sensorLocation: SensorLocation { .default }
}

// MARK: Core Motion's struct initializers

extension Quaternion {
    /// `CMQuaternion(x:y:z:w:)`: the same quaternion as `Quaternion(w:x:y:z:)` (scalar first).
    public init(x: Scalar, y: Scalar, z: Scalar, w: Scalar) { self.init(w: w, x: x, y: y, z: z) }
}

extension RotationMatrix {
    /// `CMRotationMatrix(m11:m12:m13:m21:m22:m23:m31:m32:m33:)`: row by row.
    public init(
        m11: Scalar, m12: Scalar, m13: Scalar, m21: Scalar, m22: Scalar, m23: Scalar,
        m31: Scalar, m32: Scalar, m33: Scalar
    ) {
        self.init(rows: SIMD3(m11, m12, m13), SIMD3(m21, m22, m23), SIMD3(m31, m32, m33))
    }
}

extension CalibratedMagneticField {
    /// `CMCalibratedMagneticField()`: zero field, `.uncalibrated`.
    public init() { self = .noSample }
}
