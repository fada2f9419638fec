import MotionFusionCore
import MotionFusionIO

/// Replays an in-memory ``IMURecording`` — for example one from ``SyntheticMotion`` or
/// ``MotionScenario`` — as a ``MotionSource``.
public final class RecordingSource: MotionSource {
    public let recording: IMURecording
    public let pacing: ReplayPacing
    private var index = 0
    private var pacer: ReplayPacer

    /// A source over `recording`, paced as given: by default in real time, as the sensors took the
    /// samples, so that a handler, a `Timer` reading ``MotionManager/deviceMotion`` or a stream sees
    /// them when a live device would give them. Pass `.asFastAsPossible` to process a recording.
    public init(_ recording: IMURecording, pacing: ReplayPacing = .realTime(speed: 1)) {
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
