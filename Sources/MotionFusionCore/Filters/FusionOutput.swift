/// Per-sample flags of a ``FusionStream`` update.
public struct FusionFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The accelerometer corrected the attitude this step.
    public static let accelerometerUsed = FusionFlags(rawValue: 1 << 0)
    /// The magnetometer corrected the heading this step (a 9D step).
    public static let magnetometerUsed = FusionFlags(rawValue: 1 << 1)
    /// The gyroscope had a NaN or infinite component: nothing was integrated.
    public static let gyroscopeInvalid = FusionFlags(rawValue: 1 << 2)
    /// A gyroscope component reached the configured range.
    public static let gyroscopeSaturated = FusionFlags(rawValue: 1 << 3)
    /// An accelerometer component reached the configured range: its correction was skipped.
    public static let accelerometerSaturated = FusionFlags(rawValue: 1 << 4)
    /// The bias estimator, or the filter's own rest detector (``AttitudeFilter/isRestDetected``), detected rest.
    public static let restDetected = FusionFlags(rawValue: 1 << 5)
    /// The timestamp repeated the previous one (``TimestampEvent/repeated``).
    public static let timestampRepeated = FusionFlags(rawValue: 1 << 6)
    /// The timestamp went backwards (``TimestampEvent/backward``).
    public static let timestampBackward = FusionFlags(rawValue: 1 << 7)
    /// The step was longer than the clock's maximum gap (``TimestampEvent/gap``).
    public static let timestampGap = FusionFlags(rawValue: 1 << 8)
    /// The timestamp was NaN or infinite (``TimestampEvent/invalid``).
    public static let timestampInvalid = FusionFlags(rawValue: 1 << 9)
    /// The filter has no attitude yet (no usable accelerometer sample so far); the attitude is the
    /// identity.
    public static let notInitialized = FusionFlags(rawValue: 1 << 10)
}

/// What a ``FusionStream`` reports for one sample.
///
/// Signs and units: ``gravity`` is the gravitational acceleration (pointing down) in the sensor
/// frame in m/s² — lying flat, face up, it is (0, 0, −9.80665), the sign Core Motion's `gravity` has.
/// The accelerometer measures specific force `f`, so the linear acceleration is `f + gravity`: zero at
/// rest, and pointing the way the sensor actually accelerates.
@frozen
public struct FusionOutput<Scalar: FusionScalar>: Sendable, Hashable {
    /// The sample's timestamp (seconds, the source's clock).
    public var timestamp: Double
    /// The attitude, sensor → earth frame, unit length.
    public var quaternion: Quaternion<Scalar>
    /// The gyroscope bias estimate in rad/s (estimator plus filter), already removed from the rate
    /// the filter integrated.
    public var gyroscopeBias: SIMD3<Scalar>
    /// Gravitational acceleration in the sensor frame, m/s² (pointing down).
    public var gravity: SIMD3<Scalar>
    /// Linear acceleration in the sensor frame, m/s²: specific force plus ``gravity``.
    public var linearAcceleration: SIMD3<Scalar>
    /// Linear acceleration in the earth frame, m/s².
    public var earthLinearAcceleration: SIMD3<Scalar>
    /// What happened this step.
    public var flags: FusionFlags

    /// A Core Motion-style view of ``quaternion``.
    @inlinable
    public var attitude: Attitude<Scalar> { Attitude(unitQuaternion: quaternion) }

    /// An output with every field given.
    @inlinable
    public init(
        timestamp: Double, quaternion: Quaternion<Scalar>, gyroscopeBias: SIMD3<Scalar>,
        gravity: SIMD3<Scalar>, linearAcceleration: SIMD3<Scalar>,
        earthLinearAcceleration: SIMD3<Scalar>, flags: FusionFlags
    ) {
        self.timestamp = timestamp
        self.quaternion = quaternion
        self.gyroscopeBias = gyroscopeBias
        self.gravity = gravity
        self.linearAcceleration = linearAcceleration
        self.earthLinearAcceleration = earthLinearAcceleration
        self.flags = flags
    }
}

#if !hasFeature(Embedded)
extension FusionFlags: Codable {}
#endif
