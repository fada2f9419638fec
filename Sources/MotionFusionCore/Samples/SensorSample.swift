/// One raw sample from a sensor source, in the library's units: seconds on the source's clock,
/// gyroscope rad/s, accelerometer specific force m/s² (reads +9.81 along the axis pointing up at
/// rest), magnetometer µT. A sensor the source does not have, or did not sample this time, is nil.
public struct SensorSample: Sendable, Hashable {
    public var timestamp: Double
    public var gyroscope: SIMD3<Double>?
    public var accelerometer: SIMD3<Double>?
    public var magnetometer: SIMD3<Double>?

    public init(
        timestamp: Double, gyroscope: SIMD3<Double>?, accelerometer: SIMD3<Double>?, magnetometer: SIMD3<Double>?
    ) {
        self.timestamp = timestamp
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
    }
}

/// Which sensors a source provides.
public struct SensorSet: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let gyroscope = SensorSet(rawValue: 1)
    public static let accelerometer = SensorSet(rawValue: 2)
    public static let magnetometer = SensorSet(rawValue: 4)
    public static let all: SensorSet = [.gyroscope, .accelerometer, .magnetometer]
}

/// A source of raw sensor samples for a ``MotionManager``: a recording replayed, a simulation, or
/// real sensors. The manager calls ``next()`` from its own thread, one call at a time; a source
/// that paces itself (real time, hardware) blocks in it until the next sample is due.
public protocol MotionSource: AnyObject {
    /// The sensors this source has.
    var sensors: SensorSet { get }
    /// The next sample, or nil when the source has ended.
    func next() throws -> SensorSample?
}

/// How a replayed source paces its samples.
public enum ReplayPacing: Sendable, Hashable {
    /// As fast as the consumer takes them.
    case asFastAsPossible
    /// At the recording's own timing, multiplied by `speed` (1 = real time, 10 = ten times faster).
    ///
    /// `speed` is clamped to ``speeds`` (10⁻³ … 10⁶); zero, a negative speed or NaN paces as fast as
    /// possible. Timestamps that go backward, repeat, are not finite or jump forward by more than
    /// ``longestPause`` seconds of recording time are not waited for: the replay continues at once
    /// and is paced from that sample on.
    case realTime(speed: Double)

    /// The speeds ``realTime(speed:)`` uses; others are clamped to it.
    public static let speeds: ClosedRange<Double> = 1e-3...1e6

    /// The longest pause between two samples, in seconds of recording time, that a paced replay
    /// waits out (at the given speed); a longer jump is replayed without waiting.
    public static let longestPause = 60.0
}
