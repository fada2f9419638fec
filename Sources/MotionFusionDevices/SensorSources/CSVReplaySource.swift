import MotionFusionCore
import MotionFusionIO

/// Replays a recording as a ``MotionSource``, streaming (the file is read as the samples are
/// taken): its samples as ``RecordingReader`` makes them — those `motion fuse` fuses, one per
/// gyroscope reading with the latest readings of the slower sensors and their timestamps —
/// whatever the layout: single-rate or multi-rate rows (empty or `nan` cells, as
/// ``MotionRecorder`` writes readings taken at other times), one file per sensor, gzip, standard
/// input. A malformed line makes ``next()`` throw the ``RecordingFileError`` with its file, line
/// and column.
public final class CSVReplaySource: MotionSource {
    private let reader: RecordingReader
    /// Once the replay has ended: the file's last line, if it was cut short and so not replayed.
    public var partialLastLine: CSVPartialLine? { reader.partialLastLines.first?.line }
    private var pacer: ReplayPacer
    public let sensors: SensorSet

    /// A source over the recording at `path`, paced as given: by default in real time, as the
    /// sensors took the samples (pass `.asFastAsPossible` to process the file). The units are
    /// ``RecordingReader``'s: a nil unit is the header's, else the library's; one that contradicts
    /// the header throws, and so do data that contradict their units.
    public convenience init(
        path: String, gyroscopeUnit: GyroscopeUnit? = nil, accelerometerUnit: AccelerometerUnit? = nil,
        magnetometerUnit: MagnetometerUnit? = nil, pacing: ReplayPacing = .realTime(speed: 1)
    ) throws(RecordingFileError) {
        try self.init(
            .file(path),
            units: RecordingReader.GivenUnits(
                gyroscope: gyroscopeUnit, accelerometer: accelerometerUnit, magnetometer: magnetometerUnit),
            pacing: pacing)
    }

    /// A source over a recording in any layout ``RecordingReader`` reads, paced as given.
    public init(
        _ input: RecordingReader.Input, units: RecordingReader.GivenUnits = RecordingReader.GivenUnits(),
        checksUnits: Bool = true, pacing: ReplayPacing = .realTime(speed: 1)
    ) throws(RecordingFileError) {
        reader = try RecordingReader(input, units: units, checksUnits: checksUnits)
        sensors = reader.sensors
        pacer = ReplayPacer(pacing)
    }

    public func next() throws -> SensorSample? {
        guard let sample = try reader.next() else { return nil }
        pacer.wait(until: sample.timestamp)
        return sample
    }
}
