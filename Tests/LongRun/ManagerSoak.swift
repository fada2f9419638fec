import Dispatch
import Foundation
import MotionFusion
import MotionFusionIO
import MotionFusionTestSupport

/// A fast-forward run of ``MotionManager`` over `count` samples of ``EndlessMotion``: device
/// motion and the magnetometer through handlers, the accelerometer and the gyroscope through async
/// streams, every raw sample through a ``MotionRecorder`` — all at an update interval equal to the
/// sample period, so every sample must reach every consumer, in order, exactly once.
struct ManagerSoak {
    /// What one consumer received.
    struct Tally: Sendable {
        var received = 0
        /// Samples whose timestamp was not the next one expected (a loss, a repeat or a reordering).
        var outOfOrder = 0
        var nonUnitAttitudes = 0
        var largestNormError = 0.0
        var lastTimestamp = -Double.infinity
        /// The last attitude's w, x, y, z. Not a `Quaternion<Double>`: its 32-byte alignment breaks
        /// the async frame that holds a Tally across `await` (AddressSanitizer: heap-buffer-overflow
        /// at `await task.value`, and a heap corruption in some builds without it); doubles keep the
        /// Tally 8-byte aligned.
        var lastComponents = (w: 1.0, x: 0.0, y: 0.0, z: 0.0)
        var lastAttitude: Quaternion<Double> {
            get { Quaternion(w: lastComponents.w, x: lastComponents.x, y: lastComponents.y, z: lastComponents.z) }
            set { lastComponents = (newValue.w, newValue.x, newValue.y, newValue.z) }
        }

        /// Counts a sample at `timestamp`; the expected one is `received · dt`.
        mutating func count(_ timestamp: Double, dt: Double) {
            if timestamp != Double(received) * dt { outOfOrder += 1 }
            received += 1
            lastTimestamp = timestamp
        }
    }

    struct Result {
        var produced: Int
        var deviceMotion: Tally
        var magnetometer: Tally
        var accelerometer: Tally
        var gyroscope: Tally
        var recorded: Int
        var recordedOutOfOrder: Int
        var managerSampleCount: Int
        var finalError: (total: Double, heading: Double, inclination: Double)
        var seconds: Double
    }

    let settings: EndlessMotion.Settings
    let count: Int
    let recordingPath: String?

    func run() async throws -> Result {
        let dt = 1 / settings.sampleRate
        let source = GatedSource(EndlessMotionSource(settings, count: count))
        let manager = MotionManager(source: source)
        for interval in [\MotionManager.deviceMotionUpdateInterval, \.magnetometerUpdateInterval,
                         \.accelerometerUpdateInterval, \.gyroUpdateInterval] {
            manager[keyPath: interval] = dt
        }
        let deviceMotion = Lock(Tally())
        let magnetometer = Lock(Tally())
        let handlerQueue = DispatchQueue(label: "device motion")
        let magnetometerQueue = DispatchQueue(label: "magnetometer")
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: handlerQueue) { motion, _ in
            guard let motion else { return }
            deviceMotion.withLock { tally in
                tally.count(motion.timestamp, dt: dt)
                let q = motion.attitude.quaternion
                let error = abs(q.length - 1)
                tally.largestNormError = max(tally.largestNormError, error.isNaN ? .infinity : error)
                if !(q.isFinite && error < 1e-12) { tally.nonUnitAttitudes += 1 }
                tally.lastAttitude = q
            }
        }
        manager.startMagnetometerUpdates(to: magnetometerQueue) { data, _ in
            guard let data else { return }
            magnetometer.withLock { $0.count(data.timestamp, dt: dt) }
        }
        let accelerometerStream = manager.accelerometerUpdates()
        let gyroscopeStream = manager.gyroUpdates()
        let accelerometerTask = Task {
            var tally = Tally()
            for await data in accelerometerStream { tally.count(data.timestamp, dt: dt) }
            return tally
        }
        let gyroscopeTask = Task {
            var tally = Tally()
            for await data in gyroscopeStream { tally.count(data.timestamp, dt: dt) }
            return tally
        }
        var recorder: MotionRecorder?
        if let recordingPath {
            try? FileManager.default.removeItem(atPath: recordingPath)
            recorder = try MotionRecorder(path: recordingPath, syncInterval: 100_000)
            manager.startRecording(to: recorder!)
        }
        let start = ContinuousClock.now
        source.open()  // every consumer is in place: let the samples flow
        let accelerometer = await accelerometerTask.value
        let gyroscope = await gyroscopeTask.value
        manager.waitUntilFinished()
        handlerQueue.sync {}
        magnetometerQueue.sync {}
        let seconds = (ContinuousClock.now - start).inSeconds
        try recorder?.sync()
        if let error = manager.recordingError { throw error }

        var recorded = 0
        var recordedOutOfOrder = 0
        if let recordingPath {
            let reader = try IMUCSVReader(path: recordingPath)
            while let row = try reader.next() {
                if row.timestamp != Double(recorded) * dt { recordedOutOfOrder += 1 }
                recorded += 1
            }
            try? FileManager.default.removeItem(atPath: recordingPath)
        }
        let motion = deviceMotion.withLock { $0 }
        // Device motion's x-magnetic-north-z-vertical frame is north-west-up; the truth is
        // sensor → ENU. ENU → NWU takes (e, n, u) to (n, −e, u): a rotation of −90° about z.
        let enuToNorthWestUp = Quaternion<Double>(angle: -.pi / 2, axis: SIMD3(0, 0, 1))
        let finalError = OrientationErrors.angles(
            estimate: motion.lastAttitude, reference: enuToNorthWestUp * source.inner.truth)
        return Result(
            produced: source.inner.produced, deviceMotion: motion, magnetometer: magnetometer.withLock { $0 },
            accelerometer: accelerometer, gyroscope: gyroscope, recorded: recorded,
            recordedOutOfOrder: recordedOutOfOrder, managerSampleCount: manager.sampleCount,
            finalError: finalError, seconds: seconds)
    }
}

extension Duration {
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
