import ArgumentParser
import Foundation
import MotionFusion

/// `motion record`: raw samples from a source, through the motion manager, into a durable CSV file.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record raw sensor samples (Linux IIO sensors, a replayed CSV or a simulation) to a CSV file.",
        discussion: """
            Exactly one source: --iio (the Linux IIO devices under --iio-root, through their \
            buffers when they have them, else polled through sysfs), --replay FILE (a CSV in the \
            `motion fuse` format) or --simulate SCENARIO. The output is in the `motion fuse` input \
            format (nan for absent sensors), appended line by line, so a killed run loses at most \
            its last line; appending to an existing recording continues it. Details: the DocC \
            article "The motion Command-Line Tool", section "Recording".
            """)

    @Option(name: .shortAndLong, help: "The recording (created, or appended to).")
    var output: String

    @Flag(help: "Record the Linux IIO devices.")
    var iio = false

    @OptionGroup var capture: IIOCaptureOptions

    @Option(help: "IIO polling rate, Hz (default: the devices' sampling frequency, else 100).")
    var rate: Double?

    @Option(help: "Replay this CSV recording.")
    var replay: String?

    @Option(help: "Simulate this scenario: \(MotionScenario.names.joined(separator: ", ")).")
    var simulate: String?

    @Option(help: "Pace a replay or simulation at this multiple of real time (default: as fast as possible).")
    var realTime: Double?

    @Option(help: "Stop after this many seconds of source time.")
    var duration: Double?

    func validate() throws {
        let sources = (iio ? 1 : 0) + (replay == nil ? 0 : 1) + (simulate == nil ? 0 : 1)
        guard sources == 1 else { throw ValidationError("give exactly one of --iio, --replay FILE, --simulate SCENARIO") }
        if let simulate, !MotionScenario.names.contains(simulate) {
            throw ValidationError("unknown scenario '\(simulate)'; choose one of \(MotionScenario.names.joined(separator: ", "))")
        }
        let speeds = ReplayPacing.speeds
        if let realTime, !speeds.contains(realTime) {
            throw ValidationError("--real-time must be in \(speeds.lowerBound) ... \(speeds.upperBound), got \(realTime)")
        }
        if let rate, !IIOSource.rates.contains(rate) {
            throw ValidationError(
                "--rate must be in \(IIOSource.rates.lowerBound) ... \(IIOSource.rates.upperBound) Hz, got \(rate)")
        }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive, got \(duration)") }
    }

    func run() throws {
        let pacing: ReplayPacing = realTime.map { .realTime(speed: $0) } ?? .asFastAsPossible
        let source: any MotionSource
        if iio {
            source = try capture.openSource(rate: rate)
        } else if let replay {
            do { source = try CSVReplaySource(path: replay, pacing: pacing) } catch { throw CommandFailure("\(error)") }
        } else {
            // Computed as recorded: a scenario of ten minutes starts at once for a --duration of one
            // second, and holds one sample, not the whole recording.
            let samples = try MotionScenario.named(simulate!)!.samples().lazy.map {
                SensorSample(
                    timestamp: $0.timestamp, gyroscope: $0.gyroscope, accelerometer: $0.accelerometer,
                    magnetometer: $0.magnetometer)
            }
            source = SampleIteratorSource(samples.makeIterator(), sensors: .all, pacing: pacing)
        }
        if output == "-" {
            throw CommandFailure("-o -: a recording is appended to, truncated and synced, so it must be a file")
        }
        // Appending to the file being replayed would feed the replay its own output without end.
        if let replay, FileIdentity.same(replay, output) {
            throw CommandFailure("\(output) is the file being replayed (--replay \(replay)); record to another file")
        }
        let recorder: MotionRecorder
        do { recorder = try MotionRecorder(path: output) } catch { throw CommandFailure("\(error)") }
        let manager = MotionManager(source: duration.map { LimitedSource(source, duration: $0) } ?? source)
        // A recorder that cannot write ends the run (the file ends on its last whole line).
        manager.startRecording(to: recorder) { [weak manager] _ in manager?.stopGyroUpdates() }
        manager.startGyroUpdates()
        manager.waitUntilFinished()
        IIOCaptureOptions.stop(source)  // buffered devices put back (a --duration run ends them early)
        manager.stopRecording()
        var failure = manager.recordingError
        if failure == nil {
            do throws(RecorderError) { try recorder.sync() } catch { failure = error }
        }
        if let failure { throw CommandFailure("\(failure)") }
        if let error = manager.error { throw CommandFailure(replay == nil ? "source: \(error)" : "\(error)") }
        if let replay, let replaying = source as? CSVReplaySource { warnAboutCut(replaying.partialLastLine, in: replay) }
        var note = ""
        if recorder.timeOffset != 0, let end = recorder.previousEnd {
            note = "; its time continues after its last row (t = \(end) s): timestamps shifted by +\(recorder.timeOffset) s"
        }
        FileHandle.standardError.write("recorded \(manager.sampleCount) samples to \(output)\(note)\n".data(using: .utf8)!)
    }
}
