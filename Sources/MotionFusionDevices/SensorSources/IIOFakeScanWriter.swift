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

/// The kernel's side of an ``IIOFakeDevice``: writes `count` scans into its FIFO at `rateHz` from a
/// thread of its own, as a sensor with a hardware FIFO and an IIO driver would.
///
/// - **Only while enabled.** Like a real device it produces nothing until a reader has enabled the
///   buffer (`buffer0/enable` reads 1); the thread checks every millisecond (at most
///   `enableTimeout` seconds). The first scan is due at that moment.
/// - **Paced by the clock.** Scan k is due at `start + k / rateHz` (`CLOCK_MONOTONIC`), an absolute
///   deadline slept to with `clock_nanosleep(TIMER_ABSTIME)`: a late wake-up delays that scan only,
///   and the next deadline does not move, so no drift accumulates (a writer that fell behind writes
///   the overdue scans at once).
/// - **Kernel-style timestamps.** Each scan carries `CLOCK_MONOTONIC` nanoseconds read just before
///   its `write` (strictly increasing), which is what a reader made with
///   ``IIOBufferedSource``'s `timestampOrigin: 0` reports as the sample's time in seconds.
/// - **A plausible motion.** A device lying flat turning slowly about its z axis (0.5 rad/s):
///   gravity on z, the Earth's field (20 µT north, 45 µT down) turning in the device frame.
///
/// When the reader closes its end, `write` fails (EPIPE; SIGPIPE is blocked on the writing thread
/// only) and the thread stops. At the end the writing end is closed when `closeAtEnd`: the reader
/// then sees the end of the stream (``IIOBufferError/disconnected(path:pendingBytes:)``) after the
/// last scan. ``timestamps`` lists the scans written, for matching what a consumer received.
package final class IIOFakeScanWriter: @unchecked Sendable {
    // @unchecked: `fd`, `keeper` and `written` belong to the writing thread from `start()` until
    // `done` is signalled, and to the caller before and after (the semaphore orders them);
    // `stopRequested` is a lock over its flag.

    /// The device written to.
    package let device: IIOFakeDevice
    /// Scans per second.
    package let rateHz: Double
    /// Scans to write.
    package let count: Int
    /// Whether the FIFO is closed after the last scan (the device is unplugged).
    package let closeAtEnd: Bool
    /// Seconds to wait for the buffer to be enabled before giving up (nothing is written then).
    package let enableTimeout: Double

    private var fd: Int32
    private var keeper: Int32
    private var written: [Int64] = []
    private var failure: String?
    private let done = DispatchSemaphore(value: 0)
    private let stopRequested = Lock(false)
    private var started = false

    /// Opens the FIFO for writing. A reader of its own, opened first and closed once the buffer is
    /// enabled (the source has opened its end by then), lets the open return at once and keeps the
    /// source from ever finding the FIFO without a writer (which reads as an unplugged device).
    ///
    /// - Throws: a `POSIXError` when the FIFO cannot be opened. The device's element types must parse.
    package init(
        device: IIOFakeDevice, rateHz: Double, count: Int, closeAtEnd: Bool = true, enableTimeout: Double = 10
    ) throws {
        precondition(rateHz > 0 && rateHz.isFinite && count >= 0, "a rate above 0 and a count of at least 0")
        precondition(device.layout != nil, "the device's scan elements have no valid layout")
        self.device = device
        self.rateHz = rateHz
        self.count = count
        self.closeAtEnd = closeAtEnd
        self.enableTimeout = enableTimeout
        keeper = open(device.characterDevicePath, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard keeper >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        fd = open(device.characterDevicePath, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            close(keeper)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        written.reserveCapacity(count)
    }

    deinit {
        if keeper >= 0 { close(keeper) }
        if fd >= 0 { close(fd) }
    }

    /// Starts the writing thread (once).
    package func start() {
        guard !started else { return }
        started = true
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "IIOFakeScanWriter"
        thread.start()
    }

    /// Asks the thread to stop before the next scan.
    package func stop() { stopRequested.withLock { $0 = true } }

    /// Waits for the writing thread to end, at most `timeout` seconds; false on timeout.
    @discardableResult
    package func wait(timeout: Double = .infinity) -> Bool {
        guard started else { return true }
        let result = timeout.isFinite ? done.wait(timeout: .now() + timeout) : { done.wait(); return .success }()
        if result == .success {
            done.signal()  // later waits return at once
            return true
        }
        return false
    }

    /// The timestamps (nanoseconds, `CLOCK_MONOTONIC`) of the scans written, in order: complete once
    /// ``wait(timeout:)`` has returned true.
    package var timestamps: [Int64] { written }

    /// Why the writer stopped early (the buffer was never enabled, the reader went away), if it did;
    /// read after ``wait(timeout:)``.
    package var problem: String? { failure }

    /// `CLOCK_MONOTONIC` in nanoseconds: the kernel's default IIO timestamp clock.
    package static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    // MARK: - Private

    private var isStopRequested: Bool { stopRequested.withLock { $0 } }

    /// The thread: wait for enable, write the scans on their deadlines, close.
    private func run() {
        // A reader that goes away makes write fail with EPIPE instead of killing the process.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        defer {
            if keeper >= 0 { close(keeper) }
            keeper = -1
            if closeAtEnd {
                close(fd)
                fd = -1
            }
        }
        let giveUp = Self.monotonicNanoseconds() + Int64(min(enableTimeout, 1e6) * 1e9)
        while !device.isBufferEnabled {
            if isStopRequested { return }
            if Self.monotonicNanoseconds() > giveUp {
                failure = "the buffer was not enabled within \(enableTimeout) s"
                return
            }
            usleep(1000)
        }
        close(keeper)
        keeper = -1
        let start = Self.monotonicNanoseconds()
        let period = 1e9 / rateHz
        var last = Int64.min
        let stampOffset = device.layout?.placement(of: "in_timestamp")?.offset ?? 0
        for k in 0..<count {
            if k & 63 == 0, isStopRequested { return }
            let due = Int64((Double(k) * period).rounded())
            // Everything but the timestamp is made before the deadline, so that the time between
            // the stamp and the write is the write alone.
            var scan = device.scan(timestamp: 0, counts: motion(at: Double(due) / 1e9))
            Self.sleep(until: start + due)
            let stamp = max(Self.monotonicNanoseconds(), last &+ 1)
            scan.withUnsafeMutableBytes { $0.storeBytes(of: stamp.littleEndian, toByteOffset: stampOffset, as: Int64.self) }
            guard writeAll(scan) else {
                failure = "the reader closed the device after \(written.count) scans"
                return
            }
            written.append(stamp)
            last = stamp
        }
    }

    /// The counts of each sensor at `t` seconds: the slow turn about z.
    private func motion(at t: Double) -> [IIOChannelType: SIMD3<Int16>] {
        let rate = 0.5
        let angle = rate * t
        let field = SIMD3(20 * cos(angle), -20 * sin(angle), -45)
        return [
            .accelerometer: device.counts(SIMD3(0, 0, 9.80665), of: .accelerometer),
            .gyroscope: device.counts(SIMD3(0, 0, rate), of: .gyroscope),
            .magnetometer: device.counts(field, of: .magnetometer),
        ]
    }

    /// Writes the whole scan (a FIFO takes at most `PIPE_BUF` bytes atomically, so a scan is never
    /// split); false when the reader is gone.
    private func writeAll(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            sent += n
        }
        return true
    }

    /// Sleeps until `deadline` (`CLOCK_MONOTONIC` nanoseconds); returns at once when it has passed.
    /// Linux sleeps to the absolute time (`clock_nanosleep`, `TIMER_ABSTIME`); elsewhere (no
    /// `clock_nanosleep` on Darwin) the time left is measured anew before each relative sleep, which
    /// does not accumulate drift either.
    private static func sleep(until deadline: Int64) {
        #if canImport(Glibc) || canImport(Musl)
            var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
        #else
            while true {
                let left = deadline - monotonicNanoseconds()
                guard left > 0 else { return }
                var span = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
                _ = nanosleep(&span, nil)
            }
        #endif
    }
}
