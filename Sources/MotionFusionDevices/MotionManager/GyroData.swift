/// A raw gyroscope sample (`CMGyroData`): rad/s, bias included.
public struct GyroData: Sendable, Hashable {
    public var timestamp: Double
    public var rotationRate: SIMD3<Double>
}
