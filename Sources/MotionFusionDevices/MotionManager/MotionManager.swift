import Foundation
import MotionFusionCore
import MotionFusionIO

/// Core Motion's `CMMotionManager` for any ``MotionSource``: accelerometer, gyroscope, magnetometer
/// and device-motion services, each with availability, an update interval, the latest sample as a
/// property (pull), a handler on a `DispatchQueue` or an `OperationQueue` and an `AsyncStream`
/// (push), and start and stop.
///
/// A worker thread takes the source's samples in order. Device motion runs
/// ``InertialFrameFilter`` on **every** sample; each service then delivers a sample when at least its
/// update interval (seconds, on the source's clock) has passed since the one it last delivered.
/// A source faster than the interval is thereby **decimated**: the first sample at or after each
/// interval is delivered as it is, never interpolated. An interval of 0 delivers every sample. The
/// async streams buffer without limit, so a slow consumer loses nothing (and a consumer that never
/// reads lets the buffer grow).
///
/// ## Handlers and queues
///
/// A handler runs on the queue it was given, once per delivered sample, and once with the error if
/// the source fails. A serial queue (`.main`, a serial `DispatchQueue`, an `OperationQueue` with
/// `maxConcurrentOperationCount = 1`) runs the handler calls in sample order, one at a time; a
/// concurrent one — `OperationQueue()` by default — may run them at once and out of order, as Core
/// Motion's do.
///
/// A handler on **the main queue** (`DispatchQueue.main` or `OperationQueue.main`, written `.main`)
/// runs only while the main queue runs: in an app's main run loop, after `dispatchMain()`, inside
/// `RunLoop.main.run()`, or inside ``waitUntilFinished()`` called on the main thread or the main
/// queue (a `@MainActor` function). A command-line program whose main thread simply blocks never runs
/// them; ``waitUntilFinished()`` on the main thread runs them (and the main run loop) while it waits,
/// and returns only after the handlers queued on main so far have run.
///
/// ## Errors
///
/// The worker starts with the first service and stops when the last service stops or the source
/// ends (streams then finish). A source error ends the run: ``error`` holds it, handlers receive it.
/// Device motion that cannot start as asked — true north without a declination, a magnetometer
/// frame without a magnetometer, a request other than the one running — is a
/// ``MotionManagerError``, reported the same way, and the service stays as it was (inactive, or
/// running its own request). Timestamps are the source's. Thread safety: every method may be called
/// from any thread.
///
/// ## Sensors at different rates
///
/// A source that merges sensors at different rates (``IIODeviceGroup``, or any source of
/// ``SampleAssembler`` samples) gives one sample per gyroscope reading, carrying the latest
/// accelerometer and magnetometer readings and, in ``SensorSample/accelerometerTimestamp`` and
/// ``SensorSample/magnetometerTimestamp``, when they were taken. The raw accelerometer and
/// magnetometer services report each reading once, at its own time: a sample whose
/// `accelerometerTimestamp` (or `magnetometerTimestamp`) is set and equals that of the reading
/// already offered is not offered again, and ``AccelerometerData`` and ``MagnetometerData`` carry
/// the reading's time (their update intervals count on it). Samples without these fields are
/// reported as they come, each at the sample's time. Device motion is unchanged: it runs on every
/// sample with a gyroscope and an accelerometer reading, with the readings the sample carries.
public final class MotionManager: @unchecked Sendable {
    // @unchecked Sendable, and why it is sound:
    // - Every `var` stored property below (the four services, `processor`, `recorder`,
    //   `processorRequest`, `recordingFailureHandler`, `recordingFailure`, `monitorDemand`, `running`,
    //   `workerAlive`, `ended`, `samples`, `lastAccelerometerReading`, `lastMagnetometerReading`,
    //   `sourceError`, `startError`, `referenceFrame`,
    //   `defaultDeclination`, `showsMovementDisplay`, `learnedCalibrator`) is read and written only inside
    //   `lock.withLock { }`.
    // - The `let`s are immutable after `init`; `lock` and `finished` are thread-safe by design, and
    //   so is `MainQueueDelivery` (its own lock, never held while it calls out).
    // - `source` is not Sendable, and only the worker thread calls it (`next()` in `work`). At most
    //   one worker exists: `start` launches one only when `workerAlive` is false and sets it in the
    //   same critical section, and the worker clears it in the critical section it returns from.
    //   The thread launch orders `init`'s writes before the worker's reads.
    // - Stream continuations are Sendable and are called with values (Sendable structs), never with
    //   the manager's state. Handlers are plain closures, as in Core Motion (see `Handler`): the
    //   manager only stores them under the lock and runs each on its queue, with values.
    // `scripts/tsan` runs MotionManagerTests and the stress test MotionManagerStressTests under the
    // thread sanitizer.

    // The handler types are plain closures, not `@Sendable`, as Core Motion's blocks are imported:
    // a closure written in a `@MainActor` class is then isolated to the main actor and may use it
    // (give such a handler `.main`), and a closure in a plain class may capture `self`. Each
    // handler runs only on the queue it was given; what it captures is the caller's to share
    // safely with that queue, exactly as with Core Motion.

    /// Core Motion's `CMAccelerometerHandler`.
    public typealias AccelerometerHandler = (AccelerometerData?, (any Error)?) -> Void
    /// Core Motion's `CMGyroHandler`.
    public typealias GyroHandler = (GyroData?, (any Error)?) -> Void
    /// Core Motion's `CMMagnetometerHandler`.
    public typealias MagnetometerHandler = (MagnetometerData?, (any Error)?) -> Void
    /// Core Motion's `CMDeviceMotionHandler`.
    public typealias DeviceMotionHandler = (DeviceMotion?, (any Error)?) -> Void

    /// A handler and its queue (the manager only posts calls to the queue).
    private typealias Handler<Value: Sendable> = QueuedHandler<Value>

    private struct Service<Value: Sendable> {
        var active = false
        var interval = 0.0
        var lastDelivered = -Double.infinity
        var latest: Value?
        var handler: Handler<Value>?
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
            handler?.call(value, nil)
            for continuation in streams.values { continuation.yield(value) }
            return true
        }

        /// Ends the service; returns the streams' finishing, to be run after the lock is released
        /// (finishing a stream runs its termination handler at once, which takes the lock).
        mutating func finish(error: (any Error)?) -> [() -> Void] {
            if let error, let handler { handler.call(nil, error) }
            let finishing = streams.values.map { continuation in { continuation.finish() } }
            streams = [:]
            active = false
            handler = nil
            return finishing
        }
    }

    /// How device motion was asked to start, resolved and checked (``MotionManagerError``) before
    /// anything runs. Two starts ask for the same thing when their requests are equal.
    private struct DeviceMotionRequest: Equatable {
        var referenceFrame: AttitudeReferenceFrame
        /// Degrees east; nil outside true north.
        var declinationDegrees: Double?
        var calibration: SensorCalibration
    }

    /// Guards every `var` of the manager (it holds no state of its own: `Lock<Void>`).
    private let lock = Lock()
    private let source: any MotionSource
    private let sourceSensors: SensorSet
    private var accelerometer = Service<AccelerometerData>()
    private var gyro = Service<GyroData>()
    private var magnetometer = Service<MagnetometerData>()
    private var deviceMotionService = Service<DeviceMotion>()
    private var processor: DeviceMotionProcessor<InertialFrameFilter<Double>>?
    /// What `processor` was made for.
    private var processorRequest: DeviceMotionRequest?
    /// The online magnetometer calibration while no processor holds it (see
    /// ``magnetometerCalibrator``).
    private var learnedCalibrator: OnlineMagnetometerCalibrator<Double>? = OnlineMagnetometerCalibrator()
    private var referenceFrame = AttitudeReferenceFrame.xArbitraryZVertical
    private var defaultDeclination: MagneticDeclination?
    private var showsMovementDisplay = false
    private var recorder: MotionRecorder?
    private var recordingFailureHandler: (@Sendable (RecorderError) -> Void)?
    private var recordingFailure: RecorderError?
    /// How many pedometer and activity updates keep the worker running.
    private var monitorDemand = 0
    /// The activity classifier run on every sample the worker takes, for ``Pedometer`` and
    /// ``MotionActivityManager`` (thread-safe on its own).
    let activityMonitor = ActivityMonitor()
    private var running = false
    private var workerAlive = false
    private var ended = false
    private var samples = 0
    /// When the accelerometer and magnetometer readings last offered were taken (an assembled
    /// sample's ``SensorSample/accelerometerTimestamp``, else its timestamp).
    private var lastAccelerometerReading: Double?
    private var lastMagnetometerReading: Double?
    private var sourceError: (any Error)?
    private var startError: MotionManagerError?
    /// Where ``waitUntilFinished()`` sleeps until the worker stops (`running` false). A condition
    /// variable and not ``lock``: a waiter must sleep until another thread signals a change, which
    /// `Synchronization` offers nothing for (its `Mutex` only excludes). Its own mutex guards no
    /// state; it only orders the check of `running` before the wait against the worker's broadcast.
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

    /// The reference frames MotionFusion's device motion supports: all four, as with Core Motion's
    /// `CMMotionManager.availableAttitudeReferenceFrames()` on a device with every sensor and
    /// location services. Which of them a given manager can serve is
    /// ``availableAttitudeReferenceFrames()-swift.method``.
    public static func availableAttitudeReferenceFrames() -> Set<AttitudeReferenceFrame> {
        Set(AttitudeReferenceFrame.allCases)
    }

    /// The reference frames this manager's source can serve when device motion starts without a
    /// declination argument: none without a gyroscope and an accelerometer;
    /// ``AttitudeReferenceFrame/xArbitraryZVertical``; the magnetometer frames when the source has a
    /// magnetometer; and ``AttitudeReferenceFrame/xTrueNorthZVertical`` when, in addition,
    /// ``declination`` is set (a start that passes its own declination can ask for true north
    /// whenever the source has a magnetometer).
    public func availableAttitudeReferenceFrames() -> Set<AttitudeReferenceFrame> {
        guard isDeviceMotionAvailable else { return [] }
        guard isMagnetometerAvailable else { return [.xArbitraryZVertical] }
        var frames: Set<AttitudeReferenceFrame> = [
            .xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical,
        ]
        if lock.withLock({ defaultDeclination }) != nil { frames.insert(.xTrueNorthZVertical) }
        return frames
    }

    // MARK: Intervals (seconds; 0 delivers every sample)

    public var accelerometerUpdateInterval: Double {
        get { lock.withLock { accelerometer.interval } }
        set { lock.withLock { accelerometer.interval = Self.clean(newValue) } }
    }
    public var gyroUpdateInterval: Double {
        get { lock.withLock { gyro.interval } }
        set { lock.withLock { gyro.interval = Self.clean(newValue) } }
    }
    public var magnetometerUpdateInterval: Double {
        get { lock.withLock { magnetometer.interval } }
        set { lock.withLock { magnetometer.interval = Self.clean(newValue) } }
    }
    public var deviceMotionUpdateInterval: Double {
        get { lock.withLock { deviceMotionService.interval } }
        set { lock.withLock { deviceMotionService.interval = Self.clean(newValue) } }
    }

    // MARK: Device-motion settings

    /// The reference frame of the running device-motion service, or of the one last started, or
    /// ``AttitudeReferenceFrame/xArbitraryZVertical`` if device motion never started — as Core
    /// Motion's `attitudeReferenceFrame`. The device-motion starts that name no frame use it.
    public var attitudeReferenceFrame: AttitudeReferenceFrame { lock.withLock { referenceFrame } }

    /// The declination that true north uses when a device-motion start passes none (nil: none, so
    /// such a start reports ``MotionManagerError/trueNorthNotAvailable``). Set it once, for example
    /// to `.location(latitude:longitude:)`, and Core Motion-style starts in
    /// ``AttitudeReferenceFrame/xTrueNorthZVertical`` work as written. It is read when device motion
    /// starts.
    public var declination: MagneticDeclination? {
        get { lock.withLock { defaultDeclination } }
        set { lock.withLock { defaultDeclination = newValue } }
    }

    /// Core Motion's `showsDeviceMovementDisplay`, kept so that code setting it compiles. It has no
    /// effect: there is no system calibration display here (the magnetometer is calibrated online
    /// while the device moves, ``magnetometerCalibrator``, or offline with ``SensorCalibration`` and
    /// `motion calibrate`).
    public var showsDeviceMovementDisplay: Bool {
        get { lock.withLock { showsMovementDisplay } }
        set { lock.withLock { showsMovementDisplay = newValue } }
    }

    /// The magnetometer's online calibration (``OnlineMagnetometerCalibrator``): the state behind
    /// device motion's ``CalibratedMagneticField`` and its accuracy, which Core Motion keeps for the
    /// device across sessions. It starts uncalibrated; nil turns the online calibration off (the
    /// field is then as ``SensorCalibration`` leaves it).
    ///
    /// Device motion starts from it and learns into it: while device motion runs (or after its
    /// source ended) this is the running calibration, the latest; after a stop it is the one the
    /// service stopped with, and the next start continues from it. To keep a calibration across
    /// sessions, encode this value when done (it is `Codable`) and set the decoded value before
    /// the next start; a state that does not decode is refused by the decoder, and the manager
    /// keeps its own (uncalibrated at first). Setting it while device motion runs replaces the
    /// running calibration at once, and the filter forgets the field it had learned to expect.
    public var magnetometerCalibrator: OnlineMagnetometerCalibrator<Double>? {
        get {
            lock.withLock {
                if let processor { return processor.stream.magnetometerCalibrator }
                return learnedCalibrator
            }
        }
        set {
            lock.withLock {
                learnedCalibrator = newValue
                processor?.stream.magnetometerCalibrator = newValue
            }
        }
    }

    // MARK: Pull: the latest delivered samples

    public var accelerometerData: AccelerometerData? { lock.withLock { accelerometer.latest } }
    public var gyroData: GyroData? { lock.withLock { gyro.latest } }
    public var magnetometerData: MagnetometerData? { lock.withLock { magnetometer.latest } }
    public var deviceMotion: DeviceMotion? { lock.withLock { deviceMotionService.latest } }

    public var isAccelerometerActive: Bool { lock.withLock { accelerometer.active } }
    public var isGyroActive: Bool { lock.withLock { gyro.active } }
    public var isMagnetometerActive: Bool { lock.withLock { magnetometer.active } }
    public var isDeviceMotionActive: Bool { lock.withLock { deviceMotionService.active } }

    /// The error that ended the source, if one did; otherwise the ``MotionManagerError`` of the last
    /// device-motion start, if it could not run. A device-motion start that runs (or joins the running
    /// service) clears it; the other services' starts leave it as it is.
    public var error: (any Error)? { lock.withLock { sourceError ?? startError } }
    /// Samples taken from the source so far.
    public var sampleCount: Int { lock.withLock { samples } }
    /// True once the source has ended (or failed).
    public var hasEnded: Bool { lock.withLock { ended } }

    // MARK: Accelerometer

    /// Starts accelerometer updates (pull through ``accelerometerData``).
    public func startAccelerometerUpdates() { start { $0.accelerometer.active = true } }
    /// Starts accelerometer updates with a handler called on `queue` for each delivered sample (and
    /// once with the error if the source fails).
    @_disfavoredOverload
    public func startAccelerometerUpdates(to queue: DispatchQueue, withHandler handler: @escaping AccelerometerHandler) {
        startUpdates(\.accelerometer, HandlerQueue(queue), handler)
    }
    /// Starts accelerometer updates with a handler run on `queue`, as Core Motion's
    /// `startAccelerometerUpdates(to:withHandler:)`.
    public func startAccelerometerUpdates(to queue: OperationQueue, withHandler handler: @escaping AccelerometerHandler) {
        startUpdates(\.accelerometer, HandlerQueue(queue), handler)
    }
    /// Accelerometer updates as an async sequence (starts the updates).
    public func accelerometerUpdates() -> AsyncStream<AccelerometerData> { stream(\.accelerometer) }
    public func stopAccelerometerUpdates() { stop(\.accelerometer) }

    // MARK: Gyroscope

    public func startGyroUpdates() { start { $0.gyro.active = true } }
    @_disfavoredOverload
    public func startGyroUpdates(to queue: DispatchQueue, withHandler handler: @escaping GyroHandler) {
        startUpdates(\.gyro, HandlerQueue(queue), handler)
    }
    public func startGyroUpdates(to queue: OperationQueue, withHandler handler: @escaping GyroHandler) {
        startUpdates(\.gyro, HandlerQueue(queue), handler)
    }
    public func gyroUpdates() -> AsyncStream<GyroData> { stream(\.gyro) }
    public func stopGyroUpdates() { stop(\.gyro) }

    // MARK: Magnetometer

    public func startMagnetometerUpdates() { start { $0.magnetometer.active = true } }
    @_disfavoredOverload
    public func startMagnetometerUpdates(to queue: DispatchQueue, withHandler handler: @escaping MagnetometerHandler) {
        startUpdates(\.magnetometer, HandlerQueue(queue), handler)
    }
    public func startMagnetometerUpdates(to queue: OperationQueue, withHandler handler: @escaping MagnetometerHandler) {
        startUpdates(\.magnetometer, HandlerQueue(queue), handler)
    }
    public func magnetometerUpdates() -> AsyncStream<MagnetometerData> { stream(\.magnetometer) }
    public func stopMagnetometerUpdates() { stop(\.magnetometer) }

    // MARK: Device motion

    /// Starts device motion (pull through ``deviceMotion``).
    ///
    /// - Parameters:
    ///   - referenceFrame: the frame of the attitudes; nil (Core Motion's `startDeviceMotionUpdates()`)
    ///     uses ``attitudeReferenceFrame``, the frame last started.
    ///   - declination: for ``AttitudeReferenceFrame/xTrueNorthZVertical``: degrees east, or a
    ///     location for the World Magnetic Model (nil: ``declination``). Ignored by the other frames.
    ///   - calibration: the sensor calibration applied before the filter (nil: none).
    ///
    /// **While device motion runs**, it keeps its frame, declination and calibration until it stops.
    /// A start that asks for the same — the same frame, the same declination in degrees, an equal
    /// calibration — joins it (a handler replaces the running one's handler, as in Core Motion);
    /// what a start leaves out (nil) is then the running service's, so a start that names no frame
    /// always joins. A start that asks for something else is
    /// ``MotionManagerError/deviceMotionRunning(_:)``: stop device motion first.
    ///
    /// A request that cannot run (``MotionManagerError``) sets ``error``, reaches the handler once,
    /// and leaves the service as it was; a request that runs clears ``error``'s start error.
    public func startDeviceMotionUpdates(
        using referenceFrame: AttitudeReferenceFrame? = nil, declination: MagneticDeclination? = nil,
        calibration: SensorCalibration? = nil
    ) {
        startDeviceMotion(referenceFrame, declination, calibration, handler: nil)
    }
    /// Starts device motion with a handler called on `queue` for each delivered sample, once with
    /// the error if the source fails, and once with a ``MotionManagerError`` (and no sample) if
    /// device motion cannot start as asked. The parameters are those of
    /// ``startDeviceMotionUpdates(using:declination:calibration:)``.
    @_disfavoredOverload
    public func startDeviceMotionUpdates(
        using referenceFrame: AttitudeReferenceFrame? = nil, declination: MagneticDeclination? = nil,
        calibration: SensorCalibration? = nil,
        to queue: DispatchQueue, withHandler handler: @escaping DeviceMotionHandler
    ) {
        startDeviceMotion(referenceFrame, declination, calibration, handler: Handler(queue: HandlerQueue(queue), body: handler))
    }
    /// Starts device motion with a handler run on `queue`, as Core Motion's
    /// `startDeviceMotionUpdates(using:to:withHandler:)` (`to: .main` is `OperationQueue.main`). The
    /// parameters are those of ``startDeviceMotionUpdates(using:declination:calibration:)``.
    public func startDeviceMotionUpdates(
        using referenceFrame: AttitudeReferenceFrame? = nil, declination: MagneticDeclination? = nil,
        calibration: SensorCalibration? = nil,
        to queue: OperationQueue, withHandler handler: @escaping DeviceMotionHandler
    ) {
        startDeviceMotion(referenceFrame, declination, calibration, handler: Handler(queue: HandlerQueue(queue), body: handler))
    }
    /// Device motion as an async sequence (starts the updates if they are not running). The
    /// parameters are those of ``startDeviceMotionUpdates(using:declination:calibration:)``; a request
    /// that cannot run sets ``error`` and returns a stream that is already finished.
    public func deviceMotionUpdates(
        using referenceFrame: AttitudeReferenceFrame? = nil, declination: MagneticDeclination? = nil,
        calibration: SensorCalibration? = nil
    ) -> AsyncStream<DeviceMotion> {
        do throws(MotionManagerError) {
            let (request, processor) = try deviceMotionRequest(referenceFrame, declination, calibration)
            // A request that differs from the running one throws here (the error is set inside).
            return try stream(\.deviceMotionService) { manager throws(MotionManagerError) in
                try manager.beginDeviceMotion(request, processor)
            }
        } catch {
            let (stream, continuation) = AsyncStream<DeviceMotion>.makeStream()
            continuation.finish()
            return stream
        }
    }
    public func stopDeviceMotionUpdates() {
        // In the same critical section as the service's stop: a start between the two would find
        // the processor running, join it, and lose it to the second (active and silent).
        stop(\.deviceMotionService) {
            if let processor = $0.processor { $0.learnedCalibrator = processor.stream.magnetometerCalibrator }
            $0.processor = nil
            $0.processorRequest = nil
        }
    }

    // MARK: Recording and waiting

    /// Appends every raw sample taken from the source from now on to `recorder`
    /// (``MotionRecorder``), until ``stopRecording()``: also the sample the worker was taking when
    /// the last service stopped, which no service receives.
    ///
    /// A recorder that cannot write (a full disk, a removed file) stops the recording: the manager
    /// lets go of it, ``recordingError`` holds the error and `onFailure` is called with it once, on
    /// the manager's worker thread (it may stop the services). The file ends on the last whole line
    /// (see ``MotionRecorder``).
    public func startRecording(to recorder: MotionRecorder, onFailure: (@Sendable (RecorderError) -> Void)? = nil) {
        lock.withLock {
            self.recorder = recorder
            recordingFailureHandler = onFailure
            recordingFailure = nil
        }
    }
    public func stopRecording() {
        lock.withLock {
            recorder = nil
            recordingFailureHandler = nil
        }
    }
    /// The error that stopped the last recording, if a write failed.
    public var recordingError: RecorderError? { lock.withLock { recordingFailure } }

    /// Blocks until the source ends or every service has stopped.
    ///
    /// Called on the main thread or the main queue (a `@MainActor` function), it keeps the main
    /// queue going while it waits: it runs the handlers given `.main` (`DispatchQueue.main`,
    /// `OperationQueue.main`) as their samples come, and on the main thread it also runs the main run
    /// loop (so other `DispatchQueue.main` work and timers run), in slices of a few milliseconds. It
    /// returns once the handlers already queued on main have run.
    public func waitUntilFinished() {
        guard MainQueue.isCurrent else {
            finished.lock()
            while lock.withLock({ running }) { finished.wait() }
            finished.unlock()
            return
        }
        let onMainThread = Thread.isMainThread
        while true {
            MainQueueDelivery.dispatchMain.drain()
            MainQueueDelivery.operationMain.drain()
            guard lock.withLock({ running }) else { break }
            let slice = Date(timeIntervalSinceNow: 0.005)
            if onMainThread, RunLoop.main.run(mode: .default, before: slice) { continue }
            finished.lock()
            if lock.withLock({ running }) { _ = finished.wait(until: slice) }
            finished.unlock()
        }
        // The worker posts nothing once `running` is false: this runs the last of it.
        MainQueueDelivery.dispatchMain.drain()
        MainQueueDelivery.operationMain.drain()
    }

    // MARK: Private

    private static func clean(_ interval: Double) -> Double { interval.isFinite && interval > 0 ? interval : 0 }

    /// Starts a raw-sensor service with a handler (the three services differ only in their data).
    private func startUpdates<Value>(
        _ service: ReferenceWritableKeyPath<MotionManager, Service<Value>>, _ queue: HandlerQueue,
        _ body: @escaping (Value?, (any Error)?) -> Void
    ) {
        let handler = Handler(queue: queue, body: body)
        start {
            $0[keyPath: service].active = true
            $0[keyPath: service].handler = handler
        }
    }

    /// `resolveDeviceMotionRequest`, whose failure becomes the start error.
    private func deviceMotionRequest(
        _ referenceFrame: AttitudeReferenceFrame?, _ declination: MagneticDeclination?, _ calibration: SensorCalibration?
    ) throws(MotionManagerError) -> (DeviceMotionRequest, DeviceMotionProcessor<InertialFrameFilter<Double>>) {
        do throws(MotionManagerError) {
            return try resolveDeviceMotionRequest(referenceFrame, declination, calibration)
        } catch {
            lock.withLock { startError = error }
            throw error
        }
    }

    /// Resolves and checks a device-motion request: the sensors it needs; the frame, declination and
    /// calibration it leaves out (the running service's while one runs, else ``attitudeReferenceFrame``,
    /// ``declination`` and none); for true north the declination in degrees (computed here, outside
    /// the lock, when it comes from the World Magnetic Model); and a processor for it, in case no
    /// service runs when it starts.
    private func resolveDeviceMotionRequest(
        _ referenceFrame: AttitudeReferenceFrame?, _ declination: MagneticDeclination?, _ calibration: SensorCalibration?
    ) throws(MotionManagerError) -> (DeviceMotionRequest, DeviceMotionProcessor<InertialFrameFilter<Double>>) {
        let (running, lastFrame, fallback) = lock.withLock { (runningDeviceMotionRequest, self.referenceFrame, defaultDeclination) }
        guard isDeviceMotionAvailable else { throw .deviceMotionNotAvailable }
        let frame = referenceFrame ?? running?.referenceFrame ?? lastFrame
        if frame.usesMagnetometer && !isMagnetometerAvailable { throw .referenceFrameNotAvailable(frame) }
        var degrees: Double?
        if frame == .xTrueNorthZVertical {
            if let declination {
                degrees = try declination.degreesEast()
            } else if let running, running.referenceFrame == .xTrueNorthZVertical {
                degrees = running.declinationDegrees
            } else if let fallback {
                degrees = try fallback.degreesEast()
            } else {
                throw .trueNorthNotAvailable
            }
        }
        let request = DeviceMotionRequest(
            referenceFrame: frame, declinationDegrees: degrees,
            calibration: calibration ?? running?.calibration ?? SensorCalibration())
        do throws(DeviceMotionError) {
            let processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(
                referenceFrame: frame, declinationDegrees: degrees, calibration: request.calibration)
            return (request, processor)
        } catch {
            throw MotionManagerError(error)
        }
    }

    /// The request of the device-motion service while it runs (not after the source ended).
    private var runningDeviceMotionRequest: DeviceMotionRequest? {
        deviceMotionService.active && !ended ? processorRequest : nil
    }

    /// Inside the lock, as a start configures the service: joins the running service if `request` is
    /// its request, else fails with ``MotionManagerError/deviceMotionRunning(_:)`` and leaves it as
    /// it is; when none runs, `processor` starts afresh. Sets or clears the start error.
    private func beginDeviceMotion(
        _ request: DeviceMotionRequest, _ fresh: DeviceMotionProcessor<InertialFrameFilter<Double>>
    ) throws(MotionManagerError) {
        if let running = runningDeviceMotionRequest {
            guard running == request else {
                let error = MotionManagerError.deviceMotionRunning(running.referenceFrame)
                startError = error
                throw error
            }
        } else {
            // The calibration learned so far carries on (a processor left from a source that ended
            // still holds the latest).
            if let processor { learnedCalibrator = processor.stream.magnetometerCalibrator }
            var processor = fresh
            processor.stream.magnetometerCalibrator = learnedCalibrator
            self.processor = processor
            processorRequest = request
            referenceFrame = request.referenceFrame
        }
        startError = nil
    }

    private func startDeviceMotion(
        _ referenceFrame: AttitudeReferenceFrame?, _ declination: MagneticDeclination?, _ calibration: SensorCalibration?,
        handler: Handler<DeviceMotion>?
    ) {
        do throws(MotionManagerError) {
            let (request, processor) = try deviceMotionRequest(referenceFrame, declination, calibration)
            // A request that differs from the running one throws here (the error is set inside).
            try start { manager throws(MotionManagerError) in
                try manager.beginDeviceMotion(request, processor)
                manager.deviceMotionService.active = true
                if let handler { manager.deviceMotionService.handler = handler }
            }
        } catch {
            handler?.call(nil, error)
        }
    }

    /// Configures services and makes sure the worker runs. At most one worker thread exists: a
    /// worker that was told to stop but is still inside the source's `next()` simply carries on. A
    /// configuration that throws changes nothing else and launches nothing.
    private func start<Failure: Error>(_ configure: (MotionManager) throws(Failure) -> Void) throws(Failure) {
        let launch = try lock.withLock { () throws(Failure) -> Bool in
            try configure(self)
            guard !ended else { return false }
            running = true
            defer { workerAlive = true }
            return !workerAlive
        }
        if launch {
            // The worker holds the manager only while it handles a sample, never while it waits in
            // the source's `next()`: a manager released by its owner is freed, and its worker ends
            // after the sample it is waiting for (see `deinit`).
            nonisolated(unsafe) let source = self.source
            let thread = Thread { [weak self] in Self.work(source: source, manager: { self }) }
            thread.name = "MotionManager"
            thread.start()
        }
    }

    /// Registers a stream and activates the service in one step (before the worker can take a
    /// sample), so the stream sees every delivered sample.
    private func stream<Value>(_ service: ReferenceWritableKeyPath<MotionManager, Service<Value>>) -> AsyncStream<Value> {
        stream(service) { (_: MotionManager) throws(Never) in }
    }

    /// A stream whose `setup` runs in the same critical section; a `setup` that throws registers
    /// nothing and finishes the stream.
    private func stream<Value, Failure: Error>(
        _ service: ReferenceWritableKeyPath<MotionManager, Service<Value>>,
        setup: (MotionManager) throws(Failure) -> Void
    ) throws(Failure) -> AsyncStream<Value> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        // A key path is an immutable value; it is only not marked Sendable.
        nonisolated(unsafe) let path = service
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { self[keyPath: path].streams[id] = nil }
        }
        var alreadyEnded = false
        do {
            try start { manager throws(Failure) in
                try setup(manager)
                manager[keyPath: service].active = true
                if manager.ended {
                    alreadyEnded = true
                } else {
                    manager[keyPath: service].streams[id] = continuation
                }
            }
        } catch {
            // Finishing runs the termination handler, which takes the lock: never inside it.
            continuation.finish()
            throw error
        }
        if alreadyEnded { continuation.finish() }
        return stream
    }

    /// Stops a service (and runs `also` in the same critical section).
    private func stop<Value>(
        _ service: ReferenceWritableKeyPath<MotionManager, Service<Value>>, also: (MotionManager) -> Void = { _ in }
    ) {
        let finishing = lock.withLock {
            let finishing = self[keyPath: service].finish(error: nil)
            self[keyPath: service].lastDelivered = -.infinity
            also(self)
            if !anyActive { running = false }
            return finishing
        }
        for finish in finishing { finish() }
    }

    private var anyActive: Bool {
        accelerometer.active || gyro.active || magnetometer.active || deviceMotionService.active || monitorDemand > 0
    }

    /// A pedometer's or activity manager's updates start: the worker runs until they stop.
    func startMonitoring() { start { $0.monitorDemand += 1 } }

    /// They stop; the worker stops when nothing else needs it.
    func stopMonitoring() {
        lock.withLock {
            assert(monitorDemand > 0, "a monitoring stop without its start")
            monitorDemand = Swift.max(monitorDemand - 1, 0)
            if !anyActive { running = false }
        }
    }

    /// The worker's loop: takes a sample without holding the manager, then hands it over.
    private static func work(source: any MotionSource, manager: () -> MotionManager?) {
        while true {
            let sample: SensorSample?
            var failure: (any Error)?
            do {
                sample = try source.next()
            } catch {
                sample = nil
                failure = error
            }
            guard let manager = manager(), manager.handle(sample, failure: failure) else { return }
        }
    }

    /// Delivers one sample taken from the source; false when the worker is to stop.
    private func handle(_ taken: SensorSample?, failure: (any Error)?) -> Bool {
        guard let sample = taken else {
            // The source ended or failed.
            let finishing = lock.withLock {
                ended = true
                sourceError = failure
                var finishing = accelerometer.finish(error: failure)
                finishing += gyro.finish(error: failure)
                finishing += magnetometer.finish(error: failure)
                finishing += deviceMotionService.finish(error: failure)
                running = false
                workerAlive = false
                return finishing
            }
            activityMonitor.sourceEnded(error: failure)
            workerStopped(finishing: finishing)
            return false
        }
        let (delivered, recorder) = lock.withLock { () -> (Bool, MotionRecorder?) in
            guard running else { return (false, self.recorder) }
            deliver(sample)
            return (true, self.recorder)
        }
        if let recorder { record(sample, to: recorder) }
        if delivered { return true }
        // Taken as the last service stopped: it reached no service, but it came from the source, so
        // the recording kept it. Still the worker while it recorded (a start meanwhile found it
        // alive and launched no other, which could overtake it), it carries on if a service started
        // again.
        let carriesOn = lock.withLock {
            guard !running else { return true }
            workerAlive = false
            return false
        }
        if !carriesOn { workerStopped(finishing: []) }
        return carriesOn
    }

    /// Offers a sample to the services; with `lock` held.
    private func deliver(_ sample: SensorSample) {
        samples += 1
        activityMonitor.observe(sample)
        let t = sample.timestamp
        // An assembled sample repeats the latest reading of a slower sensor: each reading is
        // reported once, at its own time.
        if let a = sample.accelerometer, sample.accelerometerTimestamp.map({ $0 != lastAccelerometerReading }) ?? true {
            let at = sample.accelerometerTimestamp ?? t
            lastAccelerometerReading = at
            _ = accelerometer.offer(
                AccelerometerData(timestamp: at, acceleration: CoreMotionConversion.acceleration(specificForce: a)), at: at)
        }
        if let w = sample.gyroscope { _ = gyro.offer(GyroData(timestamp: t, rotationRate: w), at: t) }
        if let m = sample.magnetometer, sample.magnetometerTimestamp.map({ $0 != lastMagnetometerReading }) ?? true {
            let at = sample.magnetometerTimestamp ?? t
            lastMagnetometerReading = at
            _ = magnetometer.offer(MagnetometerData(timestamp: at, magneticField: m), at: at)
        }
        if deviceMotionService.active, processor != nil, let w = sample.gyroscope, let a = sample.accelerometer {
            let motion = processor!.update(timestamp: t, gyroscope: w, accelerometer: a, magnetometer: sample.magnetometer)
            _ = deviceMotionService.offer(motion, at: t)
        }
    }

    /// The worker's last act, after it cleared `running` and `workerAlive`: finishes the streams
    /// (outside the lock) and wakes ``waitUntilFinished()``.
    private func workerStopped(finishing: [() -> Void]) {
        for finish in finishing { finish() }
        finished.lock()
        finished.broadcast()
        finished.unlock()
    }

    /// Appends to the recorder outside the manager's lock (the recorder has its own); a failure
    /// ends the recording (``startRecording(to:onFailure:)``).
    private func record(_ sample: SensorSample, to recorder: MotionRecorder) {
        do {
            try recorder.append(sample)
        } catch {
            let handler: (@Sendable (RecorderError) -> Void)? = lock.withLock {
                guard self.recorder === recorder else { return nil }
                self.recorder = nil
                recordingFailure = error
                defer { recordingFailureHandler = nil }
                return recordingFailureHandler
            }
            handler?(error)
        }
    }

    /// A manager released by its owner ends its services: streams finish, and the worker stops
    /// after the sample it is waiting for.
    deinit {
        var finishing: [() -> Void] = []
        finishing += accelerometer.finish(error: nil)
        finishing += gyro.finish(error: nil)
        finishing += magnetometer.finish(error: nil)
        finishing += deviceMotionService.finish(error: nil)
        for finish in finishing { finish() }
    }
}
