import Foundation
import MotionFusionCore
import MotionFusionIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Several sources — typically one ``IIOBufferedSource`` per Linux IIO device, for example an
/// accelerometer and gyroscope at 400 Hz on one device and a magnetometer at 80 Hz on another — as
/// one ``MotionSource`` whose samples a filter can take: their readings merged by timestamp through
/// a ``SampleAssembler`` (one sample per gyroscope reading, with the latest accelerometer and
/// magnetometer readings at or before it; see its rules).
///
/// ```swift
/// let devices = try IIODevice.list()
/// let group = try IIODeviceGroup(devices: devices)   // buffered, one kernel-clock origin
/// let manager = MotionManager(source: group)
/// ```
///
/// ### Requirements (checked when the group is made)
///
/// - at least one member has a gyroscope (``IIODeviceGroupError/noGyroscope(devices:)``);
/// - with more than one member, every ``IIOBufferedSource`` member has the same non-nil
///   ``IIOBufferedSource/timestampOrigin`` — otherwise each device counts t = 0 from its own first
///   scan and their times cannot be compared
///   (``IIODeviceGroupError/missingTimestampOrigin(device:)``,
///   ``IIODeviceGroupError/timestampOriginsDiffer(devices:origins:)``) — and, where the device
///   folders have a `current_timestamp_clock` file, the same clock
///   (``IIODeviceGroupError/clocksDiffer(devices:clocks:)``).
///
/// ``init(devices:characterDeviceFolder:timestampOrigin:rules:bufferLength:stallTimeout:)`` makes
/// the members from devices and meets these requirements itself.
///
/// ### Threading
///
/// ``start()`` (or the first ``next()``) sets up every ``IIOBufferedSource`` member — so that a
/// setup error (permission, busy device) is thrown from there, naming its device — and then starts
/// one reader thread per member. Each reader takes its member's samples (`next()`) and adds them to
/// the assembler under a lock; ``next()`` waits on a condition variable for the next assembled
/// sample and returns as soon as it is made, never later. ``stop()`` may be called from any thread:
/// it stops every member that can be stopped (``IIOBufferedSource``s and groups; they put their
/// devices back) and wakes ``next()``, which returns nil from then on; a reader of any other kind of
/// member ends after its member's current `next()` returns. Everything else follows
/// ``MotionSource``: one caller at a time. The readers make every sample the assembler can as soon
/// as a reading arrives, and keep them for the caller; when 256 wait untaken, the readers pause (the
/// kernel's buffers then hold the scans), so a slow caller loses nothing here. Nothing is allocated
/// per sample beyond what the members allocate: the assembler's queues (up to
/// ``SampleAssembler/heldSamples``) grow by doubling only while more wait than ever before, and the
/// samples' queue (``SampleAssembler/heldSamples`` + 256) is allocated once.
///
/// ### The end, and errors
///
/// The group ends with its first member that ends or fails. When a member throws (for example
/// ``IIOBufferError/disconnected(path:pendingBytes:)``: the device was unplugged), the other
/// members are stopped, the assembler is finished (``SampleAssembler/finish()``: the gyroscope
/// readings held back are made into samples without waiting), every sample it can make from what
/// arrived is returned, and then ``next()`` throws that member's error as it is (an
/// ``IIOBufferError`` names the character device); later calls return nil. A member that ends
/// (returns nil) ends the group the same way, without an error.
public final class IIODeviceGroup: MotionSource, @unchecked Sendable {
    // @unchecked: the members are used by their reader thread only, except `stop()` of the
    // stoppable ones, which is thread-safe; every mutable state is in `hub`, guarded by its
    // condition.

    /// The sources merged, in the order given.
    public let members: [any MotionSource]
    /// The sensors of every member together.
    public let sensors: SensorSet
    /// The rules of the assembler.
    public let rules: SampleAssembler.Rules

    private let hub: Hub

    /// A group over `members` (each used by the group only from now on: do not call their
    /// `next()` elsewhere).
    ///
    /// - Parameter rules: the assembler's rules (``SampleAssembler/Rules-swift.struct``), defaults
    ///   by default.
    /// - Throws: ``IIODeviceGroupError``: no member, no gyroscope, origins or clocks that differ
    ///   (see the type's description); ``IIODeviceGroupError/device(_:)`` when a
    ///   `current_timestamp_clock` file exists but cannot be read.
    public init(members: [any MotionSource], rules: SampleAssembler.Rules = SampleAssembler.Rules()) throws(IIODeviceGroupError) {
        guard !members.isEmpty else { throw .noMembers }
        let buffered = members.compactMap { $0 as? IIOBufferedSource }
        var sensors: SensorSet = []
        for member in members { sensors.formUnion(member.sensors) }
        guard sensors.contains(.gyroscope) else { throw .noGyroscope(devices: buffered.map(\.device.path)) }
        if members.count > 1 {
            var origins: [Int64] = []
            for source in buffered {
                guard let origin = source.timestampOrigin else { throw .missingTimestampOrigin(device: source.device.path) }
                origins.append(origin)
            }
            if Set(origins).count > 1 {
                throw .timestampOriginsDiffer(devices: buffered.map(\.device.path), origins: origins)
            }
            var clocked: [(device: String, clock: String)] = []
            for source in buffered {
                if let clock = try Self.clock(of: source.device) { clocked.append((source.device.path, clock)) }
            }
            if Set(clocked.map(\.clock)).count > 1 {
                throw .clocksDiffer(devices: clocked.map(\.device), clocks: clocked.map(\.clock))
            }
        }
        self.members = members
        self.sensors = sensors
        self.rules = rules
        hub = Hub(members: members, rules: rules)
    }

    /// A group that reads `devices` through their buffers: one ``IIOBufferedSource`` per device,
    /// all with one timestamp origin. Each sensor comes from the first device (in the order given)
    /// that has scan elements for it; a device left with none is not read.
    ///
    /// - Parameters:
    ///   - characterDeviceFolder: the folder of the character devices (`iio:deviceN`); nil:
    ///     `/dev`. Tests give a folder of FIFOs.
    ///   - timestampOrigin: kernel-clock nanoseconds that are t = 0 for every device; nil: the
    ///     devices' clock (`current_timestamp_clock`, realtime when there is none) read now
    ///     (``kernelClockNanoseconds(_:)``), so that t counts from the group's creation.
    ///   - bufferLength, stallTimeout: as for ``IIOBufferedSource``.
    /// - Throws: ``IIODeviceGroupError``; ``IIODeviceGroupError/device(_:)`` wraps the
    ///   ``IIOBufferError`` of a device that cannot be read through its buffer (for example
    ///   ``IIOBufferError/noBuffer(device:)``).
    public convenience init(
        devices: [IIODevice], characterDeviceFolder: String? = nil, timestampOrigin: Int64? = nil,
        rules: SampleAssembler.Rules = SampleAssembler.Rules(), bufferLength: Int? = 256, stallTimeout: Double = 5
    ) throws(IIODeviceGroupError) {
        guard !devices.isEmpty else { throw .noMembers }
        let origin: Int64
        if let timestampOrigin {
            origin = timestampOrigin
        } else {
            var clocks: [(device: String, clock: String)] = []
            for device in devices {
                if let clock = try Self.clock(of: device) { clocks.append((device.path, clock)) }
            }
            if Set(clocks.map(\.clock)).count > 1 {
                throw .clocksDiffer(devices: clocks.map(\.device), clocks: clocks.map(\.clock))
            }
            let clock = clocks.first?.clock ?? "realtime"
            guard let now = Self.kernelClockNanoseconds(clock) else { throw .clockUnavailable(clock: clock) }
            origin = now
        }
        var members: [any MotionSource] = []
        var remaining = Set(IIOChannelType.allCases)
        for device in devices where !remaining.isEmpty {
            let folder = device.path.split(separator: "/").last.map(String.init) ?? device.path
            let path = characterDeviceFolder.map { $0 + "/" + folder }
            let source: IIOBufferedSource
            do throws(IIOBufferError) {
                source = try IIOBufferedSource(
                    device: device, characterDevicePath: path, types: remaining, bufferLength: bufferLength,
                    timestampOrigin: origin, stallTimeout: stallTimeout)
            } catch {
                if case .noChannels = error { continue }  // none of the sensors still needed
                throw .device(error)
            }
            if source.sensors.contains(.gyroscope) { remaining.remove(.gyroscope) }
            if source.sensors.contains(.accelerometer) { remaining.remove(.accelerometer) }
            if source.sensors.contains(.magnetometer) { remaining.remove(.magnetometer) }
            members.append(source)
        }
        guard !members.isEmpty else { throw .noGyroscope(devices: devices.map(\.path)) }
        try self.init(members: members, rules: rules)
    }

    deinit { stop() }

    /// Now, in nanoseconds, on the kernel clock named as in `current_timestamp_clock` (`realtime`,
    /// `monotonic`, `monotonic_raw`, `realtime_coarse`, `monotonic_coarse`, `boottime`, `tai`);
    /// nil for another name. The timestamps of scans are on this clock, so this is an origin that
    /// makes the first scans t ≈ 0.
    public static func kernelClockNanoseconds(_ clock: String = "realtime") -> Int64? {
        let id: clockid_t
        switch clock {
        case "realtime": id = CLOCK_REALTIME
        case "monotonic": id = CLOCK_MONOTONIC
        #if os(Linux)
            case "monotonic_raw": id = CLOCK_MONOTONIC_RAW
            case "realtime_coarse": id = CLOCK_REALTIME_COARSE
            case "monotonic_coarse": id = CLOCK_MONOTONIC_COARSE
            case "boottime": id = CLOCK_BOOTTIME
            case "tai": id = CLOCK_TAI
        #endif
        default: return nil
        }
        var now = timespec()
        guard clock_gettime(id, &now) == 0 else { return nil }
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// What the assembler did so far (samples made, waits that timed out, late readings, …).
    public var statistics: SampleAssembler.Statistics { hub.statistics }

    /// Sets up every ``IIOBufferedSource`` member (``IIOBufferedSource/start()``) and starts the
    /// readers. Does nothing when already started; the first ``next()`` calls it.
    ///
    /// - Throws: the first member's setup error (an ``IIOBufferError``); the members already set up
    ///   are stopped and the group ends. After ``stop()``: nothing happens.
    public func start() throws {
        try hub.start()
    }

    /// Stops every member that can be stopped and wakes ``next()``, which returns nil from then on.
    /// Safe from any thread; returns once the ``IIOBufferedSource`` members have put their devices
    /// back. Calling it again does nothing.
    public func stop() {
        hub.stop()
    }

    /// The next assembled sample, waiting until it is made; nil after ``stop()`` or once the
    /// group has ended.
    ///
    /// - Throws: a member's setup error (see ``start()``), or the error of the member that failed,
    ///   once every sample that could still be made has been returned (see the type's
    ///   description) and the other members have been stopped (their devices put back): the end,
    ///   an error or nil, is reported only then.
    public func next() throws -> SensorSample? {
        try hub.next()
    }

    // MARK: - Internal (tests)

    /// How many samples each member has given the assembler.
    var receivedCounts: [Int] { hub.receivedCounts }

    // MARK: - Private

    /// The `current_timestamp_clock` of `device`, or nil when it has no such file.
    private static func clock(of device: IIODevice) throws(IIODeviceGroupError) -> String? {
        do throws(IIOError) {
            return try IIOFiles.text(at: device.path + "/current_timestamp_clock")?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw .device(.sysfs(error))
        }
    }

    /// The state shared by the group, its readers and its caller.
    private final class Hub: @unchecked Sendable {
        // @unchecked: every `var` is guarded by `condition`; `members` are each used by one reader
        // thread (and `stop()`, thread-safe, on the stoppable ones).

        /// Made samples a reader lets wait for the caller before it pauses.
        static let readyLimit = 256

        /// The lock of every `var`, and where threads wait: the caller for a sample made (or the
        /// end), a reader for room in `ready`. A condition variable and not the package's `Lock`:
        /// `Synchronization` has no way to wait, and the wait must release the very mutex that
        /// guards the state it waits on, atomically, which only a condition's own mutex does.
        private let condition = NSCondition()
        private let members: [any MotionSource]
        private var assembler: SampleAssembler
        /// Samples made, waiting for the caller: a ring on storage allocated once. The readers make
        /// samples as soon as the assembler can (it is drained after every reading), so that it
        /// never holds more readings than it keeps.
        private var ready: [SensorSample?]
        private var head = 0
        private var count = 0
        private var received: [Int]
        private var started = false
        /// `stop()` called: readers discard what they take.
        private var stopping = false
        /// `stop()` has stopped the members: `next()` returns nil.
        private var stopped = false
        private var failure: (any Error)?
        private var failureReported = false
        /// The group has ended by itself (a member ended or failed) and the other members have
        /// been stopped, their devices put back: only then does `next()` report the end, so that a
        /// caller who sees it finds every device put back.
        private var membersStopped = false

        init(members: [any MotionSource], rules: SampleAssembler.Rules) {
            self.members = members
            // Every member's sensors are expected: the first samples wait for their first
            // readings (bounded by the rules' wait), as a recording of the same readings would.
            assembler = SampleAssembler(
                rules: rules, expecting: members.reduce(into: SensorSet()) { $0.formUnion($1.sensors) })
            // Room for the most a reading can release at once (every held gyroscope reading) on
            // top of the limit at which readers pause.
            ready = Array(repeating: nil, count: SampleAssembler.heldSamples + Self.readyLimit)
            received = Array(repeating: 0, count: members.count)
        }

        var statistics: SampleAssembler.Statistics { locked { assembler.statistics } }
        var receivedCounts: [Int] { locked { received } }

        /// Moves the samples the assembler can make into `ready` (those beyond its room stay in the
        /// assembler, made, until there is room). With `condition` held.
        private func drain() {
            while count < ready.count, let sample = assembler.next() {
                ready[(head + count) % ready.count] = sample
                count += 1
            }
        }

        /// The oldest sample made. With `condition` held.
        private func popReady() -> SensorSample? {
            if count == 0 { drain() }
            guard count > 0, let sample = ready[head] else { return nil }
            head = (head + 1) % ready.count
            count -= 1
            return sample
        }

        func start() throws {
            condition.lock()
            if started || stopping {
                condition.unlock()
                return
            }
            started = true
            condition.unlock()
            for (index, member) in members.enumerated() {
                guard let source = member as? IIOBufferedSource else { continue }
                do {
                    try source.start()
                } catch {
                    locked {
                        if failure == nil { failure = error }
                        failureReported = true
                        assembler.finish()
                        drain()
                        condition.broadcast()
                    }
                    stopMembers(except: index)
                    locked {
                        membersStopped = true
                        condition.broadcast()
                    }
                    throw error
                }
            }
            for (index, member) in members.enumerated() {
                nonisolated(unsafe) let member = member
                let thread = Thread { [self] in read(member, index: index) }
                thread.name = "IIODeviceGroup \(index)"
                thread.start()
            }
        }

        /// The members first, then `next()` woken: it returns once the devices are put back.
        func stop() {
            let first = locked {
                defer { stopping = true }
                return !stopping
            }
            guard first else { return }
            stopMembers(except: nil)
            locked {
                stopped = true
                condition.broadcast()
            }
        }

        func next() throws -> SensorSample? {
            condition.lock()
            let mustStart = !started && !stopping
            condition.unlock()
            if mustStart { try start() }
            condition.lock()
            defer { condition.unlock() }
            while true {
                if stopped { return nil }
                if let sample = popReady() {
                    if count == Self.readyLimit - 1 { condition.broadcast() }  // a reader may wait for room
                    return sample
                }
                if assembler.isFinished, membersStopped {
                    guard let failure, !failureReported else { return nil }
                    failureReported = true
                    throw failure
                }
                condition.wait()
            }
        }

        /// A reader's loop: the member's samples into the assembler until it ends, fails, or the
        /// group stops.
        private func read(_ member: any MotionSource, index: Int) {
            while true {
                let sample: SensorSample?
                do {
                    sample = try member.next()
                } catch {
                    end(index, error)
                    return
                }
                guard let sample else {
                    end(index, nil)
                    return
                }
                condition.lock()
                // A caller that lags pauses the readers (the kernel's buffers hold the scans).
                while !stopping, !assembler.isFinished, count >= Self.readyLimit { condition.wait() }
                let open = !stopping && !assembler.isFinished
                if open {
                    assembler.add(sample)
                    received[index] += 1
                    let before = count
                    drain()
                    if count > before { condition.broadcast() }
                }
                condition.unlock()
                if !open { return }
            }
        }

        /// The end of member `index` (an error, or nil): the group ends.
        private func end(_ index: Int, _ error: (any Error)?) {
            let first = locked {
                guard !stopping, !assembler.isFinished else { return false }
                failure = error
                assembler.finish()
                drain()
                condition.broadcast()
                return true
            }
            guard first else { return }
            stopMembers(except: index)
            locked {
                membersStopped = true
                condition.broadcast()
            }
        }

        private func stopMembers(except skipped: Int?) {
            for (index, member) in members.enumerated() where index != skipped {
                if let source = member as? IIOBufferedSource {
                    source.stop()
                } else if let group = member as? IIODeviceGroup {
                    group.stop()
                }
            }
        }

        private func locked<R>(_ body: () throws -> R) rethrows -> R {
            condition.lock()
            defer { condition.unlock() }
            return try body()
        }
    }
}
