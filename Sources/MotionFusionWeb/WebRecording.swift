import MotionFusionCore
import MotionFusionIO

/// A recording dropped on the web page, read and fused by the same code as `motion device-motion`:
/// the file's bytes go through ``RecordingReader`` (the format every command reads, units from the
/// header, checked against the data) and each sample with a gyroscope and an accelerometer reading,
/// from the first accelerometer reading that can stand for gravity (``AccelerometerPresence``),
/// through a ``WebSession``. Errors are the CLI's words: ``message`` holds the reader's
/// ``RecordingFileError`` (file, line, column) or the refusal of a recording without a usable
/// accelerometer, and once the recording is read to its end, its warnings.
final class WebRecording {
    private var reader: RecordingReader?
    /// The session, at an address that stays put (the exports hand it out as a session handle).
    private let session: UnsafeMutablePointer<WebSession>
    private let names: [String]
    private var accelerometer = AccelerometerPresence()
    /// The error, or at the end the warnings (one a line), as the CLI words them; empty when none.
    private(set) var message = ""
    private var finished = false

    /// The last sample fused, as read (for ``writeSample(into:)``).
    private(set) var sample: SensorSample?

    /// Opens `input` — a recording's file, or one file per sensor, in memory — for `session`. Its
    /// magnetometer columns or file are read whatever the session's frame, as `motion
    /// device-motion` reads them (a frame that ignores the magnetometer ignores its readings, not
    /// its errors); an unreadable file leaves ``message`` set.
    init(_ input: RecordingReader.Input, session: WebSession) {
        names = input.paths
        self.session = .allocate(capacity: 1)
        self.session.initialize(to: session)
        do throws(RecordingFileError) {
            reader = try RecordingReader(input)
        } catch {
            message = "Error: " + error.description
            finished = true
        }
    }

    deinit {
        session.deinitialize(count: 1)
        session.deallocate()
    }

    /// The session's address, a handle for `mf_output`, `mf_event` and `mf_event_count`.
    var sessionPointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(session) }

    /// Reads and fuses the next sample: 1 when the session has a new output (``WebSession/write(into:)``,
    /// its events), 0 at the end of the recording, −1 on an error (``message``).
    func next() -> Int32 {
        guard !finished, let reader else { return message.hasPrefix("Error: ") ? -1 : 0 }
        do throws(RecordingFileError) {
            while let sample = try reader.next() {
                accelerometer.see(sample.accelerometer)
                guard let w = sample.gyroscope, let a = sample.accelerometer, accelerometer.seen else { continue }
                _ = session.pointee.update(timestamp: sample.timestamp, gyroscope: w, accelerometer: a, magnetometer: sample.magnetometer)
                self.sample = sample
                return 1
            }
        } catch {
            message = "Error: " + error.description
            finished = true
            return -1
        }
        finished = true
        if let refusal = accelerometer.refusal(names, written: "nothing shown") {
            message = "Error: " + refusal
            return -1
        }
        message = reader.warnings.map { "warning: " + $0 + "\n" }.joined()
        return 0
    }

    /// Writes the last sample fused as it was read: timestamp, gyroscope x, y, z (rad/s),
    /// accelerometer x, y, z (m/s²), magnetometer x, y, z (µT; NaN when the sample has none) — what
    /// `mf_update` takes, so that a caller can feed another session the same samples. NaN before the
    /// first sample.
    func writeSample(into out: UnsafeMutablePointer<Double>) {
        guard let s = sample, let w = s.gyroscope, let a = s.accelerometer else {
            for i in 0..<10 { out[i] = .nan }
            return
        }
        let m = s.magnetometer ?? SIMD3(repeating: .nan)
        out[0] = s.timestamp
        (out[1], out[2], out[3]) = (w.x, w.y, w.z)
        (out[4], out[5], out[6]) = (a.x, a.y, a.z)
        (out[7], out[8], out[9]) = (m.x, m.y, m.z)
    }
}
