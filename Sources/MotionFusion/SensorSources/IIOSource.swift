import Foundation

/// Polls Linux IIO devices (``IIODevice``) as a ``MotionSource``: every period it reads each channel
/// type the devices have (the first device that has a type supplies it) and stamps the sample with
/// the seconds since the source started (a monotonic clock).
///
/// The period is `1 / rate`, with `rate` the one given, else the lowest sampling frequency the devices
/// report, else 100 Hz. A read error is thrown from ``next()`` (the device stays usable; the
/// manager reports it and stops). `maximumSamples` ends the source after that many samples (nil:
/// never).
public final class IIOSource: MotionSource {
    public let devices: [IIODevice]
    public let rate: Double
    public let maximumSamples: Int?
    public let sensors: SensorSet
    private let start = ContinuousClock.now
    private var count = 0

    /// A source over `devices`; `rate` in Hz (see the type's description).
    public init(devices: [IIODevice], rate: Double? = nil, maximumSamples: Int? = nil) {
        self.devices = devices
        let reported = devices.compactMap(\.samplingFrequency).min()
        self.rate = rate.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? reported ?? 100
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
        sleep(until: start + .seconds(Double(count) / rate))
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
