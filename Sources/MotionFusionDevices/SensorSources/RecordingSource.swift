import MotionFusionCore
import MotionFusionIO
import Foundation

/// Replays an in-memory ``IMURecording`` — for example one from ``SyntheticMotion`` or
/// ``MotionScenario`` — as a ``MotionSource``.
public final class RecordingSource: MotionSource {
    public let recording: IMURecording
    public let pacing: ReplayPacing
    private var index = 0
    private var pacer: ReplayPacer

    /// A source over `recording`, paced as given.
    public init(_ recording: IMURecording, pacing: ReplayPacing = .asFastAsPossible) {
        self.recording = recording
        self.pacing = pacing
        pacer = ReplayPacer(pacing)
    }

    public var sensors: SensorSet {
        recording.magnetometer == nil ? [.gyroscope, .accelerometer] : .all
    }

    public func next() throws -> SensorSample? {
        guard index < recording.count else { return nil }
        defer { index += 1 }
        let t = recording.timestamps[index]
        pacer.wait(until: t)
        return SensorSample(
            timestamp: t, gyroscope: recording.gyroscope[index], accelerometer: recording.accelerometer[index],
            magnetometer: recording.magnetometer?[index])
    }
}

/// Replays a CSV recording in the `motion fuse` input format as a ``MotionSource``, streaming (the
/// file is read as the samples are taken). A malformed line makes ``next()`` throw the
/// ``CSVError`` with its line and column.
public final class CSVReplaySource: MotionSource {
    private let reader: IMUCSVReader
    /// Once the replay has ended: the file's last line, if it was cut short and so not replayed.
    public var partialLastLine: CSVPartialLine? { reader.csv.partialLastLine }
    private var pacer: ReplayPacer
    public let sensors: SensorSet

    /// A source over the file at `path`, paced as given. The units are ``IMUCSVReader``'s: a nil
    /// unit is the header's, else the library's; one that contradicts the header throws.
    public init(
        path: String, gyroscopeUnit: GyroscopeUnit? = nil, accelerometerUnit: AccelerometerUnit? = nil,
        magnetometerUnit: MagnetometerUnit? = nil, pacing: ReplayPacing = .asFastAsPossible
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

/// Sleeps so that recording time `t` is reached at the right wall-clock moment, by the rules of
/// ``ReplayPacing/realTime(speed:)``.
struct ReplayPacer {
    let speed: Double?
    /// The sample the pacing is measured from, and when it was replayed.
    var origin: (recording: Double, clock: ContinuousClock.Instant)?
    /// The last finite timestamp.
    var last: Double?

    init(_ pacing: ReplayPacing) {
        switch pacing {
        case .asFastAsPossible: speed = nil
        case .realTime(let s):
            speed = s > 0 ? Swift.min(Swift.max(s, ReplayPacing.speeds.lowerBound), ReplayPacing.speeds.upperBound) : nil
        }
    }

    mutating func wait(until t: Double) {
        guard let speed, t.isFinite else { return }
        defer { last = t }
        guard let origin, let last, t >= last, t - last <= ReplayPacing.longestPause else {
            origin = (t, .now)  // the first sample, or a jump: pace from here
            return
        }
        sleep(until: origin.clock + .wait(seconds: (t - origin.recording) / speed))
    }
}
