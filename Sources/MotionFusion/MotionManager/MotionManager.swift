import Foundation

/// An accelerometer sample as Core Motion reports it (`CMAccelerometerData`): g, with Core Motion's
/// signs (lying flat, face up: (0, 0, −1)).
public struct AccelerometerData: Sendable, Hashable {
    /// Seconds on the source's clock.
    public var timestamp: Double
    /// g, Core Motion's signs: `−specific force / g₀` (``CoreMotionConversion``).
    public var acceleration: SIMD3<Double>
}

/// A raw gyroscope sample (`CMGyroData`): rad/s, bias included.
public struct GyroData: Sendable, Hashable {
    public var timestamp: Double
    public var rotationRate: SIMD3<Double>
}

/// A raw magnetometer sample (`CMMagnetometerData`): µT, uncalibrated.
public struct MagnetometerData: Sendable, Hashable {
    public var timestamp: Double
    public var magneticField: SIMD3<Double>
}

/// Core Motion's `CMMotionManager` for any ``MotionSource``: accelerometer, gyroscope, magnetometer
/// and device-motion services, each with availability, an update interval, the latest sample as a
/// property (pull), a handler on a dispatch queue and an `AsyncStream` (push), and start and stop.
///
/// A worker thread takes the source's samples in order. Device motion runs
/// ``InertialFrameFilter`` on **every** sample; each service then delivers a sample when at least its
/// update interval (seconds, on the source's clock) has passed since the one it last delivered.
/// A source faster than the interval is thereby **decimated**: the first sample at or after each
/// interval is delivered as it is, never interpolated. An interval of 0 delivers every sample. The
/// async streams buffer without limit, so a slow consumer loses nothing (and a consumer that never
/// reads lets the buffer grow); handlers run on their queue in sample order.
///
/// The worker starts with the first service and stops when the last service stops or the source
/// ends (streams then finish). A source error ends the run: ``error`` holds it, handlers receive it.
/// Timestamps are the source's. Thread safety: every method may be called from any thread.
public final class MotionManager: @unchecked Sendable {
    // @unchecked Sendable, and why it is sound:
    // - Every `var` stored property below (the four services, `processor`, `recorder`, `running`,
    //   `workerAlive`, `ended`, `samples`, `sourceError`) is read and written only inside `lock`
    //   (`locked { }`, or `lock.lock()`…`unlock()` in `start` and `run`).
    // - The `let`s are immutable after `init`; `lock` and `finished` are thread-safe by design.
    // - `source` is not Sendable, and only the worker thread calls it (`next()` in `run`). At most
    //   one worker exists: `start` launches one only when `workerAlive` is false and sets it in the
    //   same critical section, and the worker clears it in the critical section it returns from.
    //   The thread launch orders `init`'s writes before the worker's reads.
    // - Handlers and stream continuations are @Sendable / Sendable and are called with values
    //   (Sendable structs), never with the manager's state.
    // `scripts/tsan` runs the stress test MotionManagerStressTests under the thread sanitizer.

    private struct Service<Value: Sendable> {
        var active = false
        var interval = 0.0
        var lastDelivered = -Double.infinity
        var latest: Value?
        var handler: (queue: DispatchQueue, body: @Sendable (Value?, (any Error)?) -> Void)?
        var streams: [UUID: AsyncStream<Value>.Continuation] = [:]

        /// Delivers `value` if the interval since the last delivery has passed. An interval of 0
        /// delivers everything; a timestamp that goes backward starts the interval anew (and is
        /// delivered); a NaN timestamp is delivered only at interval 0.
        mutating func offer(_ value: Value, at t: Double) -> Bool {
            guard active else { return false }
            if interval > 0 {
                guard t.isFinite else { return false }
                guard lastDelivered == -.infinity || t < lastDelivered || t >= lastDelivered + interval - 1e-9
                else { return false }
            }
            if t.isFinite { lastDelivered = t }
            latest = value
            if let handler { handler.queue.async { handler.body(value, nil) } }
            for continuation in streams.values { continuation.yield(value) }
            return true
        }

        /// Ends the service; returns the streams' finishing, to be run after the lock is released
        /// (finishing a stream runs its termination handler at once, which takes the lock).
        mutating func finish(error: (any Error)?) -> [() -> Void] {
            if let error, let handler { handler.queue.async { handler.body(nil, error) } }
            let finishing = streams.values.map { continuation in { continuation.finish() } }
            streams = [:]
            active = false
            handler = nil
            return finishing
        }
    }

    private let lock = NSLock()
    private let source: any MotionSource
    private let sourceSensors: SensorSet
    private var accelerometer = Service<AccelerometerData>()
    private var gyro = Service<GyroData>()
    private var magnetometer = Service<MagnetometerData>()
    private var deviceMotionService = Service<DeviceMotion>()
    private var processor: DeviceMotionProcessor<InertialFrameFilter<Double>>?
    private var recorder: MotionRecorder?
    private var running = false
    private var workerAlive = false
    private var ended = false
    private var samples = 0
    private var sourceError: (any Error)?
    private let finished = NSCondition()

    /// A manager over `source`. The manager owns the source from now on: do not call its `next()`
    /// elsewhere.
    public init(source: any MotionSource) {
        self.source = source
        sourceSensors = source.sensors
    }

    // MARK: Availability

    public var isAccelerometerAvailable: Bool { sourceSensors.contains(.accelerometer) }
    public var isGyroAvailable: Bool { sourceSensors.contains(.gyroscope) }
    public var isMagnetometerAvailable: Bool { sourceSensors.contains(.magnetometer) }
    /// Device motion needs a gyroscope and an accelerometer.
    public var isDeviceMotionAvailable: Bool { sourceSensors.isSuperset(of: [.gyroscope, .accelerometer]) }

    // MARK: Intervals (seconds; 0 delivers every sample)

    public var accelerometerUpdateInterval: Double {
        get { locked { accelerometer.interval } }
        set { locked { accelerometer.interval = Self.clean(newValue) } }
    }
    public var gyroUpdateInterval: Double {
        get { locked { gyro.interval } }
        set { locked { gyro.interval = Self.clean(newValue) } }
    }
    public var magnetometerUpdateInterval: Double {
        get { locked { magnetometer.interval } }
        set { locked { magnetometer.interval = Self.clean(newValue) } }
    }
    public var deviceMotionUpdateInterval: Double {
        get { locked { deviceMotionService.interval } }
        set { locked { deviceMotionService.interval = Self.clean(newValue) } }
    }

    // MARK: Pull: the latest delivered samples

    public var accelerometerData: AccelerometerData? { locked { accelerometer.latest } }
    public var gyroData: GyroData? { locked { gyro.latest } }
    public var magnetometerData: MagnetometerData? { locked { magnetometer.latest } }
    public var deviceMotion: DeviceMotion? { locked { deviceMotionService.latest } }

    public var isAccelerometerActive: Bool { locked { accelerometer.active } }
    public var isGyroActive: Bool { locked { gyro.active } }
    public var isMagnetometerActive: Bool { locked { magnetometer.active } }
    public var isDeviceMotionActive: Bool { locked { deviceMotionService.active } }

    /// The error that ended the source, if one did.
    public var error: (any Error)? { locked { sourceError } }
    /// Samples taken from the source so far.
    public var sampleCount: Int { locked { samples } }
    /// True once the source has ended (or failed).
    public var hasEnded: Bool { locked { ended } }

    // MARK: Start and stop

    /// Starts accelerometer updates (pull through ``accelerometerData``).
    public func startAccelerometerUpdates() { start { $0.accelerometer.active = true } }
    /// Starts accelerometer updates with a handler called on `queue` for each delivered sample (and
    /// once with the error if the source fails).
    public func startAccelerometerUpdates(
        to queue: DispatchQueue, withHandler handler: @escaping @Sendable (AccelerometerData?, (any Error)?) -> Void
    ) {
        start {
            $0.accelerometer.active = true
            $0.accelerometer.handler = (queue, handler)
        }
    }
    /// Accelerometer updates as an async sequence (starts the updates).
    public func accelerometerUpdates() -> AsyncStream<AccelerometerData> { stream(\.accelerometer) }
    public func stopAccelerometerUpdates() { stop(\.accelerometer) }

    public func startGyroUpdates() { start { $0.gyro.active = true } }
    public func startGyroUpdates(
        to queue: DispatchQueue, withHandler handler: @escaping @Sendable (GyroData?, (any Error)?) -> Void
    ) {
        start {
            $0.gyro.active = true
            $0.gyro.handler = (queue, handler)
        }
    }
    public func gyroUpdates() -> AsyncStream<GyroData> { stream(\.gyro) }
    public func stopGyroUpdates() { stop(\.gyro) }

    public func startMagnetometerUpdates() { start { $0.magnetometer.active = true } }
    public func startMagnetometerUpdates(
        to queue: DispatchQueue, withHandler handler: @escaping @Sendable (MagnetometerData?, (any Error)?) -> Void
    ) {
        start {
            $0.magnetometer.active = true
            $0.magnetometer.handler = (queue, handler)
        }
    }
    public func magnetometerUpdates() -> AsyncStream<MagnetometerData> { stream(\.magnetometer) }
    public func stopMagnetometerUpdates() { stop(\.magnetometer) }

    /// Starts device motion in `referenceFrame` (declination in radians east, for true north), with
    /// an optional sensor calibration. A running device-motion service keeps its frame.
    public func startDeviceMotionUpdates(
        using referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical, declination: Double = 0,
        calibration: SensorCalibration = SensorCalibration()
    ) {
        start {
            $0.deviceMotionService.active = true
            if $0.processor == nil {
                $0.processor = DeviceMotionProcessor(
                    referenceFrame: referenceFrame, declination: declination, calibration: calibration)
            }
        }
    }
    public func startDeviceMotionUpdates(
        using referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical, declination: Double = 0,
        to queue: DispatchQueue, withHandler handler: @escaping @Sendable (DeviceMotion?, (any Error)?) -> Void
    ) {
        start {
            $0.deviceMotionService.active = true
            $0.deviceMotionService.handler = (queue, handler)
            if $0.processor == nil {
                $0.processor = DeviceMotionProcessor(referenceFrame: referenceFrame, declination: declination)
            }
        }
    }
    /// Device motion as an async sequence (starts the updates in `referenceFrame` if they are not
    /// running).
    public func deviceMotionUpdates(
        using referenceFrame: AttitudeReferenceFrame = .xArbitraryZVertical
    ) -> AsyncStream<DeviceMotion> {
        stream(\.deviceMotionService) {
            if $0.processor == nil {
                $0.processor = DeviceMotionProcessor(referenceFrame: referenceFrame)
            }
        }
    }
    public func stopDeviceMotionUpdates() {
        stop(\.deviceMotionService)
        locked { processor = nil }
    }

    /// Appends every raw sample taken from now on to `recorder` (``MotionRecorder``), until
    /// ``stopRecording()``.
    public func startRecording(to recorder: MotionRecorder) { locked { self.recorder = recorder } }
    public func stopRecording() { locked { recorder = nil } }

    /// Blocks until the source ends or every service has stopped.
    public func waitUntilFinished() {
        finished.lock()
        while locked({ running }) { finished.wait() }
        finished.unlock()
    }

    // MARK: Private

    private static func clean(_ interval: Double) -> Double { interval.isFinite && interval > 0 ? interval : 0 }

    private func locked<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Configures services and makes sure the worker runs. At most one worker thread exists: a
    /// worker that was told to stop but is still inside the source's `next()` simply carries on.
    private func start(_ configure: (MotionManager) -> Void) {
        lock.lock()
        configure(self)
        var launch = false
        if !ended {
            running = true
            launch = !workerAlive
            workerAlive = true
        }
        lock.unlock()
        if launch {
            let thread = Thread { [self] in run() }
            thread.name = "MotionManager"
            thread.start()
        }
    }

    /// Registers a stream and activates the service in one step (before the worker can take a
    /// sample), so the stream sees every delivered sample.
    private func stream<Value>(
        _ service: ReferenceWritableKeyPath<MotionManager, Service<Value>>,
        setup: (MotionManager) -> Void = { _ in }
    ) -> AsyncStream<Value> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        // A key path is an immutable value; it is only not marked Sendable.
        nonisolated(unsafe) let path = service
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.locked { self[keyPath: path].streams[id] = nil }
        }
        var alreadyEnded = false
        start {
            setup($0)
            $0[keyPath: service].active = true
            if $0.ended {
                alreadyEnded = true
            } else {
                $0[keyPath: service].streams[id] = continuation
            }
        }
        // Finishing runs the termination handler, which takes the lock: never inside it.
        if alreadyEnded { continuation.finish() }
        return stream
    }

    private func stop<Value>(_ service: ReferenceWritableKeyPath<MotionManager, Service<Value>>) {
        let finishing = locked {
            let finishing = self[keyPath: service].finish(error: nil)
            self[keyPath: service].lastDelivered = -.infinity
            if !anyActive { running = false }
            return finishing
        }
        for finish in finishing { finish() }
    }

    private var anyActive: Bool {
        accelerometer.active || gyro.active || magnetometer.active || deviceMotionService.active
    }

    private func run() {
        while true {
            let sample: SensorSample?
            var failure: (any Error)?
            do {
                sample = try source.next()
            } catch {
                sample = nil
                failure = error
            }
            lock.lock()
            guard running, let sample else {
                var finishing: [() -> Void] = []
                if sample == nil {
                    ended = true
                    sourceError = failure
                    finishing += accelerometer.finish(error: failure)
                    finishing += gyro.finish(error: failure)
                    finishing += magnetometer.finish(error: failure)
                    finishing += deviceMotionService.finish(error: failure)
                }
                running = false
                workerAlive = false
                lock.unlock()
                for finish in finishing { finish() }
                finished.lock()
                finished.broadcast()
                finished.unlock()
                return
            }
            samples += 1
            let recorder = self.recorder
            let t = sample.timestamp
            if let a = sample.accelerometer {
                _ = accelerometer.offer(
                    AccelerometerData(timestamp: t, acceleration: CoreMotionConversion.acceleration(specificForce: a)), at: t)
            }
            if let w = sample.gyroscope { _ = gyro.offer(GyroData(timestamp: t, rotationRate: w), at: t) }
            if let m = sample.magnetometer {
                _ = magnetometer.offer(MagnetometerData(timestamp: t, magneticField: m), at: t)
            }
            if deviceMotionService.active, processor != nil, let w = sample.gyroscope, let a = sample.accelerometer {
                let motion = processor!.update(timestamp: t, gyroscope: w, accelerometer: a, magnetometer: sample.magnetometer)
                _ = deviceMotionService.offer(motion, at: t)
            }
            lock.unlock()
            recorder?.append(sample)  // file I/O outside the manager's lock (the recorder has its own)
        }
    }
}
