import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The writing end of the fake device's FIFO: the kernel's side of `/dev/iio:deviceN`.
///
/// It is opened before the source opens its end — a dummy reader makes the open return at once
/// and is closed by ``releaseKeeper()`` — so that the source never finds the FIFO without a
/// writer (which `read` reports as end of file, an unplugged device). Writes happen on a thread of
/// their own; SIGPIPE is ignored so that a source that stops reading early fails the write, not
/// the test process.
final class FIFOWriter: @unchecked Sendable {
    // @unchecked: `fd` is used by one thread at a time (the writing thread while it runs, then the
    // test after `wait()`); `done` is a semaphore.
    private var fd: Int32
    private var keeper: Int32
    private let done = DispatchSemaphore(value: 0)
    private var started = false

    init(_ path: String) throws {
        signal(SIGPIPE, SIG_IGN)
        keeper = open(path, O_RDONLY | O_NONBLOCK)
        try #require(keeper >= 0, "dummy reader: \(String(cString: strerror(errno)))")
        fd = open(path, O_WRONLY)
        try #require(fd >= 0, "writer: \(String(cString: strerror(errno)))")
    }

    /// The bytes written and not yet read (FIONREAD): 0 once the reader has taken everything.
    var unread: Int {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : -1
    }

    /// Writes `bytes` now, on the calling thread, and waits (at most 10 s) until the reader has
    /// read them all. The reader then reads what follows in another `read`: a source has handed on
    /// every scan of an earlier read before it reads again.
    func writeAndDrain(_ bytes: [UInt8]) throws {
        try write(bytes)
        let deadline = Date(timeIntervalSinceNow: 10)
        while unread != 0 {
            try #require(Date() < deadline, "the reader did not take \(unread) bytes in 10 s")
            usleep(100)
        }
    }

    /// Writes `bytes` now, on the calling thread (blocking while the FIFO is full).
    func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            try #require(n > 0, "write: \(String(cString: strerror(errno)))")
            sent += n
        }
    }

    /// Closes the dummy reader (call once the source has opened the FIFO).
    func releaseKeeper() {
        if keeper >= 0 { close(keeper) }
        keeper = -1
    }

    /// Writes `bytes` on a new thread in pieces of `chunks` bytes (cycled; empty: all at once),
    /// sleeping `pause` seconds between pieces; closes the FIFO at the end when `close` (the
    /// device is unplugged).
    func start(_ bytes: [UInt8], chunks: [Int] = [], pause: Double = 0, close closeAtEnd: Bool) {
        started = true
        let fd = self.fd
        Thread.detachNewThread { [self] in
            var position = 0
            var piece = 0
            while position < bytes.count {
                let size = chunks.isEmpty ? bytes.count : chunks[piece % chunks.count]
                piece += 1
                let end = min(position + size, bytes.count)
                var sent = position
                while sent < end {
                    let n = bytes[sent..<end].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
                    if n <= 0 { break }
                    sent += n
                }
                if sent < end { break }  // the reader went away
                position = end
                if pause > 0 { Thread.sleep(forTimeInterval: pause) }
            }
            if closeAtEnd { self.closeWriter() }
            done.signal()
        }
    }

    /// Waits for the writing thread (at most 10 s).
    func wait() {
        guard started else { return }
        _ = done.wait(timeout: .now() + 10)
        started = false
    }

    /// Closes the writing end: the device is unplugged.
    func closeWriter() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    deinit {
        releaseKeeper()
        closeWriter()
    }
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
