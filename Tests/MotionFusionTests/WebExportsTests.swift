import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionWeb

/// The WebAssembly build's C-style exports (Sources/MotionFusionWeb), called as a page calls them,
/// against the library used directly: `DeviceMotionProcessor` around the default filter,
/// `MotionEventDetector` and `StepDetector` fed the same samples must give the same numbers bit for
/// bit. (`scripts/web` then holds the WebAssembly module to this host build.)
struct WebExportsTests {
    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func exportsEqualTheLibraryOnABroadTrial() throws {
        let recording = try BroadData.recording(BroadData.trials[4])  // fast combined motion
        let handle = try #require(mf_create(2))
        defer { mf_destroy(handle) }
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xMagneticNorthZVertical)
        var detector = MotionEventDetector()
        var steps = StepDetector<Double>()
        var events: [MotionEvent] = []
        let count = Int(mf_output_count())
        var out = [Double](repeating: 0, count: count)
        var event = [Double](repeating: 0, count: 4)
        var eventCount = 0
        for k in 0..<recording.count {
            let g = recording.gyroscope[k], a = recording.accelerometer[k], m = recording.magnetometer![k]
            let n = mf_update(handle, recording.timestamps[k], g.x, g.y, g.z, a.x, a.y, a.z, m.x, m.y, m.z)
            let motion = processor.update(timestamp: recording.timestamps[k], gyroscope: g, accelerometer: a, magnetometer: m)
            events.removeAll()
            detector.update(motion, into: &events)
            steps.update(timestamp: recording.timestamps[k], acceleration: a)
            try #require(Int(n) == events.count, "sample \(k)")
            eventCount += events.count
            mf_output(handle, &out)
            let q = motion.attitude.quaternion, b = processor.stream.filter.gyroscopeBias
            let expected: [Double] = [
                motion.timestamp, q.w, q.x, q.y, q.z, motion.rotationRate.x, motion.rotationRate.y,
                motion.rotationRate.z, motion.gravity.x, motion.gravity.y, motion.gravity.z,
                motion.userAcceleration.x, motion.userAcceleration.y, motion.userAcceleration.z, b.x, b.y, b.z,
                motion.heading, processor.stream.filter.isInitialized ? 1 : 0,
                processor.stream.filter.isRestDetected ? 1 : 0,
                processor.stream.filter.isMagneticDisturbanceDetected ? 1 : 0, steps.isWalking ? 1 : 0,
                Double(steps.stepCount), motion.attitude.roll, motion.attitude.pitch, motion.attitude.yaw,
            ]
            try #require(out.map(\.bitPattern) == expected.map(\.bitPattern), "sample \(k)")
            for (i, e) in events.enumerated() {
                let written = mf_event(handle, Int32(i), &event)
                try #require(written == 1)
                #expect(event[1] == e.timestamp, "sample \(k), event \(i)")
                #expect(event[0] == [1, 2, 3, 4, 5][kindIndex(e)], "sample \(k), event \(i)")
                switch e {
                case .orientationChanged(_, _, let to):
                    #expect(event[2] == Double(DeviceOrientation.allCases.firstIndex(of: to)!), "sample \(k)")
                case .movement(_, let direction, let peak):
                    #expect(event[2] == Double(MovementDirection.allCases.firstIndex(of: direction)!), "sample \(k)")
                    #expect(event[3].bitPattern == peak.bitPattern, "sample \(k)")
                default:
                    #expect(event[2].isNaN && event[3].isNaN, "sample \(k)")
                }
            }
            let beyond = mf_event(handle, Int32(events.count), &event)
            #expect(beyond == 0, "sample \(k)")
        }
        // The trial has shakes and turns: events and steps are exercised, not only the attitude.
        #expect(eventCount > 0)
    }

    @Test func badHandlesAndFramesAreRefused() {
        #expect(mf_create(-1) == nil)
        #expect(mf_create(3) == nil)  // true north needs a declination
        #expect(mf_update(nil, 0, 0, 0, 0, 0, 0, 9.81, 0, 0, 0) == 0)
        let handle = mf_create(0)
        #expect(handle != nil)
        var out = [Double](repeating: 0, count: Int(mf_output_count()))
        mf_output(handle, &out)
        #expect(out.allSatisfy { $0.isNaN })  // nothing before the first sample
        mf_destroy(handle)
        mf_destroy(nil)
    }

    /// Opens `bytes` as the page does (frame 2 unless given).
    func open(_ bytes: [UInt8], name: String, frame: Int32 = 2) -> UnsafeMutableRawPointer? {
        let nameBytes = Array(name.utf8)
        return mf_recording_open(frame, nameBytes, Int32(nameBytes.count), bytes, Int32(bytes.count))
    }

    func message(_ recording: UnsafeMutableRawPointer?) -> String {
        let length = mf_recording_message(recording, nil, 0)
        var buffer = [UInt8](repeating: 0, count: Int(length))
        #expect(mf_recording_message(recording, &buffer, length) == length)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The page's path: the module reads the file's bytes and fuses them as `motion device-motion`
    /// does; every output equals the library's reader and device motion used directly.
    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func aRecordingsBytesGiveTheLibrarysDeviceMotion() throws {
        let path = BroadData.folder.appendingPathComponent(BroadData.trials[4] + ".csv").path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let recording = try #require(open(bytes, name: "trial.csv"))
        defer { mf_recording_destroy(recording) }
        let session = try #require(mf_recording_session(recording))
        let reader = try RecordingReader(.file(path))
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xMagneticNorthZVertical)
        var out = [Double](repeating: 0, count: Int(mf_output_count()))
        var samples = 0
        while let sample = try reader.next() {
            let w = try #require(sample.gyroscope), a = try #require(sample.accelerometer)
            let motion = processor.update(timestamp: sample.timestamp, gyroscope: w, accelerometer: a, magnetometer: sample.magnetometer)
            try #require(mf_recording_next(recording) == 1, "sample \(samples)")
            mf_output(session, &out)
            let q = motion.attitude.quaternion
            try #require([out[0], out[1], out[2], out[3], out[4], out[8], out[9], out[10]].map(\.bitPattern)
                == [motion.timestamp, q.w, q.x, q.y, q.z, motion.gravity.x, motion.gravity.y, motion.gravity.z].map(\.bitPattern),
                "sample \(samples)")
            samples += 1
        }
        #expect(samples > 10_000)
        #expect(mf_recording_next(recording) == 0)
        #expect(message(recording) == "")
    }

    /// Each sample as read (`mf_recording_sample`) fed to a session of its own through `mf_update`
    /// (the page's live path) gives the recording session's outputs and events bit for bit.
    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func samplesAsReadGiveTheSameOutputsThroughUpdate() throws {
        let path = BroadData.folder.appendingPathComponent(BroadData.trials[4] + ".csv").path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let recording = try #require(open(bytes, name: "trial.csv"))
        defer { mf_recording_destroy(recording) }
        let session = try #require(mf_recording_session(recording)), own = try #require(mf_create(2))
        defer { mf_destroy(own) }
        let count = Int(mf_output_count())
        var out = [Double](repeating: 0, count: count), ownOut = out, sample = [Double](repeating: 0, count: 10)
        var first = [Double](repeating: 0, count: 10)
        var samples = 0, events = 0
        while mf_recording_next(recording) == 1 {
            mf_recording_sample(recording, &sample)
            if samples == 0 { first = sample }
            let n = mf_update(own, sample[0], sample[1], sample[2], sample[3], sample[4], sample[5], sample[6], sample[7], sample[8], sample[9])
            mf_output(session, &out)
            mf_output(own, &ownOut)
            try #require(out.map(\.bitPattern) == ownOut.map(\.bitPattern), "sample \(samples)")
            try #require(n == mf_event_count(session), "sample \(samples)")
            events += Int(n)
            samples += 1
        }
        #expect(samples > 10_000 && events > 0)
        // The first sample is the file's first row, as read by the library's reader.
        let reader = try RecordingReader(.file(path))
        let row = try #require(try reader.next())
        let g = try #require(row.gyroscope), a = try #require(row.accelerometer), m = try #require(row.magnetometer)
        #expect(first == [row.timestamp, g.x, g.y, g.z, a.x, a.y, a.z, m.x, m.y, m.z])
    }

    /// One file per sensor through `mf_recording_open_sensors` gives the outputs of the same
    /// readings in one file (the reader's equivalence), and a bad file is named.
    @Test func sensorFilesGiveTheOneFilesOutputs() throws {
        let one = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n" + (0..<400).map { k in
            let t = Double(k) * 0.01
            return "\(t),\(0.3 * sin(t)),0.1,\(-0.2 * cos(2 * t)),\(0.5 * sin(3 * t)),0.2,9.8,\(20 + sin(t)),\(cos(t)),-40"
        }.joined(separator: "\n") + "\n"
        let lines = one.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        func file(_ columns: [Int]) -> [UInt8] {
            Array(("t,x,y,z\n" + lines.map { row in ([0] + columns).map { row[$0] }.joined(separator: ",") }.joined(separator: "\n") + "\n").utf8)
        }
        let (g, a, m) = (file([1, 2, 3]), file([4, 5, 6]), file([7, 8, 9]))
        let single = try #require(open(Array(one.utf8), name: "one.csv"))
        let split = try #require(
            mf_recording_open_sensors(2, Array("g.csv".utf8), 5, g, Int32(g.count), Array("a.csv".utf8), 5, a, Int32(a.count),
                                      Array("m.csv".utf8), 5, m, Int32(m.count)))
        defer {
            mf_recording_destroy(single)
            mf_recording_destroy(split)
        }
        var x = [Double](repeating: 0, count: Int(mf_output_count())), y = x
        var samples = 0
        while mf_recording_next(single) == 1 {
            try #require(mf_recording_next(split) == 1, "sample \(samples)")
            mf_output(mf_recording_session(single), &x)
            mf_output(mf_recording_session(split), &y)
            try #require(x.map(\.bitPattern) == y.map(\.bitPattern), "sample \(samples)")
            samples += 1
        }
        #expect(samples == 400)
        #expect(mf_recording_next(split) == 0)

        let badAccelerometer = Array("t,x,y\n0,0,0\n".utf8)
        let bad = try #require(
            mf_recording_open_sensors(0, Array("g.csv".utf8), 5, g, Int32(g.count), Array("acc.csv".utf8), 7, badAccelerometer,
                                      Int32(badAccelerometer.count), nil, 0, nil, 0))
        #expect(mf_recording_next(bad) == -1)
        #expect(message(bad).hasPrefix("Error: acc.csv: line 1: "))
        mf_recording_destroy(bad)
    }

    /// The magnetometer's columns are read in every frame, as `motion device-motion` reads them: a
    /// bad `mx` cell is refused even where the frame ignores the magnetometer.
    @Test func theMagnetometersColumnsAreReadInEveryFrame() throws {
        let text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n0,0,0,0,0,0,9.81,20,0,-40\n0.01,0,0,0,0,0,9.81,abc,0,-40\n"
        for frame: Int32 in [0, 1, 2] {
            let recording = try #require(open(Array(text.utf8), name: "m.csv", frame: frame))
            #expect(mf_recording_next(recording) == 1)
            #expect(mf_recording_next(recording) == -1)
            #expect(message(recording) == "Error: m.csv: line 3, column 8 (mx): 'abc' is not a number", "frame \(frame)")
            mf_recording_destroy(recording)
        }
    }

    /// A bad file gets the CLI's words (`Error: ` and the reader's error, as `motion` prints it);
    /// a recording without a usable accelerometer reading the commands' refusal; warnings at the end.
    @Test func badRecordingsGetTheCLIsWords() throws {
        let malformed = "t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.81\n0.01,abc,0,0,0,0,9.81\n"
        let recording = try #require(open(Array(malformed.utf8), name: "bad.csv"))
        #expect(mf_recording_next(recording) == 1)  // line 2
        #expect(mf_recording_next(recording) == -1)
        #expect(message(recording) == "Error: bad.csv: line 3, column 2 (gx): 'abc' is not a number")
        #expect(mf_recording_next(recording) == -1)  // and stays so
        mf_recording_destroy(recording)

        let flat = "t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,0\n0.01,0,0,0,0,0,0\n"
        let noGravity = try #require(open(Array(flat.utf8), name: "flat.csv"))
        #expect(mf_recording_next(noGravity) == -1)
        #expect(message(noGravity).hasPrefix("Error: flat.csv: no accelerometer reading in the recording that a sample could use"))
        mf_recording_destroy(noGravity)

        let cut = "t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.81\n0.01,0,0,0,0,0,9.8"
        let cutShort = try #require(open(Array(cut.utf8), name: "cut.csv", frame: 0))
        #expect(mf_recording_next(cutShort) == 1)
        #expect(mf_recording_next(cutShort) == 0)
        #expect(message(cutShort) == "warning: cut.csv: line 3 has no newline (18 bytes, cut short?): it was not read\n")
        mf_recording_destroy(cutShort)

        #expect(open([], name: "x.csv", frame: 3) == nil)  // true north needs a declination
        let empty = try #require(open([], name: "empty.csv"))
        #expect(mf_recording_next(empty) == -1)
        #expect(message(empty) == "Error: empty.csv: line 1: the file is empty (no header)")
        mf_recording_destroy(empty)
        #expect(mf_recording_next(nil) == 0)
        mf_recording_destroy(nil)
    }

    func kindIndex(_ e: MotionEvent) -> Int {
        switch e {
        case .shakeBegan: 0
        case .shakeEnded: 1
        case .shakeCancelled: 2
        case .orientationChanged: 3
        case .movement: 4
        }
    }
}
