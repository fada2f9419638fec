import Foundation
import MotionFusion
import MotionFusionIO

/// `motion bench --latency`: the time from a scan's arrival at the IIO character device to its
/// device motion reaching the consumer, per rate and per delivery path (``LatencyPath``).
///
/// Each case makes a fresh fake device (``makeDevices()``), a fresh source over it
/// (``makeSource(_:)``) and a writer per device (``IIOFakeScanWriter``) that writes
/// `rateHz × duration` scans paced by the clock, each stamped with `CLOCK_MONOTONIC` just before its
/// write, then closes the FIFO: the source ends (``IIOBufferError/disconnected(path:pendingBytes:)``)
/// after the last scan, which ends the consumer. The consumer reads `CLOCK_MONOTONIC` as soon as it
/// holds a device motion; ``LatencyResult`` matches the two. Device motion is computed in
/// ``AttitudeReferenceFrame/xMagneticNorthZVertical`` (every sensor used, the most work) with the
/// manager's filter, ``InertialFrameFilter`` in Double, and an update interval of 0 (every sample).
///
/// Everything runs at normal priority on a machine that may be busy: the figures include the
/// scheduler's delays, which is what an application would see.
struct LatencyBench {
    /// Scans per second of each case, in order.
    var rates: [Double]
    /// Seconds of scans per case.
    var duration: Double
    /// The paths measured at each rate, in order.
    var paths: [LatencyPath] = LatencyPath.allCases

    /// The reference frame of the device motion.
    static let referenceFrame = AttitudeReferenceFrame.xMagneticNorthZVertical

    /// The fake devices a case reads: one IMU with an accelerometer, a gyroscope and a
    /// magnetometer. The first device's scans are the ones latencies are measured against.
    static func makeDevices() throws -> [IIOFakeDevice] {
        [try IIOFakeDevice()]
    }

    /// The source under test, over the fake devices of ``makeDevices()``: the one place to change to
    /// measure another source (a source merging several devices, say). Its samples' timestamps must
    /// be the first device's scan timestamps in seconds of the kernel clock (`timestampOrigin: 0`).
    static func makeSource(_ devices: [IIOFakeDevice]) throws -> any MotionSource {
        let device = devices[0]
        return try IIOBufferedSource(
            device: IIODevice(path: device.devicePath), characterDevicePath: device.characterDevicePath,
            timestampOrigin: 0)
    }

    /// Whether `error`, ending the source, is the expected end: the writers closed the devices.
    static func isExpectedEnd(_ error: any Error) -> Bool {
        if let error = error as? IIOBufferError, case .disconnected = error { return true }
        return false
    }

    /// Runs every case: each rate, each path.
    func run() throws -> [LatencyResult] {
        var results: [LatencyResult] = []
        for rate in rates {
            for path in paths { results.append(try measure(rateHz: rate, path: path)) }
        }
        return results
    }

    /// One case.
    func measure(rateHz: Double, path: LatencyPath) throws -> LatencyResult {
        let devices = try Self.makeDevices()
        defer { for device in devices { device.remove() } }
        let count = Swift.max(1, Int((rateHz * duration).rounded()))
        let writers = try devices.map { try IIOFakeScanWriter(device: $0, rateHz: rateHz, count: count) }
        // The floors read the FIFO themselves: no source may open it.
        let source = path.isFloor ? nil : try Self.makeSource(devices)
        let log = ReceiptLog(capacity: count)
        for writer in writers { writer.start() }
        var problems: [String] = []
        let ending: (any Error)?
        switch path {
        case .floor, .relay, .queueRelay, .streamRelay: ending = Self.consumeFloor(devices[0], log, path: path)
        case .handler: ending = Self.consumeHandler(source!, log)
        case .stream: ending = Self.consumeStream(source!, log)
        case .pull: ending = try Self.consumePull(source!, log)
        }
        if let ending, !Self.isExpectedEnd(ending) { problems.append("the source failed: \(ending)") }
        for writer in writers {
            if !writer.wait(timeout: 10) {
                writer.stop()
                writer.wait()
            }
            if let problem = writer.problem { problems.append("\(writer.device.devicePath): \(problem)") }
        }
        return LatencyResult(
            rateHz: rateHz, path: path, written: writers[0].timestamps, received: log.timestamps,
            receipts: log.receipts, problems: problems)
    }

    /// The floor (``LatencyPath/floor``): a thread of its own enables the buffer, then waits in
    /// `poll` on the FIFO, reads what is there and stamps each whole scan by its timestamp element,
    /// until the writer closes the FIFO. For the relays it does not stamp the scans itself but
    /// hands their timestamps on: ``LatencyPath/relay`` to a second thread, waiting on a semaphore,
    /// ``LatencyPath/queueRelay`` to a serial `DispatchQueue`, ``LatencyPath/streamRelay`` to an
    /// `AsyncStream` a `Task` consumes; whoever receives them stamps them. Returns nil at that end,
    /// or the failure.
    private static func consumeFloor(_ device: IIOFakeDevice, _ log: ReceiptLog, path: LatencyPath) -> (any Error)? {
        let relay = path == .relay
        guard let layout = device.layout, let stamp = layout.placements.last, stamp.element.name == "in_timestamp" else {
            return CommandFailure("the fake device's scans have no timestamp")
        }
        let fd = open(device.characterDevicePath, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return CommandFailure("cannot open \(device.characterDevicePath): errno \(errno)") }
        defer { close(fd) }
        // Enabled as a source enables it: the writer starts once it reads 1.
        let enable = device.devicePath + "/" + device.bufferFolder + "/enable"
        guard FileManager.default.createFile(atPath: enable, contents: Data("1\n".utf8)) else {
            return CommandFailure("cannot enable the buffer at \(enable)")
        }
        nonisolated(unsafe) var failure: (any Error)?
        let done = DispatchSemaphore(value: 0)
        let (size, offset) = (layout.scanSize, stamp.offset)
        // The relay: timestamps handed over (nil: the end), and the semaphore signalled per handover.
        let handed = Lock<[Double?]>([])
        let ready = DispatchSemaphore(value: 0)
        let relayed = DispatchSemaphore(value: 0)
        if relay {
            let stamper = Thread {
                var taken: [Double?] = []
                taken.reserveCapacity(64)
                relaying: while true {
                    ready.wait()
                    handed.withLock { swap(&taken, &$0) }
                    for timestamp in taken {
                        guard let timestamp else { break relaying }
                        log.record(timestamp)
                    }
                    taken.removeAll(keepingCapacity: true)
                }
                relayed.signal()
            }
            stamper.name = "motion.bench.latency.relay"
            handed.withLock { $0.reserveCapacity(64) }
            stamper.start()
        }
        // The other two handovers: a serial queue, and a stream with the task that consumes it.
        let queue = path == .queueRelay ? DispatchQueue(label: "motion.bench.latency.relay-queue") : nil
        let (stream, continuation) = AsyncStream<Double>.makeStream(bufferingPolicy: .unbounded)
        let streamed = DispatchSemaphore(value: 0)
        if path == .streamRelay {
            Task.detached {
                for await timestamp in stream { log.record(timestamp) }
                streamed.signal()
            }
        }
        let thread = Thread {
            var bytes = [UInt8](repeating: 0, count: 64 * size)
            var held = 0  // bytes of a scan not yet whole, at the start of `bytes`
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            reading: while true {
                let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + held, $0.count - held) }
                if n == 0 { break }  // the writer closed the FIFO: the end
                if n < 0 {
                    if errno == EAGAIN || errno == EINTR {
                        if poll(&waiting, 1, -1) < 0 && errno != EINTR {
                            failure = CommandFailure("poll failed: errno \(errno)")
                            break reading
                        }
                        continue
                    }
                    failure = CommandFailure("read failed: errno \(errno)")
                    break
                }
                held += n
                var first = 0
                while held - first >= size {
                    var nanoseconds: Int64 = 0
                    withUnsafeMutableBytes(of: &nanoseconds) { target in
                        for k in 0..<8 { target[k] = bytes[first + offset + k] }
                    }
                    let timestamp = Double(Int64(littleEndian: nanoseconds)) / 1e9
                    switch path {
                    case .relay:
                        handed.withLock { $0.append(timestamp) }
                        ready.signal()
                    case .queueRelay: queue?.async { log.record(timestamp) }
                    case .streamRelay: continuation.yield(timestamp)
                    default: log.record(timestamp)
                    }
                    first += size
                }
                if first > 0 {
                    for k in 0..<(held - first) { bytes[k] = bytes[first + k] }
                    held -= first
                }
            }
            if relay {
                handed.withLock { $0.append(nil) }
                ready.signal()
                relayed.wait()
            }
            queue?.sync {}  // the stampings posted before the end have run
            continuation.finish()
            if path == .streamRelay { streamed.wait() }
            done.signal()
        }
        thread.name = "motion.bench.latency.floor"
        thread.start()
        done.wait()
        return failure
    }

    /// A handler on a serial queue; returns the error that ended the source.
    private static func consumeHandler(_ source: any MotionSource, _ log: ReceiptLog) -> (any Error)? {
        let manager = MotionManager(source: source)
        manager.deviceMotionUpdateInterval = 0
        let queue = DispatchQueue(label: "motion.bench.latency.handler")
        manager.startDeviceMotionUpdates(using: referenceFrame, to: queue) { motion, _ in
            if let motion { log.record(motion.timestamp) }
        }
        manager.waitUntilFinished()
        queue.sync {}  // the handlers posted before the end have run
        return manager.error
    }

    /// The manager's `AsyncStream`, consumed by a task; returns the error that ended the source.
    private static func consumeStream(_ source: any MotionSource, _ log: ReceiptLog) -> (any Error)? {
        let manager = MotionManager(source: source)
        manager.deviceMotionUpdateInterval = 0
        let stream = manager.deviceMotionUpdates(using: referenceFrame)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            for await motion in stream { log.record(motion.timestamp) }
            done.signal()
        }
        done.wait()  // the stream finishes when the source ends
        return withExtendedLifetime(manager) { manager.error }
    }

    /// The consumer's own thread pulls from the source and computes device motion itself; returns
    /// the error that ended the source.
    private static func consumePull(_ source: any MotionSource, _ log: ReceiptLog) throws -> (any Error)? {
        let start = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: referenceFrame)
        nonisolated(unsafe) let source = source
        nonisolated(unsafe) var ending: (any Error)?
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var processor = start
            while true {
                let sample: SensorSample?
                do {
                    sample = try source.next()
                } catch {
                    ending = error
                    break
                }
                guard let sample else { break }
                guard let w = sample.gyroscope, let a = sample.accelerometer else { continue }
                let motion = processor.update(
                    timestamp: sample.timestamp, gyroscope: w, accelerometer: a, magnetometer: sample.magnetometer)
                log.record(motion.timestamp)
            }
            done.signal()
        }
        thread.name = "motion.bench.latency.pull"
        thread.start()
        done.wait()
        return ending
    }

    /// The table: rate, path, p50, p99, p99.9 and max in µs, samples, lost.
    static func table(_ results: [LatencyResult], duration: Double) -> String {
        var lines = [
            "Latency from a scan's write to its device motion at the consumer, µs (\(String(format: "%g", duration)) s per case, fake IIO device)",
            "rate Hz  path               p50       p99     p99.9       max   samples  lost",
        ]
        for result in results {
            func cell(_ value: Double?) -> String { value.map { String(format: "%10.1f", $0) } ?? String(repeating: " ", count: 9) + "-" }
            let s = result.statistics
            lines.append(
                LatencyResult.rateText(result.rateHz).leftPadded(to: 7) + "  "
                    + result.path.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + cell(s?.p50) + cell(s?.p99) + cell(s?.p999) + cell(s?.max)
                    + String(result.samples).leftPadded(to: 10) + String(result.lost).leftPadded(to: 6))
        }
        lines += comparisons(results)
        return lines.joined(separator: "\n")
    }

    /// For each rate with a floor, each delivery path against it: µs above the floor's p50 (the goal:
    /// at most 25) and the ratio of the p99s (at most 2). Where the rate has relays too, a line per
    /// relay gives what its handover alone costs over the floor (no goal: no manager), and the
    /// handler's and the stream's lines what they cost over the relay (the second thread's wake-up)
    /// and over their own handover (`relay-queue`, `relay-stream`): the manager's share.
    static func comparisons(_ results: [LatencyResult]) -> [String] {
        var lines: [String] = []
        let relays: [(path: LatencyPath, what: String)] = [
            (.relay, "a second thread's wake-up"), (.queueRelay, "a serial queue's handover"),
            (.streamRelay, "an AsyncStream's handover to a task"),
        ]
        for floor in results where floor.path == .floor {
            guard let f = floor.statistics else { continue }
            let rate = LatencyResult.rateText(floor.rateHz)
            func statistics(_ path: LatencyPath) -> LatencyStatistics? {
                results.first { $0.rateHz == floor.rateHz && $0.path == path }?.statistics
            }
            for (path, what) in relays {
                guard let relay = statistics(path) else { continue }
                lines.append(
                    "\(rate) Hz \(path.rawValue): p50 " + String(format: "%+.1f", relay.p50 - f.p50)
                        + " µs over the floor (\(what), no manager), p99 "
                        + String(format: "%.2f", relay.p99 / f.p99) + "× the floor's")
            }
            for result in results where result.rateHz == floor.rateHz && !result.path.isFloor {
                guard let s = result.statistics else { continue }
                let above = s.p50 - f.p50, ratio = s.p99 / f.p99
                var line = "\(rate) Hz \(result.path.rawValue): p50 "
                    + String(format: "%+.1f", above) + " µs over the floor (goal ≤ 25: \(above <= 25 ? "met" : "missed")), p99 "
                    + String(format: "%.2f", ratio) + "× the floor's (goal ≤ 2: \(ratio <= 2 ? "met" : "missed"))"
                let own: LatencyPath? = result.path == .handler ? .queueRelay : result.path == .stream ? .streamRelay : nil
                if let own {
                    if let relay = statistics(.relay) {
                        line += "; p50 " + String(format: "%+.1f", s.p50 - relay.p50) + " µs over the relay"
                    }
                    if let handover = statistics(own) {
                        line += "; p50 " + String(format: "%+.1f", s.p50 - handover.p50) + " µs over \(own.rawValue)"
                    }
                }
                lines.append(line)
            }
        }
        return lines
    }

    /// The JSON array of the cases (``LatencyResult/json``).
    static func json(_ results: [LatencyResult]) -> String {
        "[\n  " + results.map(\.json).joined(separator: ",\n  ") + "\n]"
    }
}

extension String {
    /// The string with spaces before it, `width` characters in all (never cut).
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
