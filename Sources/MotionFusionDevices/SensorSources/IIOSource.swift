import MotionFusionCore
import MotionFusionIO

/// Polls Linux IIO devices (``IIODevice``) as a ``MotionSource``: every period it reads each channel
/// type the devices have (the first device that has a type supplies it) and stamps the sample with
/// the seconds since the source started (a monotonic clock).
///
/// The period is `1 / rate`, with `rate` the one given, else the lowest sampling frequency the devices
/// report, else 100 Hz. A given rate is clamped to ``rates`` (0.01 Hz … 100 kHz; NaN, zero or a
/// negative rate counts as not given), and a reported frequency outside it is ignored (a driver
/// that reports 1e-300 Hz is not believed). A read error is thrown from ``next()`` (the device stays usable; the
/// manager reports it and stops). `maximumSamples` ends the source after that many samples (nil:
/// never).
public final class IIOSource: MotionSource {
    public let devices: [IIODevice]
    public let rate: Double
    public let maximumSamples: Int?
    public let sensors: SensorSet
    /// The polling rates, Hz, a source uses.
    public static let rates: ClosedRange<Double> = 0.01...100_000
    private let start = ContinuousClock.now
    private var count = 0

    /// A source over `devices`; `rate` in Hz (see the type's description).
    public init(devices: [IIODevice], rate: Double? = nil, maximumSamples: Int? = nil) {
        self.devices = devices
        let reported = devices.compactMap(\.samplingFrequency).filter { Self.rates.contains($0) }.min()
        let given = rate.flatMap { $0 > 0 ? Swift.min(Swift.max($0, Self.rates.lowerBound), Self.rates.upperBound) : nil }
        self.rate = given ?? reported ?? 100
        self.maximumSamples = maximumSamples
        var sensors: SensorSet = []
        for d in devices {
            if d.channelTypes.contains(.gyroscope) { sensors.insert(.gyroscope) }
            if d.channelTypes.contains(.accelerometer) { sensors.insert(.accelerometer) }
            if d.channelTypes.contains(.magnetometer) { sensors.insert(.magnetometer) }
        }
        self.sensors = sensors
    }

    public func next() throws -> SensorSample? {
        if let maximumSamples, count >= maximumSamples { return nil }
        sleep(until: start + .wait(seconds: Double(count) / rate))
        count += 1
        func read(_ type: IIOChannelType) throws -> SIMD3<Double>? {
            guard let device = devices.first(where: { $0.channelTypes.contains(type) }) else { return nil }
            return try device.read(type)
        }
        return SensorSample(
            timestamp: (ContinuousClock.now - start).inSeconds, gyroscope: try read(.gyroscope), accelerometer: try read(.accelerometer),
            magnetometer: try read(.magnetometer))
    }
}
