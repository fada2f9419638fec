import Foundation
import Testing

@testable import MotionFusion

/// The motion manager over each source, the recorder, and Core Motion's reference-attitude recipe.
@Suite("Motion manager, sources and recorder")
struct MotionManagerTests {
    static let degree = Double.pi / 180

    static func gestures() -> IMURecording { MotionScenario.named("gestures")!.generate() }

    @Test func asyncStreamDeliversEverySampleInOrder() async throws {
        let recording = Self.gestures()
        let manager = MotionManager(source: RecordingSource(recording))
        #expect(manager.isDeviceMotionAvailable && manager.isMagnetometerAvailable)
        var timestamps: [Double] = []
        for await motion in manager.deviceMotionUpdates(using: .xMagneticNorthZVertical) {
            timestamps.append(motion.timestamp)
        }
        #expect(timestamps.count == recording.count && timestamps.first == 0, "\(timestamps.count) of \(recording.count)")
        #expect(timestamps == recording.timestamps, "not every sample in order")
        #expect(manager.hasEnded && manager.error == nil && manager.sampleCount == recording.count)
        // Pull: the latest sample stays readable.
        #expect(manager.deviceMotion?.timestamp == recording.timestamps.last)
    }

    @Test func intervalsDecimateAndHandlersRunOnTheirQueue() throws {
        let recording = Self.gestures()
        let source = GatedSource(recording)  // both services start before the first sample
        let manager = MotionManager(source: source)
        manager.accelerometerUpdateInterval = 0.05  // 20 Hz from a 100 Hz source
        manager.gyroUpdateInterval = 0
        let queue = DispatchQueue(label: "test")
        let accelerations = Mutex<[AccelerometerData]>([])
        let gyroCount = Mutex(0)
        manager.startAccelerometerUpdates(to: queue) { data, error in
            if let data { accelerations.withLock { $0.append(data) } }
            #expect(error == nil)
        }
        manager.startGyroUpdates(to: queue) { data, _ in if data != nil { gyroCount.withLock { $0 += 1 } } }
        source.open()
        manager.waitUntilFinished()
        queue.sync {}
        let delivered = accelerations.withLock { $0 }
        #expect(gyroCount.withLock { $0 } == recording.count)
        let expected = Int((recording.timestamps.last! / 0.05).rounded(.down)) + 1
        #expect(abs(delivered.count - expected) <= 1, "\(delivered.count) of \(recording.count), expected \(expected)")
        for (a, b) in zip(delivered, delivered.dropFirst()) { #expect(b.timestamp - a.timestamp >= 0.05 - 1e-9) }
        // Core Motion's accelerometer reading: lying flat, face up, at rest → (0, 0, −1) g.
        let first = try #require(delivered.first)
        #expect(abs(first.acceleration.z + 1) < 0.02 && abs(first.acceleration.x) < 0.02)
    }

    @Test func stoppingFinishesTheStream() async {
        var settings = SyntheticMotion.Settings()
        settings.duration = 600
        // Paced at 5× real time, the source would take two minutes to end by itself.
        let manager = MotionManager(source: RecordingSource(SyntheticMotion.generate(settings), pacing: .realTime(speed: 5)))
        var count = 0
        for await _ in manager.gyroUpdates() {
            count += 1
            if count == 100 { manager.stopGyroUpdates() }
        }
        // The stream ends (after what it had buffered), and the worker stops taking samples.
        #expect(count >= 100 && count < 60_000)
        #expect(!manager.isGyroActive && !manager.hasEnded)
        let taken = manager.sampleCount
        try? await Task.sleep(for: .milliseconds(300))
        #expect(manager.sampleCount <= taken + 1)
    }

    @Test func csvReplayAsFastAsPossibleAndPaced() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mf-replay-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = "t,gx,gy,gz,ax,ay,az\n"
        for k in 0..<200 { text += "\(Double(k) * 0.005),0.01,0,0,0,0,9.81\n" }  // 1 s at 200 Hz
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let fast = try CSVReplaySource(path: path)
        #expect(fast.sensors == [.gyroscope, .accelerometer])
        var n = 0
        while let s = try fast.next() {
            #expect(s.magnetometer == nil && s.gyroscope == SIMD3(0.01, 0, 0))
            n += 1
        }
        #expect(n == 200)
        // Paced at 4× real time: the 0.995 s of timestamps cannot come in less than 0.995 / 4 s.
        let paced = try CSVReplaySource(path: path, pacing: .realTime(speed: 4))
        let start = ContinuousClock.now
        while try paced.next() != nil {}
        #expect(ContinuousClock.now - start >= .milliseconds(240))
        // A malformed line is an error with its line number, through the manager too.
        try (text + "1.0,0.01,oops,0,0,0,9.81\n").write(toFile: path, atomically: true, encoding: .utf8)
        let manager = MotionManager(source: try CSVReplaySource(path: path))
        manager.startGyroUpdates()
        manager.waitUntilFinished()
        #expect(String(describing: manager.error).contains("202"), "\(String(describing: manager.error))")
    }

    @Test func iioSourceReadsTheFakeSysfsTree() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.cleanUp() }
        let device = try IIODevice(path: sysfs.imu)
        let source = IIOSource(devices: [device], rate: 500, maximumSamples: 5)
        #expect(source.sensors == .all && source.rate == 500)
        let manager = MotionManager(source: source)
        let samples = Mutex<[MagnetometerData]>([])
        manager.startMagnetometerUpdates(to: DispatchQueue(label: "iio")) { data, _ in
            if let data { samples.withLock { $0.append(data) } }
        }
        manager.waitUntilFinished()
        Thread.sleep(forTimeInterval: 0.05)
        let got = samples.withLock { $0 }
        #expect(got.count == 5)
        #expect(got.first.map { abs($0.magneticField.x - 20) < 1e-9 } == true, "\(got)")  // 200 × 0.001 gauss
        for (a, b) in zip(got, got.dropFirst()) { #expect(b.timestamp > a.timestamp) }
    }

    @Test func recorderSurvivesACutOffLineAndReadsATimeRange() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mf-rec-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recording = Self.gestures()
        let manager = MotionManager(source: RecordingSource(recording))
        let recorder = try MotionRecorder(path: path)
        manager.startRecording(to: recorder)
        manager.startAccelerometerUpdates()
        manager.waitUntilFinished()
        recorder.sync()
        // A process killed in the middle of a write leaves part of a line.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write("99.0,0.1,0.2".data(using: .utf8)!)
        try handle.close()
        let all = try MotionRecorder.read(path: path)
        #expect(all.count == recording.count)
        #expect(all.last?.timestamp == recording.timestamps.last)
        #expect(all[10].gyroscope == recording.gyroscope[10] && all[10].magnetometer == recording.magnetometer![10])
        let range = try MotionRecorder.read(path: path, from: 10, to: 12)
        #expect(range.count == 201 && range.first?.timestamp == 10)
        // The file replays through the fuse reader as it is (the partial line aside).
        #expect(throws: MotionFusion.RecorderError.self) { try MotionRecorder(path: CSVReaderTests.file("a,b\n1,2\n")) }
    }

    @Test func referenceAttitudeRoundTrip() throws {
        // Core Motion's recipe: keep the attitude at some moment, then multiply later attitudes by its
        // inverse to get the rotation since then.
        let recording = Self.gestures()
        var processor = DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xArbitraryCorrectedZVertical)
        var reference: Attitude<Double>?
        let referenceIndex = 300  // t = 3 s, at rest
        var largest = 0.0
        var sumSquares = 0.0
        var n = 0.0
        for i in 0..<recording.count {
            let m = processor.update(
                timestamp: recording.timestamps[i], gyroscope: recording.gyroscope[i],
                accelerometer: recording.accelerometer[i], magnetometer: recording.magnetometer![i])
            if i == referenceIndex { reference = m.attitude }
            if let reference, i > referenceIndex {
                let relative = m.attitude.multiplied(byInverseOf: reference)
                let truth = recording.truth![referenceIndex].conjugate * recording.truth![i]
                let error = relative.quaternion.angle(to: truth)
                largest = max(largest, error)
                sumSquares += error * error
                n += 1
            }
        }
        // A relative attitude carries the errors of both attitudes: the filter's own is 0.7° RMS on
        // this scenario (3 g shakes included), so about 1° RMS is expected here.
        let rms = (sumSquares / n).squareRoot()
        #expect(rms < 1.5 * Self.degree, "RMS \(rms / Self.degree)°")
        #expect(largest < 3 * Self.degree)
    }

    /// A real kill: `motion record` replays a recording at 10× real time into a file and is killed
    /// with SIGKILL after about a second; the file reads back as a prefix of the input.
    @Test func killedRecorderLosesAtMostThePartialLastLine() throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let binary = folder.appendingPathComponent("motion").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "the motion executable is built next to the tests: \(binary)")
        let dir = FileManager.default.temporaryDirectory
        let input = dir.appendingPathComponent("mf-kill-in-\(UUID()).csv").path
        let output = dir.appendingPathComponent("mf-kill-out-\(UUID()).csv").path
        defer {
            try? FileManager.default.removeItem(atPath: input)
            try? FileManager.default.removeItem(atPath: output)
        }
        let recording = Self.gestures()
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for i in 0..<recording.count {
            let (g, a, m) = (recording.gyroscope[i], recording.accelerometer[i], recording.magnetometer![i])
            text += "\(recording.timestamps[i]),\(g.x),\(g.y),\(g.z),\(a.x),\(a.y),\(a.z),\(m.x),\(m.y),\(m.z)\n"
        }
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["record", "--replay", input, "--real-time", "10", "-o", output]
        try process.run()
        // Kill it once it has written a few hundred lines (waiting up to 60 s on a loaded machine).
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            if size > 30_000 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let back = try MotionRecorder.read(path: output)
        #expect(back.count > 10 && back.count < recording.count, "\(back.count) samples read back")
        for (i, sample) in back.enumerated() {
            #expect(sample.timestamp == recording.timestamps[i] && sample.gyroscope == recording.gyroscope[i])
            if sample.timestamp != recording.timestamps[i] { break }
        }
        // Appending continues the same file, after cutting off a partial last line if there is one.
        let handle = try #require(FileHandle(forWritingAtPath: output))
        handle.seekToEndOfFile()
        handle.write("77.0,0.5".data(using: .utf8)!)
        try handle.close()
        let recorder = try MotionRecorder(path: output)
        recorder.append(SensorSample(timestamp: 1000, gyroscope: .zero, accelerometer: nil, magnetometer: nil))
        let again = try MotionRecorder.read(path: output)
        #expect(again.count == back.count + 1 && again.last?.timestamp == 1000 && again.last?.accelerometer == nil)
    }

    @Test func aStreamAskedForAfterTheEndIsFinishedAtOnce() async {
        var settings = SyntheticMotion.Settings()
        settings.duration = 2
        let manager = MotionManager(source: RecordingSource(SyntheticMotion.generate(settings)))
        manager.startGyroUpdates()
        manager.waitUntilFinished()
        var count = 0
        for await _ in manager.accelerometerUpdates() { count += 1 }  // must not hang
        #expect(count == 0 && manager.hasEnded)
    }

    /// A paced source that records whether two threads ever call `next()` at once.
    final class WatchedSource: MotionSource, @unchecked Sendable {
        // @unchecked Sendable: `inside` and `overlapped` are guarded by `lock`.
        let lock = NSLock()
        var inside = 0
        var overlapped = false
        var k = 0
        var sensors: SensorSet { [.gyroscope, .accelerometer] }
        func next() throws -> SensorSample? {
            lock.lock()
            inside += 1
            if inside > 1 { overlapped = true }
            k += 1
            let t = Double(k) * 0.01
            lock.unlock()
            Thread.sleep(forTimeInterval: 0.002)
            lock.lock()
            inside -= 1
            lock.unlock()
            return k > 400 ? nil : SensorSample(timestamp: t, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: nil)
        }
    }

    @Test func stopThenStartNeverRunsTwoWorkers() {
        let source = WatchedSource()
        let manager = MotionManager(source: source)
        for _ in 0..<50 {
            manager.startGyroUpdates()
            manager.stopGyroUpdates()
        }
        manager.startGyroUpdates()
        manager.waitUntilFinished()
        #expect(!source.lock.withLock { source.overlapped })
    }

    @Test func intervalZeroDeliversSamplesWithBadTimestampsToo() async {
        var recording = SyntheticMotion.generate()
        recording.timestamps[100] = .nan
        recording.timestamps[200] = recording.timestamps[150]  // backward
        let manager = MotionManager(source: RecordingSource(recording))
        var count = 0
        for await _ in manager.gyroUpdates() { count += 1 }
        #expect(count == recording.count)
    }
}

