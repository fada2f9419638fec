/// Which sensors a source provides.
public struct SensorSet: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let gyroscope = SensorSet(rawValue: 1)
    public static let accelerometer = SensorSet(rawValue: 2)
    public static let magnetometer = SensorSet(rawValue: 4)
    public static let all: SensorSet = [.gyroscope, .accelerometer, .magnetometer]
}
