import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// A fake buffered IIO device in a fresh temporary folder: a sysfs-like tree
/// (`sys/iio:device0/…`, laid out as the kernel lays out `/sys/bus/iio/devices`, with
/// `buffer0/` or, `legacy`, `buffer/` and `scan_elements/`) and a FIFO in place of
/// `/dev/iio:device0`.
struct FakeBufferedDevice {
    /// A scan element: `in_accel_x`, its index and its type text.
    struct Element {
        var name: String
        var index: Int
        var type: String
        var enabled = false
    }

    /// How the device's trigger interface looks.
    enum Trigger {
        /// No `trigger/` folder (a hardware FIFO).
        case none
        /// `trigger/current_trigger` holding `current` ("" for none); `available` are the
        /// `triggerN/name` folders next to the device.
        case interface(current: String, available: [String])
    }

    let root: String
    let legacy: Bool
    /// N of `iio:deviceN`.
    let number: Int

    var sysfs: String { root + "/sys" }
    var device: String { sysfs + "/iio:device\(number)" }
    var fifo: String { root + "/dev/iio:device\(number)" }
    /// The folder of `enable` and `length`, relative to the device.
    var bufferFolder: String { legacy ? "buffer" : "buffer0" }
    /// The folder of the scan elements, relative to the device.
    var scanFolder: String { legacy ? "scan_elements" : "buffer0" }

    init(
        name: String = "fake-imu", elements: [Element], timestampIndex: Int? = nil, files: [String: String] = [:],
        trigger: Trigger = .none, legacy: Bool = false, length: Int = 1024, number: Int = 0, root: String? = nil
    ) throws {
        // `root`: another device's, to put several devices in one tree (`sys/iio:deviceN`, `dev/`).
        self.root = root ?? FileManager.default.temporaryDirectory.appendingPathComponent("mf-iio-buffer-\(UUID().uuidString)").path
        self.legacy = legacy
        self.number = number
        try FileManager.default.createDirectory(atPath: self.root + "/dev", withIntermediateDirectories: true)
        try write("name", name + "\n")
        try write("\(bufferFolder)/enable", "0\n")
        try write("\(bufferFolder)/length", "\(length)\n")
        for element in elements {
            try write("\(scanFolder)/\(element.name)_en", element.enabled ? "1\n" : "0\n")
            try write("\(scanFolder)/\(element.name)_index", "\(element.index)\n")
            try write("\(scanFolder)/\(element.name)_type", element.type + "\n")
        }
        if let timestampIndex {
            try write("\(scanFolder)/in_timestamp_en", "0\n")
            try write("\(scanFolder)/in_timestamp_index", "\(timestampIndex)\n")
            try write("\(scanFolder)/in_timestamp_type", "le:s64/64>>0\n")
        }
        for (file, text) in files { try write(file, text + "\n") }
        if case .interface(let current, let available) = trigger {
            try write("trigger/current_trigger", current + "\n")
            for (n, name) in available.enumerated() {
                try FileManager.default.createDirectory(atPath: "\(sysfs)/trigger\(n)", withIntermediateDirectories: true)
                try "\(name)\n".write(toFile: "\(sysfs)/trigger\(n)/name", atomically: false, encoding: .utf8)
            }
        }
        guard mkfifo(fifo, 0o600) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    /// Writes a file of the device, relative to its folder.
    func write(_ relative: String, _ text: String) throws {
        let path = device + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// The trimmed text of a file of the device, relative to its folder.
    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: device + "/" + relative, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: device + "/" + relative) }

    /// The device as `IIODevice` sees it.
    var iioDevice: IIODevice { get throws { try IIODevice(path: device) } }

    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }
}

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

/// Kernel-style scans: the bytes of each element at its offset, zero padding elsewhere.
struct ScanEncoder {
    let size: Int
    private(set) var bytes: [UInt8] = []

    init(scanSize: Int) { size = scanSize }

    /// Appends one scan: `fields` are (offset, bytes) pairs.
    mutating func append(_ fields: [(offset: Int, bytes: [UInt8])]) {
        var scan = [UInt8](repeating: 0, count: size)
        for field in fields {
            scan.replaceSubrange(field.offset..<field.offset + field.bytes.count, with: field.bytes)
        }
        bytes += scan
    }
}

/// The first seconds of BROAD trial 01 (t, gx, gy, gz in rad/s, ax, ay, az in m/s², mx, my, mz in
/// µT), read directly from the CSV.
enum BroadTrial01 {
    static let name = "01_undisturbed_slow_rotation_A"

    static func rows(from start: Double = 0, before seconds: Double) throws -> [[Double]] {
        let path = BroadData.folder.appendingPathComponent(name + ".csv").path
        // The first seconds only: a row is about 200 bytes at 286 Hz, so 1 MB holds 15 s.
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? file.close() }
        let bytes = [UInt8](try file.read(upToCount: max(1 << 20, Int(seconds * 80_000))) ?? Data())
        var rows: [[Double]] = []
        var lineStart = try #require(bytes.firstIndex(of: 0x0A)) + 1  // after the header
        while let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) {
            let line = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
            lineStart = lineEnd + 1
            let values = line.split(separator: ",").prefix(10).compactMap { Double($0) }
            try #require(values.count == 10, "\(line)")
            if values[0] >= seconds { break }
            if values[0] >= start { rows.append(values) }
        }
        return rows
    }

    /// A kernel-style timestamp for `t` seconds: nanoseconds of a realtime clock.
    static func nanoseconds(_ t: Double) -> Int64 { 1_700_000_000_000_000_000 + Int64((t * 1e9).rounded()) }
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
