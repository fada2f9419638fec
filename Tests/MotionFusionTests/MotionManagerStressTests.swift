import Foundation
import MotionFusionTestSupport
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The motion manager's push and pull paths hammered from many threads at once: services started and
/// stopped, streams opened and abandoned, intervals changed, properties polled, a recorder attached
/// and detached, while two steady consumers must still receive every sample in order.
/// `scripts/tsan` runs this suite under the thread sanitizer (`--sanitize=thread`); CI runs it as a
/// plain test.
@Suite("Motion manager under concurrent use")
struct MotionManagerStressTests {
    @Test func pushAndPullFromManyThreadsLoseNothing() async throws {
        var settings = SyntheticMotion.Settings()
        settings.sampleRate = 1000
        settings.duration = 20  // 20,000 samples
        let recording = try SyntheticMotion.generate(settings)
        let source = GatedSource(recording)
        let manager = MotionManager(source: source)

        // Steady consumers: device motion through a handler, the magnetometer through a stream.
        let motionQueue = DispatchQueue(label: "steady device motion")
        let motionTimestamps = Lock<[Double]>([])
        manager.deviceMotionUpdateInterval = 0
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: motionQueue) { motion, _ in
            if let motion { motionTimestamps.withLock { $0.append(motion.timestamp) } }
        }
        let magnetometerStream = manager.magnetometerUpdates()
        let magnetometerTask = Task {
            var timestamps: [Double] = []
            for await data in magnetometerStream { timestamps.append(data.timestamp) }
            return timestamps
        }

        let done = Lock(false)
        let pulls = Lock(0)
        let abandonedStreams = Lock(0)
        let pulledBackInTime = Lock(false)
        let recorderPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("motionfusion-stress-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: recorderPath) }
        let recorder = try MotionRecorder(path: recorderPath, syncInterval: 0)
        let churnQueue = DispatchQueue(label: "churn handlers", attributes: .concurrent)

        let threads: [@Sendable () -> Void] = [
            {  // start and stop the accelerometer's handler, with changing intervals
                var k = 0
                while !done.withLock({ $0 }) {
                    manager.accelerometerUpdateInterval = [0, 0.001, 0.01, 0.1][k % 4]
                    manager.startAccelerometerUpdates(to: churnQueue) { _, _ in }
                    manager.stopAccelerometerUpdates()
                    k += 1
                }
            },
            {  // open gyroscope streams, read a few samples, abandon them
                while !done.withLock({ $0 }) {
                    let stream = manager.gyroUpdates()
                    let taken = DispatchSemaphore(value: 0)
                    Task {
                        var n = 0
                        for await _ in stream {
                            n += 1
                            if n == 5 { break }  // the stream is cancelled: its termination handler runs
                        }
                        taken.signal()
                    }
                    _ = taken.wait(timeout: .now() + .milliseconds(50))
                    manager.stopGyroUpdates()
                    abandonedStreams.withLock { $0 += 1 }
                }
            },
            {  // poll every property (pull)
                var lastMotion = -Double.infinity
                while !done.withLock({ $0 }) {
                    if let motion = manager.deviceMotion {
                        // Pulled values never go back in time.
                        if motion.timestamp < lastMotion { pulledBackInTime.withLock { $0 = true } }
                        lastMotion = motion.timestamp
                    }
                    _ = manager.accelerometerData
                    _ = manager.gyroData
                    _ = manager.magnetometerData
                    _ = manager.isAccelerometerActive || manager.isGyroActive || manager.isMagnetometerActive
                    _ = manager.sampleCount
                    _ = manager.error
                    pulls.withLock { $0 += 1 }
                }
            },
            {  // attach and detach the recorder
                while !done.withLock({ $0 }) {
                    manager.startRecording(to: recorder)
                    Thread.sleep(forTimeInterval: 0.0005)
                    manager.stopRecording()
                }
            },
        ]
        let finished = DispatchGroup()
        for body in threads {
            finished.enter()
            Thread {
                body()
                finished.leave()
            }.start()
        }
        source.open()
        let magnetometerTimestamps = await magnetometerTask.value  // the source has ended
        manager.waitUntilFinished()
        done.withLock { $0 = true }
        finished.wait()
        motionQueue.sync {}

        #expect(manager.hasEnded && manager.error == nil)
        #expect(manager.sampleCount == recording.count)
        let motionTimes = motionTimestamps.withLock { $0 }
        #expect(motionTimes == recording.timestamps, "device motion: \(motionTimes.count) of \(recording.count)")
        #expect(magnetometerTimestamps == recording.timestamps, "magnetometer: \(magnetometerTimestamps.count) of \(recording.count)")
        #expect(!pulledBackInTime.withLock { $0 })
        #expect(pulls.withLock { $0 } > 0 && abandonedStreams.withLock { $0 } > 0)
        // What the recorder got while attached: whole lines, each a sample of the recording, in order.
        let recorded = try MotionRecorder.read(path: recorderPath)
        let times = recorded.map(\.timestamp)
        #expect(times == times.sorted() && Set(times).isSubset(of: Set(recording.timestamps)))
    }

    /// Device motion started and stopped at the same moment from two threads, 3,000 times: it ends
    /// either inactive, or active and delivering. Before, `stopDeviceMotionUpdates()` dropped the
    /// processor in a second critical section, and a start between the two left device motion
    /// "active" and silent (636 of 20,000 trials).
    @Test func racingStartAndStopLeaveAConsistentState() throws {
        let source = EndlessSource()
        let manager = MotionManager(source: source)
        manager.startGyroUpdates()  // the worker keeps running whatever device motion does
        defer { manager.stopGyroUpdates() }
        var activeTrials = 0
        for trial in 0..<3000 {
            let bothReady = DispatchGroup()
            let go = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for start in [true, false] {
                bothReady.enter()
                done.enter()
                Thread {
                    bothReady.leave()
                    go.wait()
                    if start { manager.startDeviceMotionUpdates(using: .xArbitraryZVertical) } else { manager.stopDeviceMotionUpdates() }
                    done.leave()
                }.start()
            }
            bothReady.wait()
            go.signal()
            go.signal()
            done.wait()
            if manager.isDeviceMotionActive {
                activeTrials += 1
                // Active means delivering: a new sample arrives (the source never ends).
                let before = source.taken.withLock { $0 }
                let seen = manager.deviceMotion?.timestamp ?? -1
                // A deadline, not a count of pauses: on a loaded machine the worker can be held off
                // the CPU for seconds.
                let delivered = eventuallyBlocking(within: .seconds(30)) {
                    if let t = manager.deviceMotion?.timestamp, t > seen, source.taken.withLock({ $0 }) > before {
                        return true
                    }
                    return false
                }
                #expect(delivered, "trial \(trial): device motion active but silent")
                if !delivered { break }
            }
            manager.stopDeviceMotionUpdates()
        }
        #expect(activeTrials > 0)
    }

    /// A manager its owner lets go of while a service runs is freed, and its worker stops taking
    /// samples. Before, the worker thread held the manager for ever and kept reading.
    @Test func aReleasedManagerStopsItsWorkerAndIsFreed() async throws {
        let source = EndlessSource()
        weak var released: MotionManager?
        var stream: AsyncStream<GyroData>?
        do {
            let manager = MotionManager(source: source)
            manager.startDeviceMotionUpdates(using: .xArbitraryZVertical)
            stream = manager.gyroUpdates()
            released = manager
            // 100 samples taken after the stream was registered (the worker may have run ahead).
            let registered = source.taken.withLock { $0 }
            while source.taken.withLock({ $0 }) < registered + 100 { try await Task.sleep(for: .milliseconds(1)) }
            withExtendedLifetime(manager) {}  // the owner's last use: released here
        }
        // Not a count of pauses (see above), and a last look after the deadline: in the sanitizer's
        // run this task was once held off for over 30 s between two looks.
        let freed = try await eventually(within: .seconds(30)) { released == nil }
        #expect(freed, "the manager is still alive")
        let taken = source.taken.withLock { $0 }
        try await Task.sleep(for: .milliseconds(100))
        #expect(source.taken.withLock { $0 } <= taken + 1, "the worker still reads")
        // Its streams have finished: iterating one ends after what it had buffered.
        var buffered = 0
        if let stream { for await _ in stream { buffered += 1 } }
        #expect(buffered > 0)
    }
}

/// A source that never ends: a device at rest, 1 kHz timestamps, counting the samples taken.
final class EndlessSource: MotionSource, @unchecked Sendable {
    // @unchecked Sendable: `taken` is a Lock; `sensors` is immutable.
    let taken = Lock(0)
    var sensors: SensorSet { .all }
    func next() throws -> SensorSample? {
        let k = taken.withLock { n -> Int in
            n += 1
            return n
        }
        return SensorSample(
            timestamp: Double(k) * 0.001, gyroscope: SIMD3(0.001, 0, 0), accelerometer: SIMD3(0, 0, 9.81),
            magnetometer: SIMD3(20, 0, -45))
    }
}
