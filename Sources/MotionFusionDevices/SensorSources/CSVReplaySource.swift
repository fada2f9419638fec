import MotionFusionCore
import MotionFusionIO
import Foundation

/// Replays a CSV recording in the `motion fuse` input format as a ``MotionSource``, streaming (the
/// file is read as the samples are taken). A malformed line makes ``next()`` throw the
/// ``CSVError`` with its line and column.
public final class CSVReplaySource: MotionSource {
    private let reader: IMUCSVReader
    /// Once the replay has ended: the file's last line, if it was cut short and so not replayed.
    public var partialLastLine: CSVPartialLine? { reader.csv.partialLastLine }
    private var pacer: ReplayPacer
    public let sensors: SensorSet

    /// A source over the file at `path`, paced as given: by default in real time, as the sensors
    /// took the samples (pass `.asFastAsPossible` to process the file). The units are
    /// ``IMUCSVReader``'s: a nil unit is the header's, else the library's; one that contradicts the
    /// header throws.
    public init(
        path: String, gyroscopeUnit: GyroscopeUnit? = nil, accelerometerUnit: AccelerometerUnit? = nil,
        magnetometerUnit: MagnetometerUnit? = nil, pacing: ReplayPacing = .realTime(speed: 1)
    ) throws(CSVError) {
        reader = try IMUCSVReader(
            path: path, gyroscopeUnit: gyroscopeUnit, accelerometerUnit: accelerometerUnit,
            magnetometerUnit: magnetometerUnit)
        sensors = reader.hasMagnetometer ? .all : [.gyroscope, .accelerometer]
        pacer = ReplayPacer(pacing)
    }

    public func next() throws -> SensorSample? {
        guard let r = try reader.next() else { return nil }
        pacer.wait(until: r.timestamp)
        return SensorSample(
            timestamp: r.timestamp, gyroscope: r.gyroscope, accelerometer: r.accelerometer, magnetometer: r.magnetometer)
    }
}
