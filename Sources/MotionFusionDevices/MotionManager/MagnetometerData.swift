/// A raw magnetometer sample (`CMMagnetometerData`): µT, uncalibrated.
public struct MagnetometerData: Sendable, Hashable {
    public var timestamp: Double
    public var magneticField: SIMD3<Double>
}
