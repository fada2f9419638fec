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

/// Reads one Linux IIO device through its buffer — the kernel's interface for continuous capture,
/// `/dev/iio:deviceN` — as a ``MotionSource``: every scan the device takes becomes one
/// ``SensorSample``, stamped with the kernel's own timestamp of that scan. Where ``IIOSource``
/// polls sysfs files at a rate of its own, this source gets every sample the sensor produces, at
/// the sensor's rate, with none lost or doubled.
///
/// ### Setup (``start()``, or the first ``next()``)
///
/// The buffer's files are in `buffer0/` (kernel 5.11 and later) or, on older kernels, `buffer/`
/// (length, enable) with `scan_elements/` (the elements). In this order, as
/// Documentation/iio/iio_devbuf.rst asks (enable last):
///
/// 1. the character device is opened (non-blocking). A second reader is refused by the kernel
///    with EBUSY, a missing permission with EACCES: ``IIOBufferError/busy(path:)`` and
///    ``IIOBufferError/permissionDenied(path:)``, whose descriptions give the fix. A buffer that is
///    already enabled (`enable` reads 1) means another process is capturing: also `busy`, and
///    nothing is changed;
/// 2. `in_<type>_{x,y,z}_en` of each channel type read (accelerometer, gyroscope, magnetometer:
///    those the device has, or those asked for) and `in_timestamp_en` are set to 1;
/// 3. `length` is set to `bufferLength` scans (unless nil);
/// 4. the trigger. Devices with a trigger interface have `trigger/current_trigger`. The rule:
///    a trigger named by the caller is written there; otherwise one already set is kept (the
///    user chose it); otherwise, when it is empty, the device's own trigger is set if it exists —
///    the trigger named `<name>-dev<N>` (the name drivers give the trigger of `iio:deviceN`, for
///    example `bmi160-dev0`), found among the `trigger*` folders next to the device. Other
///    triggers (hrtimer, sysfs) need a rate chosen by the user and are never picked. A device
///    without `trigger/` (hardware FIFO) needs none. If enabling then fails with no trigger set,
///    the error is ``IIOBufferError/noTrigger(path:available:)``, listing the triggers there are;
/// 5. `enable` is set to 1.
///
/// The scan layout is then computed from every element that is enabled — the ones this source
/// enabled and any other left enabled — as the kernel does (``IIOScanLayout``). Everything changed
/// (element enables, length, trigger) is put back as it was by ``stop()``, by `deinit`, after an
/// error, and when setting up fails half way; the buffer is disabled (`enable` 0) first.
///
/// ### Reading
///
/// ``next()`` returns as soon as one complete scan is there. It waits in `poll(2)` on the
/// character device (opened non-blocking) and then reads whatever is available — a read may bring
/// several scans, which are queued and returned one by one, or part of a scan (a pipe, or a driver
/// that splits them), which is kept until the rest arrives. The caller's thread is thus never held
/// for more than the time until the next scan, and a ``stop()`` from another thread wakes it at
/// once. The wait is sliced (250 ms) and a read tried after every slice: a device that is
/// unplugged makes `read` fail with ENODEV even when `poll` does not report it. No data for
/// `stallTimeout` seconds is an error (``IIOBufferError/stalled(path:seconds:)``); the end of the
/// stream (end of file, ENODEV) is ``IIOBufferError/disconnected(path:pendingBytes:)``, thrown once
/// every complete scan that arrived before it has been returned.
///
/// ### Values
///
/// As for ``IIODevice/read(_:)``: value = (raw + offset) × scale with the per-axis
/// `in_<type>_<axis>_scale` (else the shared `in_<type>_scale`) and offset (else the shared, else
/// 0), read once at setup, then converted to the library's units (rad/s, m/s² of specific force,
/// µT from the kernel's gauss; ``IIOChannelType/toLibraryUnit``). The raw value is decoded
/// according to the element's `in_*_type` (``IIOScanType``). The timestamp is the kernel's
/// `in_timestamp` (nanoseconds of the device's `current_timestamp_clock`), converted to seconds
/// after `timestampOrigin`: nil (the default) makes the first scan t = 0; 0 gives the kernel
/// clock itself (Double resolution is then about 0.2 µs for a realtime clock, which is why it is
/// not the default). The difference is taken in integer nanoseconds, so it is exact.
///
/// ``stop()`` may be called from any thread; everything else follows ``MotionSource``: one
/// caller at a time.
public final class IIOBufferedSource: MotionSource, @unchecked Sendable {
    // @unchecked: every mutable property is guarded by `condition`, except the `Capture` object's
    // own state, which only the thread inside `next()` touches (`inNext`), or a thread holding
    // `condition` while no thread is inside `next()`.

    /// The device read.
    public let device: IIODevice
    /// The character device, `/dev/iio:deviceN` unless given.
    public let characterDevicePath: String
    /// The folder whose `trigger*` folders list the triggers (the device's parent folder unless given).
    public let triggersRoot: String
    /// The folder with the buffer's `length` and `enable` files (`buffer0` or `buffer`).
    public let bufferPath: String
    /// The folder with the scan elements (`buffer0` or `scan_elements`).
    public let scanElementsPath: String
    /// The sensors read: the channel types with x, y and z scan elements, among those asked for.
    public let sensors: SensorSet
    /// The buffer length set, in scans; nil leaves the device's.
    public let bufferLength: Int?
    /// The trigger asked for; nil applies the rule in the type's description.
    public let requestedTrigger: String?
    /// Nanoseconds of the kernel clock that are t = 0; nil: the first scan's timestamp.
    public let timestampOrigin: Int64?
    /// Seconds without data after which ``next()`` fails.
    public let stallTimeout: Double

    private let channelTypes: [IIOChannelType]
    /// The lock of the state below, and where threads wait for `inNext` to clear (``start()``,
    /// ``stop()`` and ``next()`` wait for a `next()` in progress). A condition variable and not the
    /// package's `Lock`: `Synchronization` has no way to wait, and the wait must release the very
    /// mutex that guards the state it waits on, atomically, which only a condition's own mutex does.
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var capture: Capture?
    private var inNext = false
    private var stopRequested = false
    private var finished = false
    private var currentLayout: IIOScanLayout?
    private var currentTrigger: String?
    private var counters = Counters()

    /// A source over `device` (a folder found with ``IIODevice/list(root:)``, or any folder laid out
    /// like one).
    ///
    /// - Parameters:
    ///   - characterDevicePath: the device's character device; nil: `/dev/` + the device folder's
    ///     name. Tests give a FIFO.
    ///   - triggersRoot: the folder that lists the triggers; nil: the device folder's parent.
    ///   - types: the channel types to read; nil: every one the device has scan elements for.
    ///   - bufferLength: the kernel buffer's length in scans (clamped to 1 … 1 048 576); nil keeps
    ///     the device's.
    ///   - trigger: a trigger name to set; nil: see the type's description. ``start()`` fails
    ///     with ``IIOError/missingFile(path:)`` (wrapped in ``IIOBufferError/sysfs(_:)``) naming
    ///     `trigger/current_trigger` when the device has no trigger interface.
    ///   - timestampOrigin: kernel-clock nanoseconds that are t = 0; nil: the first scan's.
    ///   - stallTimeout: seconds without data after which ``next()`` fails (at least 0.01).
    /// - Throws: ``IIOBufferError``: no buffer, no channels, a missing scan element file (the
    ///   timestamp's included), a malformed `in_*_type`, a missing scale, a layout that cannot be
    ///   computed. Nothing is written to the device yet.
    public init(
        device: IIODevice, characterDevicePath: String? = nil, triggersRoot: String? = nil,
        types: Set<IIOChannelType>? = nil, bufferLength: Int? = 256, trigger: String? = nil,
        timestampOrigin: Int64? = nil, stallTimeout: Double = 5
    ) throws(IIOBufferError) {
        self.device = device
        let folder = device.path.split(separator: "/").last.map(String.init) ?? device.path
        self.characterDevicePath = characterDevicePath ?? "/dev/" + folder
        self.triggersRoot = triggersRoot ?? Self.parent(of: device.path)
        self.bufferLength = bufferLength.map { min(max($0, 1), 1 << 20) }
        self.requestedTrigger = trigger
        self.timestampOrigin = timestampOrigin
        self.stallTimeout = stallTimeout.isNaN ? 5 : max(stallTimeout, 0.01)

        if Self.exists(device.path + "/buffer0/enable") {
            bufferPath = device.path + "/buffer0"
            let legacy = device.path + "/scan_elements"
            scanElementsPath =
                !Self.exists(bufferPath + "/in_timestamp_en") && Self.exists(legacy + "/in_timestamp_en")
                ? legacy : bufferPath
        } else if Self.exists(device.path + "/buffer/enable") {
            bufferPath = device.path + "/buffer"
            scanElementsPath = device.path + "/scan_elements"
        } else {
            if !Self.exists(device.path) { throw .sysfs(.missingFile(path: device.path)) }
            throw .noBuffer(device: device.path)
        }
        let scanFolder = scanElementsPath
        channelTypes = IIOChannelType.allCases.filter { type in
            (types?.contains(type) ?? true)
                && ["x", "y", "z"].allSatisfy { Self.exists("\(scanFolder)/in_\(type.rawValue)_\($0)_en") }
        }
        guard !channelTypes.isEmpty else { throw .noChannels(device: device.path) }
        var sensors: SensorSet = []
        for type in channelTypes {
            switch type {
            case .gyroscope: sensors.insert(.gyroscope)
            case .accelerometer: sensors.insert(.accelerometer)
            case .magnetometer: sensors.insert(.magnetometer)
            }
        }
        self.sensors = sensors
        // Everything that can be checked without writing: the files, types, scales, a layout.
        let plan = try plan()
        _ = try IIOScanLayout(elements: plan.axes.map(\.element), timestamp: plan.timestamp)
    }

    deinit {
        condition.lock()
        teardown()
        condition.unlock()
    }

    /// The layout of the scans being read (nil before ``start()``).
    public var layout: IIOScanLayout? { locked { currentLayout } }

    /// The trigger in effect while capturing (`trigger/current_trigger`; nil before ``start()``,
    /// or when the device has no trigger interface).
    public var trigger: String? { locked { currentTrigger } }

    /// Sets the device up and enables its buffer (see the type's description). Does nothing when
    /// already started; the first ``next()`` calls it.
    ///
    /// - Throws: ``IIOBufferError``; whatever was changed is put back first. After ``stop()``:
    ///   ``IIOBufferError/disconnected(path:pendingBytes:)``.
    public func start() throws(IIOBufferError) {
        condition.lock()
        defer { condition.unlock() }
        while inNext { condition.wait() }
        if finished || stopRequested { throw .disconnected(path: characterDevicePath, pendingBytes: 0) }
        if capture == nil { try begin() }
    }

    /// Disables the buffer, puts back what setup changed, closes the device; ``next()`` returns
    /// nil from then on. Safe from any thread: a ``next()`` waiting for data returns nil, and this
    /// returns once the device has been put back. Calling it again does nothing.
    public func stop() {
        condition.lock()
        stopRequested = true
        if inNext, let capture {
            capture.wake()
            while inNext { condition.wait() }
        }
        teardown()
        finished = true
        condition.unlock()
    }

    /// The next scan as a sample (gyroscope, accelerometer and magnetometer as the device has
    /// them), waiting for it if need be; nil after ``stop()``.
    ///
    /// - Throws: ``IIOBufferError`` (setup, read, decode); the buffer is disabled first, and
    ///   `next()` returns nil afterwards.
    public func next() throws -> SensorSample? {
        condition.lock()
        while inNext { condition.wait() }
        if finished || stopRequested {
            teardown()
            condition.unlock()
            return nil
        }
        if capture == nil {
            do throws(IIOBufferError) {
                try begin()
            } catch {
                finished = true
                condition.unlock()
                throw error
            }
        }
        guard let capture else {
            condition.unlock()
            return nil
        }
        inNext = true
        condition.unlock()

        let result: Result<SensorSample?, IIOBufferError>
        do throws(IIOBufferError) {
            result = .success(try capture.nextSample())
        } catch {
            result = .failure(error)
        }

        condition.lock()
        defer { condition.unlock() }
        inNext = false
        condition.broadcast()
        switch result {
        case .success(let sample?) where !stopRequested:
            return sample
        case .success:
            finished = true
            teardown()
            return nil
        case .failure(let error):
            finished = true
            teardown()
            if stopRequested { return nil }
            throw error
        }
    }

    // MARK: - Internal (tests)

    struct Counters: Equatable {
        /// Reads that returned data.
        var reads = 0
        /// Reads after which part of a scan was left waiting for the rest.
        var partialReads = 0
        /// Scans decoded.
        var scans = 0
    }

    /// What the reads so far looked like.
    var statistics: Counters {
        locked {
            guard let capture, !inNext else { return counters }
            return capture.counters
        }
    }

    // MARK: - Private

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// One axis of a channel type: its scan element, scale and offset.
    struct Axis {
        var type: IIOChannelType
        var element: IIOScanElement
        var path: String  // the element's path prefix, for errors
        var scale: Double
        var offset: Double
    }

    /// What setup needs, read from sysfs.
    struct Plan {
        var axes: [Axis]
        var timestamp: IIOScanElement
    }

    /// Reads the scan elements, scales and offsets of the channel types read, and the timestamp's.
    private func plan() throws(IIOBufferError) -> Plan {
        var axes: [Axis] = []
        for type in channelTypes {
            for axis in ["x", "y", "z"] {
                let name = "in_\(type.rawValue)_\(axis)"
                let element = try element(name)
                guard element.type.repeatCount == 1 else {
                    throw .unsupportedLayout(
                        path: "\(scanElementsPath)/\(name)_type",
                        reason: "an axis with repeat count \(element.type.repeatCount); expected one value")
                }
                let prefix = "\(device.path)/in_\(type.rawValue)"
                do throws(IIOError) {
                    let (scale, offset) = try IIOFiles.scaleAndOffset(prefix: prefix, axis: axis)
                    axes.append(
                        Axis(type: type, element: element, path: "\(scanElementsPath)/\(name)", scale: scale, offset: offset))
                } catch {
                    throw .sysfs(error)
                }
            }
        }
        let timestamp = try element("in_timestamp")
        guard timestamp.type.format != .float, timestamp.type.bits == 64 else {
            throw .unsupportedLayout(
                path: "\(scanElementsPath)/in_timestamp_type",
                reason: "the timestamp is \(timestamp.type); expected a 64-bit integer (le:s64/64>>0)")
        }
        return Plan(axes: axes, timestamp: timestamp)
    }

    /// The index and type of the scan element `name` (for example `in_accel_x`).
    private func element(_ name: String) throws(IIOBufferError) -> IIOScanElement {
        let base = "\(scanElementsPath)/\(name)"
        guard Self.exists(base + "_en") else { throw .missingScanElement(path: base + "_en") }
        let index: Int
        do throws(IIOError) {
            guard let text = try IIOFiles.text(at: base + "_index") else { throw .missingFile(path: base + "_index") }
            let trimmed = text.trimmingScanTypeSpace()
            guard let value = Int(trimmed), value >= 0 else { throw .notANumber(path: base + "_index", text: trimmed) }
            index = value
        } catch {
            if case .missingFile = error { throw .missingScanElement(path: base + "_index") }
            throw .sysfs(error)
        }
        // The kernel gives every element its own type file; old kernels could share one per kind
        // (`in_accel_type`).
        var typePath = base + "_type"
        if !Self.exists(typePath), let kind = Self.kind(of: name) {
            let shared = "\(scanElementsPath)/in_\(kind)_type"
            if Self.exists(shared) { typePath = shared }
        }
        let text: String
        do throws(IIOError) {
            guard let value = try IIOFiles.text(at: typePath) else { throw .missingFile(path: typePath) }
            text = value
        } catch {
            if case .missingFile = error { throw .missingScanElement(path: base + "_type") }
            throw .sysfs(error)
        }
        return IIOScanElement(name: name, index: index, type: try IIOScanType(parsing: text, path: typePath))
    }

    /// `accel` for `in_accel_x`, `voltage` for `in_voltage0`.
    private static func kind(of name: String) -> String? {
        let parts = name.split(separator: "_")
        guard parts.count >= 2, parts[0] == "in" || parts[0] == "out" else { return nil }
        let kind = String(parts[1].filter { !$0.isNumber })
        return kind.isEmpty ? nil : kind
    }

    /// Setup (the type's description); called with `condition` held.
    private func begin() throws(IIOBufferError) {
        let plan = try plan()
        let capture = try Capture(source: self, plan: plan)
        do throws(IIOBufferError) {
            let enablePath = bufferPath + "/enable"
            if try Self.flag(enablePath) {
                throw .busy(path: enablePath)
            }
            // The elements this source needs.
            for name in plan.axes.map(\.element.name) + [plan.timestamp.name] {
                let path = "\(scanElementsPath)/\(name)_en"
                if try !Self.flag(path) {
                    try capture.change(path, to: "1")
                    guard try Self.flag(path) else {
                        throw .rejected(path: path, value: "1", reason: "it still reads 0")
                    }
                }
            }
            if let bufferLength {
                let path = bufferPath + "/length"
                let current = try Self.text(path)
                if current != String(bufferLength) { try capture.change(path, to: String(bufferLength)) }
            }
            // The trigger.
            let triggerPath = device.path + "/trigger/current_trigger"
            var trigger: String? = nil
            if Self.exists(triggerPath) {
                let current = try Self.text(triggerPath)
                if let requestedTrigger, requestedTrigger != current {
                    try capture.change(triggerPath, to: requestedTrigger)
                } else if requestedTrigger == nil, current.isEmpty, let own = ownTrigger(), triggers().contains(own) {
                    try capture.change(triggerPath, to: own)
                }
                trigger = try Self.text(triggerPath)
            } else if requestedTrigger != nil {
                throw .sysfs(.missingFile(path: triggerPath))  // asked for, but the device takes none
            }
            // The layout of every enabled element, the ones left enabled by others included.
            let layout = try enabledLayout(timestamp: plan.timestamp)
            capture.prepare(layout: layout)
            do throws(IIOBufferError) {
                try capture.change(enablePath, to: "1", isEnable: true)
            } catch {
                if case .rejected = error, let trigger, trigger.isEmpty {
                    throw .noTrigger(path: triggerPath, available: triggers())
                }
                throw error
            }
            currentLayout = layout
            currentTrigger = trigger
            self.capture = capture
        } catch {
            capture.shutdown()
            throw error
        }
    }

    /// Puts the device back and closes it; called with `condition` held and no thread in `next()`.
    private func teardown() {
        guard let capture else { return }
        self.capture = nil
        counters = capture.counters
        capture.shutdown()
    }

    /// The layout of all enabled elements (each `*_en` that reads non-zero).
    private func enabledLayout(timestamp: IIOScanElement) throws(IIOBufferError) -> IIOScanLayout {
        let names: [String]
        do throws(IIOError) {
            names = try IIOFiles.entries(of: scanElementsPath).filter { $0.hasSuffix("_en") }.sorted()
        } catch {
            throw .sysfs(error)
        }
        var elements: [IIOScanElement] = []
        for file in names {
            let name = String(file.dropLast(3))
            guard name != timestamp.name, try Self.flag("\(scanElementsPath)/\(file)") else { continue }
            elements.append(try element(name))
        }
        do throws(IIOBufferError) {
            return try IIOScanLayout(elements: elements, timestamp: timestamp)
        } catch {
            if case .unsupportedLayout(let name, let reason) = error {
                throw .unsupportedLayout(path: "\(scanElementsPath)/\(name)", reason: reason)
            }
            throw error
        }
    }

    /// `<name>-dev<N>`, the name drivers give the trigger of `iio:deviceN`.
    private func ownTrigger() -> String? {
        let folder = device.path.split(separator: "/").last.map(String.init) ?? ""
        guard folder.hasPrefix("iio:device"), let number = Int(folder.dropFirst("iio:device".count)) else { return nil }
        return "\(device.name)-dev\(number)"
    }

    /// The names of the triggers under ``triggersRoot``.
    private func triggers() -> [String] {
        guard let entries = try? IIOFiles.entries(of: triggersRoot) else { return [] }
        return entries.filter { $0.hasPrefix("trigger") }.sorted().compactMap {
            (try? IIOFiles.text(at: "\(triggersRoot)/\($0)/name"))?.trimmingScanTypeSpace()
        }
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// The trimmed text of a sysfs attribute that must exist.
    static func text(_ path: String) throws(IIOBufferError) -> String {
        do throws(IIOError) {
            guard let text = try IIOFiles.text(at: path) else { throw .missingFile(path: path) }
            return text.trimmingScanTypeSpace()
        } catch {
            throw .sysfs(error)
        }
    }

    /// A boolean attribute (`0`/`1`, as `kstrtobool` writes them back).
    static func flag(_ path: String) throws(IIOBufferError) -> Bool {
        let text = try text(path)
        guard let value = Int(text) else { throw .sysfs(.notANumber(path: path, text: text)) }
        return value != 0
    }

    /// Writes `value` and a newline to the sysfs attribute at `path`, as `echo` does.
    static func writeAttribute(_ value: String, to path: String) throws(IIOBufferError) {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw .system(errno, path: path) }
        defer { close(fd) }
        let bytes = Array((value + "\n").utf8)
        let written = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
        if written < 0 {
            let code = errno
            switch code {
            case EACCES, EPERM, EBUSY, ENODEV, ENOENT: throw .system(code, path: path)
            default: throw .rejected(path: path, value: value, reason: String(cString: strerror(code)))
            }
        }
        guard written == bytes.count else {
            throw .rejected(path: path, value: value, reason: "wrote \(written) of \(bytes.count) bytes")
        }
    }

    /// The open character device, the wake-up pipe, what setup changed, and the bytes and samples
    /// read but not yet returned.
    private final class Capture {
        let devicePath: String
        let enablePath: String
        let plan: Plan
        let stallTimeout: Double
        let origin: Int64?
        private let fd: Int32
        private let wakeRead: Int32
        private let wakeWrite: Int32
        private var journal: [(path: String, old: String)] = []
        private var enabled = false
        private var closed = false
        private var layout: IIOScanLayout?
        private var offsets: [Int] = []  // of plan.axes, in the scan
        private var timestampOffset = 0
        private var firstTimestamp: Int64?
        private var pending: [UInt8] = []
        private var chunk: [UInt8] = []
        private var queue: [SensorSample] = []
        private var head = 0
        private var lastData = ContinuousClock.now
        // The device and the wake-up pipe, as `poll` takes them: made once, not per wait.
        private var fds: [pollfd] = []
        // Which channel types the plan reads (the others are nil in every sample).
        private let typesRead: (gyroscope: Bool, accelerometer: Bool, magnetometer: Bool)
        var counters = Counters()

        /// Opens the character device (non-blocking) and the wake-up pipe.
        init(source: IIOBufferedSource, plan: Plan) throws(IIOBufferError) {
            devicePath = source.characterDevicePath
            enablePath = source.bufferPath + "/enable"
            self.plan = plan
            typesRead = (
                plan.axes.contains { $0.type == .gyroscope }, plan.axes.contains { $0.type == .accelerometer },
                plan.axes.contains { $0.type == .magnetometer }
            )
            stallTimeout = source.stallTimeout
            origin = source.timestampOrigin
            let fd = open(devicePath, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw .system(errno, path: devicePath) }
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                let code = errno
                close(fd)
                throw .io(path: "pipe", reason: String(cString: strerror(code)))
            }
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
            self.fd = fd
            wakeRead = ends[0]
            wakeWrite = ends[1]
            fds = [
                pollfd(fd: fd, events: Int16(truncatingIfNeeded: POLLIN), revents: 0),
                pollfd(fd: ends[0], events: Int16(truncatingIfNeeded: POLLIN), revents: 0),
            ]
        }

        /// Writes `value` to `path`, remembering the old text to put back.
        func change(_ path: String, to value: String, isEnable: Bool = false) throws(IIOBufferError) {
            let old = isEnable ? "0" : try IIOBufferedSource.text(path)
            try IIOBufferedSource.writeAttribute(value, to: path)
            if isEnable {
                enabled = true
            } else {
                journal.append((path, old))
            }
        }

        func prepare(layout: IIOScanLayout) {
            self.layout = layout
            offsets = plan.axes.map { layout.placement(of: $0.element.name)?.offset ?? 0 }
            timestampOffset = layout.placement(of: plan.timestamp.name)?.offset ?? 0
            chunk = [UInt8](repeating: 0, count: layout.scanSize * 64)
            lastData = .now
        }

        /// Makes a `nextSample()` waiting in `poll` return nil.
        func wake() {
            var byte: UInt8 = 1
            _ = systemWrite(wakeWrite, &byte, 1)
        }

        /// Disables the buffer, puts back what was changed (last change first), closes the files.
        /// Errors are ignored: there is nobody left to tell, and each step is tried regardless.
        func shutdown() {
            guard !closed else { return }
            closed = true
            if enabled {
                try? IIOBufferedSource.writeAttribute("0", to: enablePath)
                enabled = false
            }
            for (path, old) in journal.reversed() {
                try? IIOBufferedSource.writeAttribute(old, to: path)
            }
            journal = []
            close(fd)
            close(wakeRead)
            close(wakeWrite)
        }

        /// The next decoded scan; nil when woken by `wake()`.
        func nextSample() throws(IIOBufferError) -> SensorSample? {
            while true {
                if head < queue.count {
                    let sample = queue[head]
                    head += 1
                    if head == queue.count {
                        queue.removeAll(keepingCapacity: true)
                        head = 0
                    }
                    return sample
                }
                let idle = (ContinuousClock.now - lastData).inSeconds
                if idle >= stallTimeout { throw .stalled(path: devicePath, seconds: stallTimeout) }
                let milliseconds = Int32(min(250, max(1, ((stallTimeout - idle) * 1000).rounded(.up))))
                fds[0].revents = 0
                fds[1].revents = 0
                let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, 2, milliseconds) }
                if ready < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    throw .io(path: devicePath, reason: String(cString: strerror(code)))
                }
                if fds[1].revents != 0 { return nil }
                // Read after a timeout too: an unplugged IIO device fails reads with ENODEV but
                // need not wake `poll`.
                try readAvailable()
            }
        }

        /// One non-blocking read; complete scans are decoded into the queue, the rest kept.
        private func readAvailable() throws(IIOBufferError) {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                pending.append(contentsOf: chunk[0..<count])
                lastData = .now
                counters.reads += 1
                try decodePending()
                if !pending.isEmpty { counters.partialReads += 1 }
                return
            }
            if count == 0 { throw .disconnected(path: devicePath, pendingBytes: pending.count) }
            let code = errno
            switch code {
            case EAGAIN, EWOULDBLOCK, EINTR: return
            case ENODEV, ENXIO: throw .disconnected(path: devicePath, pendingBytes: pending.count)
            default: throw .system(code, path: devicePath)
            }
        }

        private func decodePending() throws(IIOBufferError) {
            guard let layout else { return }
            let size = layout.scanSize
            var start = 0
            var failure: IIOBufferError?
            pending.withUnsafeBytes { bytes in
                while failure == nil, bytes.count - start >= size {
                    let scan = UnsafeRawBufferPointer(rebasing: bytes[start..<start + size])
                    do throws(IIOBufferError) {
                        queue.append(try decode(scan))
                        counters.scans += 1
                    } catch {
                        failure = error
                    }
                    start += size
                }
            }
            pending.removeFirst(start)
            if let failure { throw failure }
        }

        /// One scan as a sample. The three vectors live on the stack: nothing here allocates.
        private func decode(_ scan: UnsafeRawBufferPointer) throws(IIOBufferError) -> SensorSample {
            var gyroscope = SIMD3<Double>.zero, accelerometer = SIMD3<Double>.zero, magnetometer = SIMD3<Double>.zero
            for i in plan.axes.indices {
                let axis = plan.axes[i]
                let raw = axis.element.type.value(in: scan, at: offsets[i])
                let value = (raw + axis.offset) * axis.scale * axis.type.toLibraryUnit
                guard value.isFinite else { throw .nonFinite(path: axis.path) }
                // The plan lists each type's x, y and z in that order.
                switch axis.type {
                case .gyroscope: gyroscope[i % 3] = value
                case .accelerometer: accelerometer[i % 3] = value
                case .magnetometer: magnetometer[i % 3] = value
                }
            }
            let stamp = plan.timestamp.type.integer(in: scan, at: timestampOffset) ?? 0
            let zero = origin ?? firstTimestamp ?? stamp
            if firstTimestamp == nil { firstTimestamp = stamp }
            let (difference, overflow) = stamp.subtractingReportingOverflow(zero)
            let seconds = overflow ? (Double(stamp) - Double(zero)) / 1e9 : Double(difference) / 1e9
            return SensorSample(
                timestamp: seconds, gyroscope: typesRead.gyroscope ? gyroscope : nil,
                accelerometer: typesRead.accelerometer ? accelerometer : nil,
                magnetometer: typesRead.magnetometer ? magnetometer : nil)
        }
    }
}

// The C library's read and write, under names that no method shadows.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
