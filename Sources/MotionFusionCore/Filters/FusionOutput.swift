
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
