/// One reading of one sensor, stamped with that sensor's own time: the input of a
/// ``SampleAssembler`` when the sensors of a device run at different rates or come from different
/// devices. Units as in ``SensorSample``: seconds, rad/s, m/s² of specific force, µT.
public struct SensorReading: Sendable, Hashable {
    /// Which sensor a reading comes from.
    public enum Sensor: UInt8, Sendable, Hashable, CaseIterable {
        case gyroscope, accelerometer, magnetometer
    }

    public var sensor: Sensor
    public var timestamp: Double
    public var value: SIMD3<Double>

    public init(sensor: Sensor, timestamp: Double, value: SIMD3<Double>) {
        self.sensor = sensor
        self.timestamp = timestamp
        self.value = value
    }
}
