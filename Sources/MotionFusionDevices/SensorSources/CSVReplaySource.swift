import MotionFusionCore
import MotionFusionIO

/// Replays a CSV recording in the `motion fuse` input format as a ``MotionSource``, streaming (the
/// file is read as the samples are taken). A malformed line makes ``next()`` throw the
/// ``CSVError`` with its line and column.
///
/// A multi-rate recording — rows that leave a sensor's cells empty, or a magnetometer in some rows
/// only, as ``MotionRecorder`` writes readings taken at other times — is replayed as `motion fuse`
/// reads it: its rows through a ``SampleAssembler`` (default rules), one sample per gyroscope
/// reading with the latest readings of the slower sensors and their timestamps. Which kind a
/// file is, is found before the replay by a scan that reads no numbers; a file that cannot be read
/// twice (a pipe) is replayed row by row, and an empty cell then throws.
public final class CSVReplaySource: MotionSource {
    private let reader: IMUCSVReader
    /// The assembler of a multi-rate recording; nil for one row per sample.
    private var assembler: SampleAssembler?
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
        if reader.csv.fileSize != nil {
            // The header was read once already; the scan stops at the first multi-rate row.
            let scan = try IMUCSVReader(
                path: path, gyroscopeUnit: gyroscopeUnit, accelerometerUnit: accelerometerUnit,
                magnetometerUnit: magnetometerUnit, checksUnits: false)
            if try scan.firstMissingReading() != nil { assembler = SampleAssembler() }
        }
    }

    /// True when the file is a multi-rate recording, replayed through a ``SampleAssembler``.
    public var isMultiRate: Bool { assembler != nil }

    public func next() throws -> SensorSample? {
        guard assembler != nil else {
            guard let r = try reader.next() else { return nil }
            pacer.wait(until: r.timestamp)
            return SensorSample(
                timestamp: r.timestamp, gyroscope: r.gyroscope, accelerometer: r.accelerometer, magnetometer: r.magnetometer)
        }
        // In place (through the optional), so that the assembler's buffers are never copied.
        while true {
            if let sample = assembler?.next() {
                pacer.wait(until: sample.timestamp)
                return sample
            }
            if assembler?.isFinished == true { return nil }
            if let row = try reader.nextReadings() {
                assembler?.add(row.sample)
            } else {
                assembler?.finish()
            }
        }
    }
}
