/// An accelerometer sample as Core Motion reports it (`CMAccelerometerData`): g, with Core Motion's
/// signs (lying flat, face up: (0, 0, −1)).
public struct AccelerometerData: Sendable, Hashable {
    /// Seconds on the source's clock.
    public var timestamp: Double
    /// g, Core Motion's signs: `−specific force / g₀` (``CoreMotionConversion``).
    public var acceleration: SIMD3<Double>
}
