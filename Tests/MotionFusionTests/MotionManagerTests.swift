import Foundation
import MotionFusionTestSupport
import Testing
import XCTest

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The motion manager over each source, the recorder, and Core Motion's reference-attitude recipe.
@Suite("Motion manager, sources and recorder")
struct MotionManagerTests {
    static let degree = Double.pi / 180

    static func gestures() -> IMURecording { try! MotionScenario.named("gestures")!.generate() }

    @Test func asyncStreamDeliversEverySampleInOrder() async throws {
        let recording = Self.gestures()
        let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
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
        let accelerations = Lock<[AccelerometerData]>([])
        let gyroCount = Lock(0)
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

    @Test func stoppingFinishesTheStream() async throws {
        // Ten minutes at 100 Hz, paced in real time: the source would take ten minutes to end by
        // itself, a margin for a consumer that other tests keep off the cooperative threads for a
        // while (at 5× real time, two minutes of that let the worker deliver everything before the
        // stop). A still device: what the samples say does not matter here, and simulating ten
        // minutes of motion took seconds in a debug build (and under the thread sanitizer).
        var recording = IMURecording()
        recording.timestamps = (0..<60_000).map { Double($0) * 0.01 }
        recording.gyroscope = Array(repeating: SIMD3(0.01, -0.02, 0.03), count: 60_000)
        recording.accelerometer = Array(repeating: SIMD3(0, 0, 9.81), count: 60_000)
        let manager = MotionManager(source: RecordingSource(recording, pacing: .realTime(speed: 1)))
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

    /// A scenario streamed through SampleIteratorSource gives RecordingSource's samples of the
    /// generated recording, exactly, then ends; paced, it takes the recording's time.
    @Test func iteratorSourceStreamsWhatTheRecordingHolds() throws {
        var scenario = try #require(MotionScenario.named("gestures", seed: 2))
        scenario.settings.sampleRate = 50
        let stream = { (pacing: ReplayPacing) in
            SampleIteratorSource(
                try scenario.samples().lazy.map {
                    SensorSample(
                        timestamp: $0.timestamp, gyroscope: $0.gyroscope, accelerometer: $0.accelerometer,
                        magnetometer: $0.magnetometer)
                }.makeIterator(), sensors: .all, pacing: pacing)
        }
        let streamed = try stream(.asFastAsPossible)
        let replayed = RecordingSource(try scenario.generate(), pacing: .asFastAsPossible)
        #expect(streamed.sensors == replayed.sensors)
        var count = 0
        while let sample = try replayed.next() {
            let other = try streamed.next()
            #expect(other == sample, "sample \(count)")
            if other != sample { break }
            count += 1
        }
        #expect(count == scenario.sampleCount && count > 1000)
        #expect(try streamed.next() == nil && streamed.next() == nil)
        // Paced at 40× real time: the first 0.5 s of timestamps cannot come in less than 12.5 ms.
        let paced = try stream(.realTime(speed: 40))
        let start = ContinuousClock.now
        while let sample = try paced.next(), sample.timestamp < 0.5 {}
        #expect(ContinuousClock.now - start >= .milliseconds(12))
    }

    @Test func csvReplayAsFastAsPossibleAndPaced() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mf-replay-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = "t,gx,gy,gz,ax,ay,az\n"
        for k in 0..<200 { text += "\(Double(k) * 0.005),0.01,0,0,0,0,9.81\n" }  // 1 s at 200 Hz
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let fast = try CSVReplaySource(path: path, pacing: .asFastAsPossible)
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
        let manager = MotionManager(source: try CSVReplaySource(path: path, pacing: .asFastAsPossible))
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
        let samples = Lock<[MagnetometerData]>([])
        let queue = DispatchQueue(label: "iio")
        manager.startMagnetometerUpdates(to: queue) { data, _ in
            if let data { samples.withLock { $0.append(data) } }
        }
        manager.waitUntilFinished()
        queue.sync {}  // the handlers posted before the end have run (a pause could be too short under load)
        let got = samples.withLock { $0 }
        #expect(got.count == 5)
        #expect(got.first.map { abs($0.magneticField.x - 20) < 1e-9 } == true, "\(got)")  // 200 × 0.001 gauss
        for (a, b) in zip(got, got.dropFirst()) { #expect(b.timestamp > a.timestamp) }
    }

    @Test func recorderSurvivesACutOffLineAndReadsATimeRange() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mf-rec-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recording = Self.gestures()
        let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        let recorder = try MotionRecorder(path: path)
        manager.startRecording(to: recorder)
        manager.startAccelerometerUpdates()
        manager.waitUntilFinished()
        try recorder.sync()
        // A process killed in the middle of a write leaves part of a line.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write("99.0,0.1,0.2".data(using: .utf8)!)
        try handle.close()
        let all = try MotionRecorder.read(path: path)
        #expect(all.count == recording.count)
        #expect(all.partialLastLine == CSVPartialLine(line: recording.count + 2, byteCount: 12))  // reported
        #expect(all.last?.timestamp == recording.timestamps.last)
        #expect(all[10].gyroscope == recording.gyroscope[10] && all[10].magnetometer == recording.magnetometer![10])
        let range = try MotionRecorder.read(path: path, from: 10, to: 12)
        #expect(range.count == 201 && range.first?.timestamp == 10)
        // The file replays through the fuse reader as it is (the partial line aside).
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("mf-other-\(UUID()).csv").path
        #expect(FileManager.default.createFile(atPath: other, contents: Data("a,b\n1,2\n".utf8)))
        defer { try? FileManager.default.removeItem(atPath: other) }
        #expect(throws: MotionFusion.RecorderError.self) { try MotionRecorder(path: other) }
    }

    @Test func referenceAttitudeRoundTrip() throws {
        // Core Motion's recipe: keep the attitude at some moment, then multiply later attitudes by its
        // inverse to get the rotation since then.
        let recording = Self.gestures()
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xArbitraryCorrectedZVertical)
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

    /// A real kill: `motion record` replays a recording at 2× real time into a file and is killed
    /// with SIGKILL once a few hundred lines are written; the file reads back as a prefix of the
    /// input. (At 10× a test thread held off the CPU for a few seconds let the whole recording
    /// pass before the kill.)
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
        process.standardInput = FileHandle.nullDevice  // never the test runner's (a terminal would stop it)
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["record", "--replay", input, "--real-time", "2", "-o", output]
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
        try recorder.append(SensorSample(timestamp: 1000, gyroscope: .zero, accelerometer: nil, magnetometer: nil))
        let again = try MotionRecorder.read(path: output)
        #expect(again.count == back.count + 1 && again.last?.timestamp == 1000 && again.last?.accelerometer == nil)
    }

    @Test func aStreamAskedForAfterTheEndIsFinishedAtOnce() async throws {
        var settings = SyntheticMotion.Settings()
        settings.duration = 2
        let manager = MotionManager(source: RecordingSource(try SyntheticMotion.generate(settings), pacing: .asFastAsPossible))
        manager.startGyroUpdates()
        manager.waitUntilFinished()
        var count = 0
        for await _ in manager.accelerometerUpdates() { count += 1 }  // must not hang
        #expect(count == 0 && manager.hasEnded)
    }

    /// A paced source that records whether two threads ever call `next()` at once.
    final class WatchedSource: MotionSource, Sendable {
        private struct Calls {
            var inside = 0
            var overlapped = false
            var k = 0
        }
        private let calls = Lock(Calls())
        var overlapped: Bool { calls.withLock { $0.overlapped } }
        var sensors: SensorSet { [.gyroscope, .accelerometer] }
        func next() throws -> SensorSample? {
            let k = calls.withLock { calls in
                calls.inside += 1
                if calls.inside > 1 { calls.overlapped = true }
                calls.k += 1
                return calls.k
            }
            let t = Double(k) * 0.01
            Thread.sleep(forTimeInterval: 0.002)
            calls.withLock { $0.inside -= 1 }
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
        #expect(!source.overlapped)
    }

    // MARK: Core Motion's queues: OperationQueue, and .main

    @Test func operationQueueHandlersDeliverEverySampleOfEveryService() throws {
        let recording = Self.gestures()
        let source = GatedSource(recording)
        let manager = MotionManager(source: source)
        let queue = OperationQueue()  // concurrent, as Core Motion code usually passes
        let counts = Lock([0, 0, 0, 0])
        let errors = Lock(0)
        @Sendable func count(_ k: Int, _ delivered: Bool, _ error: (any Error)?) {
            if delivered { counts.withLock { $0[k] += 1 } }
            if error != nil { errors.withLock { $0 += 1 } }
        }
        manager.startAccelerometerUpdates(to: queue) { data, error in count(0, data != nil, error) }
        manager.startGyroUpdates(to: queue) { data, error in count(1, data != nil, error) }
        manager.startMagnetometerUpdates(to: queue) { data, error in count(2, data != nil, error) }
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: queue) { motion, error in
            count(3, motion.map { $0.heading >= 0 && $0.heading < 360 } ?? false, error)
        }
        source.open()
        manager.waitUntilFinished()
        queue.waitUntilAllOperationsAreFinished()
        #expect(counts.withLock { $0 } == Array(repeating: recording.count, count: 4))
        #expect(errors.withLock { $0 } == 0 && manager.error == nil)
        // A serial OperationQueue keeps the samples in order.
        let serial = OperationQueue()
        serial.maxConcurrentOperationCount = 1
        let again = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        let timestamps = Lock<[Double]>([])
        again.startDeviceMotionUpdates(to: serial) { motion, _ in
            if let motion { timestamps.withLock { $0.append(motion.timestamp) } }
        }
        again.waitUntilFinished()
        serial.waitUntilAllOperationsAreFinished()
        #expect(timestamps.withLock { $0 } == recording.timestamps)
    }

    /// A handler on `.main` (OperationQueue.main) and one on DispatchQueue.main, with the test
    /// blocking the main queue in waitUntilFinished(): every sample arrives, on the main queue, by the
    /// time it returns. (Under `swift test` on Linux the main queue — and a @MainActor test — runs on
    /// a pool thread, because the async test runner called dispatchMain(); the XCTest case
    /// `MotionManagerMainThreadTests` covers the real main thread.) Before waitUntilFinished() knew
    /// the main queue, no handler had run when it returned: both counts were 0.
    @MainActor @Test func mainQueueHandlersRunInsideWaitUntilFinished() {
        #expect(MainQueue.isCurrent, "a @MainActor test runs on the main queue")
        let recording = Self.gestures()
        let source = GatedSource(recording)
        let manager = MotionManager(source: source)
        let motionTimestamps = Lock<[Double]>([])
        let accelerometerTimestamps = Lock<[Double]>([])
        let offMain = Lock(0)
        let testThreadIsMain = Thread.isMainThread
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: .main) { motion, _ in
            if !MainQueue.isCurrent || Thread.isMainThread != testThreadIsMain { offMain.withLock { $0 += 1 } }
            if let motion { motionTimestamps.withLock { $0.append(motion.timestamp) } }
        }
        manager.startAccelerometerUpdates(to: DispatchQueue.main) { data, _ in
            if !MainQueue.isCurrent { offMain.withLock { $0 += 1 } }
            if let data { accelerometerTimestamps.withLock { $0.append(data.timestamp) } }
        }
        source.open()
        manager.waitUntilFinished()
        let motions = motionTimestamps.withLock { $0 }
        #expect(motions == recording.timestamps, "\(motions.count) of \(recording.count) on OperationQueue.main")
        let accelerations = accelerometerTimestamps.withLock { $0 }
        #expect(accelerations == recording.timestamps, "\(accelerations.count) of \(recording.count) on DispatchQueue.main")
        #expect(offMain.withLock { $0 } == 0)
    }

    // MARK: Reference frames, true north and declination

    static func headings(_ manager: MotionManager, _ frame: AttitudeReferenceFrame, _ declination: MagneticDeclination?) async -> [Double] {
        var headings: [Double] = []
        for await motion in manager.deviceMotionUpdates(using: frame, declination: declination) { headings.append(motion.heading) }
        return headings
    }

    /// The angle from `a` to `b` in degrees, in (−180, 180].
    static func headingDifference(_ a: Double, _ b: Double) -> Double {
        var d = (b - a).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 }
        if d <= -180 { d += 360 }
        return d
    }

    @Test func trueNorthWithoutADeclinationIsAnErrorForHandlersAndPull() throws {
        let recording = Self.gestures()
        // A handler: called once, with the error and no sample; device motion stays inactive.
        let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        let queue = DispatchQueue(label: "true north")
        let calls = Lock<[(Bool, MotionManagerError?)]>([])
        manager.startDeviceMotionUpdates(using: .xTrueNorthZVertical, to: queue) { motion, error in
            calls.withLock { $0.append((motion != nil, error as? MotionManagerError)) }
        }
        queue.sync {}
        let received = calls.withLock { $0 }
        #expect(received.count == 1 && received.first?.0 == false && received.first?.1 == .trueNorthNotAvailable)
        #expect(manager.error as? MotionManagerError == .trueNorthNotAvailable)
        #expect(!manager.isDeviceMotionActive && manager.deviceMotion == nil)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(manager.sampleCount == 0, "no worker ran")
        // On an OperationQueue, and without a handler.
        let operationQueue = OperationQueue()
        let operationError = Lock<MotionManagerError?>(nil)
        let other = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        other.startDeviceMotionUpdates(using: .xTrueNorthZVertical, to: operationQueue) { _, error in
            operationError.withLock { $0 = error as? MotionManagerError }
        }
        operationQueue.waitUntilAllOperationsAreFinished()
        #expect(operationError.withLock { $0 } == .trueNorthNotAvailable)
        let pull = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        pull.startDeviceMotionUpdates(using: .xTrueNorthZVertical)
        #expect(pull.error as? MotionManagerError == .trueNorthNotAvailable && !pull.isDeviceMotionActive)
        // The error says what is missing.
        let error: any Error = MotionManagerError.trueNorthNotAvailable
        #expect(error.localizedDescription.contains("declination or a location"))
    }

    @Test func trueNorthWithoutADeclinationFinishesTheStreamAtOnce() async {
        let recording = Self.gestures()
        let streamed = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        var count = 0
        for await _ in streamed.deviceMotionUpdates(using: .xTrueNorthZVertical) { count += 1 }
        #expect(count == 0 && streamed.error as? MotionManagerError == .trueNorthNotAvailable)
        #expect(!streamed.isDeviceMotionActive && streamed.sampleCount == 0)
    }

    @Test func trueNorthTurnsHeadingsByTheDeclinationInDegrees() async throws {
        let recording = Self.gestures()
        let magnetic = await Self.headings(MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible)), .xMagneticNorthZVertical, nil)
        #expect(magnetic.count == recording.count)
        // Degrees, east positive: a compass heading plus the declination is the true heading.
        let east = await Self.headings(MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible)), .xTrueNorthZVertical, .degrees(10))
        #expect(east.count == recording.count)
        for (m, t) in zip(magnetic, east) { #expect(abs(Self.headingDifference(m, t) - 10) < 1e-6, "\(m) → \(t)") }
        // From a location and date: WMM2025's declination there (Paris, about +1.3°).
        let date = try #require(Calendar(identifier: .gregorian).date(
            from: DateComponents(timeZone: TimeZone(identifier: "UTC"), year: 2026, month: 7, day: 2)))
        let expected = try WorldMagneticModel.wmm2025.field(
            latitude: 48.85, longitude: 2.35, heightKilometers: 0.1,
            decimalYear: WorldMagneticModel.decimalYear(year: 2026, month: 7, day: 2)
        ).declinationDegrees
        let paris = MagneticDeclination.location(latitude: 48.85, longitude: 2.35, heightKilometers: 0.1, date: date)
        #expect(try paris.degreesEast() == expected)
        let located = await Self.headings(MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible)), .xTrueNorthZVertical, paris)
        for (m, t) in zip(magnetic, located) { #expect(abs(Self.headingDifference(m, t) - expected) < 1e-6) }
        // The manager's declination serves Core Motion-style starts that pass none.
        let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        #expect(!manager.availableAttitudeReferenceFrames().contains(.xTrueNorthZVertical))
        manager.declination = .degrees(10)
        #expect(manager.availableAttitudeReferenceFrames().contains(.xTrueNorthZVertical))
        manager.deviceMotionUpdateInterval = 0
        manager.startDeviceMotionUpdates(using: .xTrueNorthZVertical)
        manager.waitUntilFinished()
        #expect(manager.error == nil && manager.attitudeReferenceFrame == .xTrueNorthZVertical)
        let last = try #require(manager.deviceMotion)
        #expect(abs(Self.headingDifference(magnetic.last!, last.heading) - 10) < 1e-6)
    }

    @Test func declinationsThatCannotBeHadAreErrors() async throws {
        let recording = Self.gestures()
        let late = try #require(Calendar(identifier: .gregorian).date(
            from: DateComponents(timeZone: TimeZone(identifier: "UTC"), year: 2040, month: 1, day: 1)))
        for (declination, expected) in [
            (MagneticDeclination.degrees(.nan), MotionManagerError.declinationNotAvailable(.notFinite(parameter: "degrees"))),
            (.location(latitude: 95, longitude: 0), .declinationNotAvailable(.latitudeOutOfRange(degrees: 95))),
            (.location(latitude: 0, longitude: 0, date: late),
             .declinationNotAvailable(.dateOutOfRange(decimalYear: 2040, valid: 2025...2030))),
        ] {
            let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
            let headings = await Self.headings(manager, .xTrueNorthZVertical, declination)
            #expect(headings.isEmpty && manager.error as? MotionManagerError == expected, "\(declination)")
        }
        // Frames the source cannot serve.
        var sixAxis = recording
        sixAxis.magnetometer = nil
        let manager = MotionManager(source: RecordingSource(sixAxis, pacing: .asFastAsPossible))
        #expect(manager.availableAttitudeReferenceFrames() == [.xArbitraryZVertical])
        for frame in [AttitudeReferenceFrame.xArbitraryCorrectedZVertical, .xMagneticNorthZVertical, .xTrueNorthZVertical] {
            manager.startDeviceMotionUpdates(using: frame, declination: .degrees(1))
            #expect(manager.error as? MotionManagerError == .referenceFrameNotAvailable(frame) && !manager.isDeviceMotionActive)
        }
        manager.startDeviceMotionUpdates(using: .xArbitraryZVertical)
        manager.waitUntilFinished()
        #expect(manager.deviceMotion?.timestamp == recording.timestamps.last)
    }

    @Test func attitudeReferenceFrameAndTheAvailableFrames() async {
        #expect(MotionManager.availableAttitudeReferenceFrames() == Set(AttitudeReferenceFrame.allCases))
        #expect(MotionManager.availableAttitudeReferenceFrames().contains(.xMagneticNorthZVertical))
        let recording = Self.gestures()
        let manager = MotionManager(source: RecordingSource(recording, pacing: .realTime(speed: 20)))
        #expect(manager.attitudeReferenceFrame == .xArbitraryZVertical)  // Core Motion's default
        #expect(manager.availableAttitudeReferenceFrames() == [.xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical])
        manager.showsDeviceMovementDisplay = true
        #expect(manager.showsDeviceMovementDisplay)
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        #expect(manager.attitudeReferenceFrame == .xMagneticNorthZVertical && manager.isDeviceMotionActive)
        // A running service keeps its frame: another frame is an error, and a start without a frame
        // uses it.
        manager.startDeviceMotionUpdates(using: .xArbitraryZVertical)
        #expect(manager.error as? MotionManagerError == .deviceMotionRunning(.xMagneticNorthZVertical))
        #expect(manager.attitudeReferenceFrame == .xMagneticNorthZVertical && manager.isDeviceMotionActive)
        manager.stopDeviceMotionUpdates()
        #expect(manager.attitudeReferenceFrame == .xMagneticNorthZVertical && !manager.isDeviceMotionActive)
        var headings: [Double] = []
        for await motion in manager.deviceMotionUpdates() {
            headings.append(motion.heading)
            if headings.count == 50 { manager.stopDeviceMotionUpdates() }
        }
        #expect(headings.count >= 50 && headings.allSatisfy { $0 >= 0 && $0 < 360 }, "north-referenced headings")
        #expect(MotionManager(source: WatchedSource()).availableAttitudeReferenceFrames() == [.xArbitraryZVertical])
    }

    /// A device-motion start that differs from the running request (frame, declination in degrees,
    /// calibration) is an error reported like the other start errors, and the running service goes
    /// on untouched; the same request, or one that names no frame, joins it. Before, the second start
    /// silently kept the running processor: true north 10° east delivered magnetic headings, and a
    /// calibration was dropped, with no error.
    @Test func aDifferentRequestWhileDeviceMotionRunsIsAnError() async throws {
        let recording = Self.gestures()
        let source = GatedSource(recording)  // nothing is delivered before `open()`
        let manager = MotionManager(source: source)
        let magnetic = manager.deviceMotionUpdates(using: .xMagneticNorthZVertical)
        let running = MotionManagerError.deviceMotionRunning(.xMagneticNorthZVertical)
        // Another frame and declination: a stream that finishes at once.
        let trueNorth = manager.deviceMotionUpdates(using: .xTrueNorthZVertical, declination: .degrees(10))
        #expect(manager.error as? MotionManagerError == running)
        #expect(manager.isDeviceMotionActive && manager.attitudeReferenceFrame == .xMagneticNorthZVertical)
        // Another calibration: the handler receives the error once, and replaces no handler.
        let queue = DispatchQueue(label: "requests")
        let refused = Lock<[(Bool, MotionManagerError?)]>([])
        let calibration = SensorCalibration(magnetometer: MagnetometerCalibration(hardIron: SIMD3(8, -5, 3)))
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, calibration: calibration, to: queue) { motion, error in
            refused.withLock { $0.append((motion != nil, error as? MotionManagerError)) }
        }
        #expect(manager.error as? MotionManagerError == running)
        // The same request joins (its handler is the service's handler now), and clears the error.
        let joined = Lock<[Double]>([])
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: queue) { motion, error in
            if let motion { joined.withLock { $0.append(motion.heading) } }
            #expect(error == nil)
        }
        #expect(manager.error == nil)
        // No frame: the running one, whatever `declination` says.
        manager.declination = .degrees(20)
        let unnamed = manager.deviceMotionUpdates()
        #expect(manager.error == nil && manager.attitudeReferenceFrame == .xMagneticNorthZVertical)
        source.open()
        var headings: [Double] = []
        for await motion in magnetic { headings.append(motion.heading) }
        var refusedCount = 0
        for await _ in trueNorth { refusedCount += 1 }
        var unnamedHeadings: [Double] = []
        for await motion in unnamed { unnamedHeadings.append(motion.heading) }
        manager.waitUntilFinished()
        queue.sync {}
        #expect(headings.count == recording.count && refusedCount == 0)
        #expect(unnamedHeadings == headings)
        #expect(joined.withLock { $0 } == headings)
        let calls = refused.withLock { $0 }
        #expect(calls.count == 1 && calls.first?.0 == false && calls.first?.1 == running, "\(calls)")
        // The magnetic headings are the uncalibrated magnetic-north ones.
        let alone = await Self.headings(MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible)), .xMagneticNorthZVertical, nil)
        #expect(headings == alone)
        #expect(running.localizedDescription.contains("stop it"))
    }

    /// True north runs with its declination: another declination is an error; the same one in
    /// degrees, or none, joins it — even with no `declination` on the manager.
    @Test func trueNorthRunningWithADeclinationIsJoinedOnlyAsIs() async throws {
        let recording = Self.gestures()
        let source = GatedSource(recording)
        let manager = MotionManager(source: source)
        let tenEast = manager.deviceMotionUpdates(using: .xTrueNorthZVertical, declination: .degrees(10))
        #expect(manager.error == nil && manager.isDeviceMotionActive)
        manager.startDeviceMotionUpdates(using: .xTrueNorthZVertical, declination: .degrees(11))
        #expect(manager.error as? MotionManagerError == .deviceMotionRunning(.xTrueNorthZVertical))
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        #expect(manager.error as? MotionManagerError == .deviceMotionRunning(.xTrueNorthZVertical))
        let same = manager.deviceMotionUpdates(using: .xTrueNorthZVertical, declination: .degrees(10))
        #expect(manager.error == nil)
        let queue = DispatchQueue(label: "true north")
        let handled = Lock<[Double]>([])
        let errors = Lock(0)
        manager.startDeviceMotionUpdates(to: queue) { motion, error in  // Core Motion's form: no frame
            if let motion { handled.withLock { $0.append(motion.heading) } }
            if error != nil { errors.withLock { $0 += 1 } }
        }
        manager.startDeviceMotionUpdates(using: .xTrueNorthZVertical)  // no declination: the running one
        #expect(manager.error == nil && manager.attitudeReferenceFrame == .xTrueNorthZVertical)
        source.open()
        var headings: [Double] = []
        for await motion in tenEast { headings.append(motion.heading) }
        var joined: [Double] = []
        for await motion in same { joined.append(motion.heading) }
        manager.waitUntilFinished()
        queue.sync {}
        #expect(headings.count == recording.count && joined == headings)
        #expect(handled.withLock { $0 } == headings && errors.withLock { $0 } == 0)
        let magnetic = await Self.headings(MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible)), .xMagneticNorthZVertical, nil)
        for (m, t) in zip(magnetic, headings) { #expect(abs(Self.headingDifference(m, t) - 10) < 1e-6) }
        // Once stopped (here: the source ended), another request starts afresh.
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        #expect(manager.error == nil && manager.attitudeReferenceFrame == .xMagneticNorthZVertical)
    }

    /// `error` holds the last device-motion start's error only until a start succeeds. Before, a
    /// failed true-north request stayed in `error` through a later successful run.
    @Test func aSuccessfulStartClearsTheLastStartError() async throws {
        let recording = Self.gestures()
        let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        manager.startDeviceMotionUpdates(using: .xTrueNorthZVertical)
        #expect(manager.error as? MotionManagerError == .trueNorthNotAvailable)
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        #expect(manager.error == nil)
        manager.waitUntilFinished()
        #expect(manager.error == nil && manager.deviceMotion?.timestamp == recording.timestamps.last)
        // Streams and handlers alike.
        let streamed = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        for await _ in streamed.deviceMotionUpdates(using: .xTrueNorthZVertical, declination: .degrees(.nan)) {}
        #expect(streamed.error as? MotionManagerError == .declinationNotAvailable(.notFinite(parameter: "degrees")))
        var count = 0
        for await _ in streamed.deviceMotionUpdates(using: .xTrueNorthZVertical, declination: .degrees(2)) { count += 1 }
        #expect(count == recording.count && streamed.error == nil)
        let queue = DispatchQueue(label: "cleared")
        let handled = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        handled.startDeviceMotionUpdates(using: .xTrueNorthZVertical, to: queue) { _, _ in }
        #expect(handled.error != nil)
        handled.startDeviceMotionUpdates(using: .xArbitraryZVertical, to: queue) { _, _ in }
        handled.waitUntilFinished()
        #expect(handled.error == nil)
        // A source's error stays: it is not a start's.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mf-error-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.81\n0.01,0,oops,0,0,0,9.81\n".write(toFile: path, atomically: true, encoding: .utf8)
        let failing = MotionManager(source: try CSVReplaySource(path: path, pacing: .asFastAsPossible))
        failing.startDeviceMotionUpdates(using: .xArbitraryZVertical)
        failing.waitUntilFinished()
        #expect(failing.error != nil && !(failing.error is MotionManagerError))
        failing.startDeviceMotionUpdates(using: .xArbitraryZVertical)
        #expect(failing.error != nil && !(failing.error is MotionManagerError))
    }

    @Test func everyDeviceMotionStartTakesTheCalibration() async throws {
        let recording = Self.gestures()
        let calibration = SensorCalibration(magnetometer: MagnetometerCalibration(hardIron: SIMD3(8, -5, 3)))
        var calibrated = try DeviceMotionProcessor<InertialFrameFilter<Double>>(
            referenceFrame: .xMagneticNorthZVertical, calibration: calibration)
        var raw = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xMagneticNorthZVertical)
        var expected: [Quaternion<Double>] = []
        var uncalibrated: [Quaternion<Double>] = []
        for i in 0..<recording.count {
            let (t, g, a, m) = (recording.timestamps[i], recording.gyroscope[i], recording.accelerometer[i], recording.magnetometer![i])
            expected.append(calibrated.update(timestamp: t, gyroscope: g, accelerometer: a, magnetometer: m).attitude.quaternion)
            uncalibrated.append(raw.update(timestamp: t, gyroscope: g, accelerometer: a, magnetometer: m).attitude.quaternion)
        }
        #expect(expected != uncalibrated)
        // The stream.
        var streamed: [Quaternion<Double>] = []
        let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        for await motion in manager.deviceMotionUpdates(using: .xMagneticNorthZVertical, calibration: calibration) {
            streamed.append(motion.attitude.quaternion)
        }
        #expect(streamed == expected)
        // The handlers, on each kind of queue.
        Self.expectCalibratedHandlers(recording, calibration, expected)
    }

    static func expectCalibratedHandlers(
        _ recording: IMURecording, _ calibration: SensorCalibration, _ expected: [Quaternion<Double>]
    ) {
        let dispatchQueue = DispatchQueue(label: "calibrated")
        let handled = Lock<[Quaternion<Double>]>([])
        let viaDispatch = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        viaDispatch.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, calibration: calibration, to: dispatchQueue) { motion, _ in
            if let motion { handled.withLock { $0.append(motion.attitude.quaternion) } }
        }
        viaDispatch.waitUntilFinished()
        dispatchQueue.sync {}
        #expect(handled.withLock { $0 } == expected)
        let operationQueue = OperationQueue()
        operationQueue.maxConcurrentOperationCount = 1
        let operated = Lock<[Quaternion<Double>]>([])
        let viaOperation = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        viaOperation.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, calibration: calibration, to: operationQueue) { motion, _ in
            if let motion { operated.withLock { $0.append(motion.attitude.quaternion) } }
        }
        viaOperation.waitUntilFinished()
        operationQueue.waitUntilAllOperationsAreFinished()
        #expect(operated.withLock { $0 } == expected)
    }

    @Test func intervalZeroDeliversSamplesWithBadTimestampsToo() async {
        var recording = SyntheticMotion.generate()
        recording.timestamps[100] = .nan
        recording.timestamps[200] = recording.timestamps[150]  // backward
        let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        var count = 0
        for await _ in manager.gyroUpdates() { count += 1 }
        #expect(count == recording.count)
    }
}


/// `waitUntilFinished()` on the real main thread, as in a command-line program: XCTest runs its test
/// methods on the main thread, whose run loop nobody else runs. Before waitUntilFinished() ran the
/// main queue, no handler had run when it returned (0 of 2,854 samples).
final class MotionManagerMainThreadTests: XCTestCase {
    func testMainQueueHandlersRunInsideWaitUntilFinishedOnTheMainThread() throws {
        XCTAssertTrue(Thread.isMainThread)
        let recording = try MotionScenario.named("gestures")!.generate()
        let source = GatedSource(recording)
        let manager = MotionManager(source: source)
        let motionTimestamps = Lock<[Double]>([])
        let gyroTimestamps = Lock<[Double]>([])
        let offMainThread = Lock(0)
        manager.startDeviceMotionUpdates(using: .xArbitraryCorrectedZVertical, to: .main) { motion, _ in
            if !Thread.isMainThread { offMainThread.withLock { $0 += 1 } }
            if let motion { motionTimestamps.withLock { $0.append(motion.timestamp) } }
        }
        manager.startGyroUpdates(to: DispatchQueue.main) { data, _ in
            if !Thread.isMainThread { offMainThread.withLock { $0 += 1 } }
            if let data { gyroTimestamps.withLock { $0.append(data.timestamp) } }
        }
        // Other main-queue work runs too: waitUntilFinished() runs the main run loop.
        let other = Lock(false)
        DispatchQueue.main.async { other.withLock { $0 = true } }
        source.open()
        manager.waitUntilFinished()
        XCTAssertEqual(motionTimestamps.withLock { $0 }, recording.timestamps)
        XCTAssertEqual(gyroTimestamps.withLock { $0 }, recording.timestamps)
        XCTAssertEqual(offMainThread.withLock { $0 }, 0)
        XCTAssertTrue(other.withLock { $0 })
    }
}
