import MotionFusionCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Appends raw sensor samples to a CSV file durably, and reads a time range back.
///
/// Format: the `motion fuse` input format, `t,gx,gy,gz,ax,ay,az,mx,my,mz` (seconds, rad/s, m/s², µT;
/// `nan` for a sensor absent from a sample), so a recording can be fused, replayed
/// (``CSVReplaySource``) or evaluated as it is.
///
/// Samples with readings taken at other times (``SensorSample/accelerometerTimestamp`` or
/// ``SensorSample/magnetometerTimestamp`` set, as a ``SampleAssembler`` makes them for sensors at
/// different rates) are recorded so that each reading is in the file once, at its own time, and
/// `motion fuse` on the recording (which sends such a file through a ``SampleAssembler``) gives
/// the samples again:
/// - A reading seen for the first time is written as a row of its own at its timestamp, with the
///   other sensors' cells empty, just before the sample's row (two such readings in time order,
///   the accelerometer first at equal times). Seen means: the last reading of that sensor
///   written, at the same timestamp with the same value (also one written in a sample's row).
/// - The sample's row has the gyroscope, and the readings taken at the sample's time; the cells
///   of a reading written before (now or earlier) and of an absent sensor are empty.
/// - Rows are in time order as far as the samples allow: a reading is at or before the first
///   sample that uses it, but one that arrived late (after samples later than it were made
///   without it; ``SampleAssembler/Statistics-swift.struct/lateReadings``) is older than rows
///   already written. It is still written at its own time, before that first sample's row, so
///   the file's time steps back at that row: its time is what makes it too old for later
///   samples, and replayed in file order the assembler counts it late and uses it from the same
///   sample as before. Programs that need sorted rows sort them.
///
/// A sample without those timestamps (all its readings taken at its time, as from a device that
/// samples its sensors together) is one row as always, `nan` for an absent sensor; `motion fuse`
/// reads a row of three `nan` cells of a multi-rate file as no reading. A multi-rate recording
/// read back with ``read(path:from:to:checksUnits:)`` gives a reading's own row as a sample with only that
/// sensor.
///
/// Durability:
/// - Every sample is formatted completely in memory and appended with one `write(2)` call (the
///   file is opened with `O_APPEND`). When a write fails or is cut short (a full disk, a removed
///   device), the partial line is truncated away at once, ``append(_:)`` throws
///   ``RecorderError/cannotWrite(path:reason:)`` and the recorder stops: later appends throw the
///   same error. The file therefore ends on a whole line.
/// - A process killed in the middle of that one call can still leave a partial last line.
///   ``read(path:from:to:checksUnits:)`` keeps every whole line and reports such a cut; appending to the file
///   later (a new recorder on it) truncates the partial line first, so nothing is glued onto it.
///   A last line without its newline that is a whole row — the header's ten fields, each a number,
///   `nan` or empty, the time finite (a file another program wrote without a final newline) — is
///   kept instead: the recorder ends it with its newline. (A cut that falls inside the last number
///   of a row leaves such a row; it cannot be told from a whole one.)
///
/// Appending a new session continues the recording's time: when the first sample appended with a
/// finite timestamp is at or before the file's latest row (a source that starts at 0 again), every sample
/// appended is shifted by ``timeOffset`` so that the session starts as long after the last row as
/// the wall clock says passed since the file was last written (its modification time; at least
/// 1 ms). The file's time then never runs backwards, and a filter on it sees the pause between
/// the sessions as the gap it was. A first sample later than the last row is appended as it is
/// (timestamps that already continue, such as Unix times).
/// - What survives: a line whose `append` returned is in the kernel's page cache and survives the
///   process being killed. For power loss, ``sync()`` asks the kernel to put everything on disk
///   (`fsync`); it runs every ``syncInterval`` samples (default 1,000: 10 s at 100 Hz) and should
///   be called when a recording stops (`motion record` does). A power cut loses at most what was
///   appended since the last `fsync`.
/// - One recorder per file: the truncation assumes no other process appends to it meanwhile.
public final class MotionRecorder: @unchecked Sendable {
    // @unchecked Sendable: the mutable state (`fd`'s offset, `pending`, `buffer`) is read and written
    // only inside `lock.withLock` (`append` and `sync` take the lock first; `init` runs before the
    // instance is shared and `deinit` after the last reference is gone); `path` and `syncInterval`
    // are immutable.
    public let path: String
    /// Samples between automatic `fsync` calls (0: only on ``sync()``; the file is closed when the
    /// recorder is released).
    public let syncInterval: Int
    private let lock = Lock()
    private var fd: Int32
    /// Bytes of whole lines in the file: where a failed write is cut back to.
    private var length: off_t = 0
    /// The failure that stopped the recorder, if one did.
    private var failure: RecorderError?
    private var pending = 0
    private var buffer: [UInt8] = []
    /// The last accelerometer and magnetometer readings written (timestamp, value), to write each
    /// reading of a multi-rate recording once.
    private var writtenAccelerometer: (timestamp: Double, value: SIMD3<Double>)?
    private var writtenMagnetometer: (timestamp: Double, value: SIMD3<Double>)?
    /// The time of the file's last row when the recorder opened it (nil: a new or empty recording).
    public private(set) var previousEnd: Double?
    /// Seconds added to the timestamps of every sample appended (see the type's description): 0
    /// until the first ``append(_:)``, and then unless the session had to be moved after
    /// ``previousEnd``.
    public private(set) var timeOffset: Double = 0
    /// The wall-clock time (s since 1970) the file was last written before the recorder opened it.
    private let lastWritten: Double?
    private var started = false

    public static let header = RecordingColumns.header(RecordingColumns.sensors)

    /// Opens (creating if needed) the recording at `path`: a regular file, never reached through a
    /// symbolic link (``RecorderError/cannotOpen(path:reason:)`` otherwise).
    ///
    /// - Throws: ``RecorderError/cannotOpen(path:reason:)``; ``RecorderError/wrongHeader(path:)`` when
    ///   an existing non-empty file does not start with ``header``;
    ///   ``RecorderError/cannotWrite(path:reason:)`` when the header of a new file cannot be written.
    public init(path: String, syncInterval: Int = 1000) throws(RecorderError) {
        self.path = path
        self.syncInterval = max(0, syncInterval)
        // Never through a symbolic link (a planted link would redirect the appends), and only into
        // a regular file (a recording is truncated and synced, which devices and pipes are not).
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        guard fd >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link (give the file it points to)" : String(cString: strerror(errno))
            throw .cannotOpen(path: path, reason: reason)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc_close(fd)
            throw .cannotOpen(path: path, reason: "not a regular file (a recording is appended to, truncated and synced)")
        }
        _ = fcntl(fd, F_SETFL, O_WRONLY | O_APPEND)  // blocking writes, as usual for a file
        lastWritten = info.st_size == 0 ? nil : Self.modificationTime(info)
        if info.st_size == 0 {
            let bytes = Array(Self.header.utf8)
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == bytes.count else {
                let reason = written < 0 ? String(cString: strerror(errno)) : "the header was cut short (is the disk full?)"
                if written > 0 { _ = ftruncate(fd, 0) }
                Glibc_close(fd)
                throw .cannotWrite(path: path, reason: reason)
            }
        } else {
            // The first line must be the header.
            let reader = open(path, O_RDONLY | O_CLOEXEC)
            var first = [UInt8](repeating: 0, count: Self.header.utf8.count)
            let n = reader >= 0 ? first.withUnsafeMutableBytes { systemRead(reader, $0.baseAddress, $0.count) } : -1
            if reader >= 0 { Glibc_close(reader) }
            guard n == first.count, first == Array(Self.header.utf8) else {
                Glibc_close(fd)
                throw .wrongHeader(path: path)
            }
            // A partial last line (a write cut short) is dropped, so appending does not glue the
            // next line onto it; a whole row without its newline gets it.
            if !Self.endsWithNewline(path) {
                let keep = Self.offsetAfterLastNewline(path)
                if let tail = Self.text(path, from: keep), Self.isWholeRow(tail) {
                    let newline: [UInt8] = [10]
                    guard newline.withUnsafeBytes({ write(fd, $0.baseAddress, 1) }) == 1 else {
                        let reason = String(cString: strerror(errno))
                        Glibc_close(fd)
                        throw .cannotWrite(path: path, reason: reason)
                    }
                } else if keep > 0 {
                    _ = ftruncate(fd, off_t(keep))
                }
            }
        }
        previousEnd = Self.lastTimestamp(path)
        length = lseek(fd, 0, SEEK_END)
        buffer.reserveCapacity(256)
    }

    deinit { Glibc_close(fd) }

    /// Appends one sample as one line (with the rows of readings first seen, for a sample with
    /// readings taken at other times: see the type's description), with one `write` call, and
    /// every ``syncInterval`` samples syncs the file.
    ///
    /// - Throws: ``RecorderError/cannotWrite(path:reason:)`` when the line could not be written
    ///   whole or the sync failed (the partial line is truncated away); the recorder is stopped
    ///   then, and every later call throws the same error.
    public func append(_ sample: SensorSample) throws(RecorderError) {
        try lock.withLock { () throws(RecorderError) in try appendLocked(sample) }
    }

    private func appendLocked(_ sample: SensorSample) throws(RecorderError) {
        if let failure { throw failure }
        if !started, sample.timestamp.isFinite {
            started = true
            if let end = previousEnd, sample.timestamp <= end {
                let pause = lastWritten.map { Self.now() - $0 } ?? 0
                timeOffset = end + max(pause, 0.001) - sample.timestamp
            }
        }
        var sample = sample
        if timeOffset != 0 {
            sample.timestamp += timeOffset
            sample.accelerometerTimestamp = sample.accelerometerTimestamp.map { $0 + timeOffset }
            sample.magnetometerTimestamp = sample.magnetometerTimestamp.map { $0 + timeOffset }
        }
        buffer.removeAll(keepingCapacity: true)
        func field(_ v: Double) {
            buffer.append(UInt8(ascii: ","))
            buffer.append(contentsOf: (v.isFinite ? "\(v)" : "nan").utf8)
        }
        if sample.accelerometerTimestamp == nil && sample.magnetometerTimestamp == nil {
            buffer.append(contentsOf: (sample.timestamp.isNaN ? "nan" : "\(sample.timestamp)").utf8)  // never `snan`
            for v in [sample.gyroscope, sample.accelerometer, sample.magnetometer] {
                let x = v ?? SIMD3(repeating: .nan)
                field(x.x)
                field(x.y)
                field(x.z)
            }
            buffer.append(UInt8(ascii: "\n"))
            if let a = sample.accelerometer { writtenAccelerometer = (sample.timestamp, a) }
            if let m = sample.magnetometer { writtenMagnetometer = (sample.timestamp, m) }
        } else {
            appendMultiRate(sample, field: field)
        }
        var written = -1
        repeat {
            written = buffer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        } while written < 0 && errno == EINTR
        guard written == buffer.count else {
            let reason = written < 0 ? String(cString: strerror(errno)) : "only \(written) of \(buffer.count) bytes written (is the disk full?)"
            throw stop(because: reason, partialLine: written > 0)
        }
        length += off_t(written)
        pending += 1
        if syncInterval > 0 && pending >= syncInterval { try syncLocked() }
    }

    /// Formats a sample with readings taken at other times into `buffer`: the rows of readings
    /// not written yet, then the sample's row (see the type's description).
    private func appendMultiRate(_ sample: SensorSample, field: (Double) -> Void) {
        func time(_ t: Double) {
            buffer.append(contentsOf: (t.isNaN ? "nan" : "\(t)").utf8)  // never `snan`
        }
        func cells(_ v: SIMD3<Double>?) {
            guard let v else {
                buffer.append(contentsOf: ",,,".utf8)
                return
            }
            field(v.x)
            field(v.y)
            field(v.z)
        }
        func isWritten(_ t: Double, _ v: SIMD3<Double>, _ written: (timestamp: Double, value: SIMD3<Double>)?) -> Bool {
            guard let written, written.timestamp.bitPattern == t.bitPattern else { return false }
            return written.value.x.bitPattern == v.x.bitPattern && written.value.y.bitPattern == v.y.bitPattern
                && written.value.z.bitPattern == v.z.bitPattern
        }
        // The sample's cells of each slower sensor, and the readings that need rows of their own.
        var accelerometerCells: SIMD3<Double>?
        var magnetometerCells: SIMD3<Double>?
        var own: [(timestamp: Double, accelerometer: Bool, value: SIMD3<Double>)] = []
        if let a = sample.accelerometer {
            if let t = sample.accelerometerTimestamp {
                if !isWritten(t, a, writtenAccelerometer) { own.append((t, true, a)) }
                writtenAccelerometer = (t, a)
            } else {
                accelerometerCells = a
                writtenAccelerometer = (sample.timestamp, a)
            }
        }
        if let m = sample.magnetometer {
            if let t = sample.magnetometerTimestamp {
                if !isWritten(t, m, writtenMagnetometer) { own.append((t, false, m)) }
                writtenMagnetometer = (t, m)
            } else {
                magnetometerCells = m
                writtenMagnetometer = (sample.timestamp, m)
            }
        }
        if own.count == 2 && (own[1].timestamp < own[0].timestamp || (own[1].timestamp == own[0].timestamp && own[1].accelerometer)) {
            own.swapAt(0, 1)
        }
        for reading in own {
            time(reading.timestamp)
            cells(nil)
            cells(reading.accelerometer ? reading.value : nil)
            cells(reading.accelerometer ? nil : reading.value)
            buffer.append(UInt8(ascii: "\n"))
        }
        time(sample.timestamp)
        cells(sample.gyroscope)
        cells(accelerometerCells)
        cells(magnetometerCells)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// Asks the kernel to write everything appended so far to the disk (`fsync`).
    ///
    /// - Throws: ``RecorderError/cannotWrite(path:reason:)`` if the recorder has stopped or the
    ///   sync failed (the recorder stops then).
    public func sync() throws(RecorderError) {
        try lock.withLock { () throws(RecorderError) in
            if let failure { throw failure }
            try syncLocked()
        }
    }

    private func syncLocked() throws(RecorderError) {
        guard fsync(fd) == 0 else { throw stop(because: "cannot sync: \(String(cString: strerror(errno)))", partialLine: false) }
        pending = 0
    }

    /// Stops the recorder with the error for `reason`, first cutting a partial line away.
    private func stop(because reason: String, partialLine: Bool) -> RecorderError {
        var reason = reason
        if partialLine, ftruncate(fd, length) != 0 {
            reason += "; the partial line could not be removed (\(String(cString: strerror(errno))))"
        }
        let error = RecorderError.cannotWrite(path: path, reason: reason)
        failure = error
        return error
    }

    /// Reads the samples with `from ≤ t ≤ to` back, row by row as written (one sample per row, not
    /// assembled: ``RecordingReader`` makes a recording into a filter's samples): every whole line,
    /// through ``IMUCSVReader/nextReadings()``, the reader of the recording format; a sensor whose
    /// cells are `nan` (or any of them not finite) reads as absent. A last line without its newline
    /// (a write cut short by a crash) is not read and is reported in
    /// ``RecordedSamples/partialLastLine``. The units are the header's (the recorder's own: s,
    /// rad/s, m/s² and µT), checked against the data as every reader checks them
    /// (``RecordingUnitCheck``: a source that gave, say, deg/s as rad/s is refused) unless
    /// `checksUnits` is false.
    ///
    /// - Throws: ``CSVError`` naming the line and column of any malformed whole line (a sensor with
    ///   only some of its cells empty is one), or ``CSVError/implausibleUnit(line:column:name:mismatch:source:)``.
    public static func read(
        path: String, from: Double = -.infinity, to: Double = .infinity, checksUnits: Bool = true
    ) throws(CSVError) -> RecordedSamples {
        let reader = try IMUCSVReader(path: path, checksUnits: checksUnits)
        func finite(_ v: SIMD3<Double>?) -> SIMD3<Double>? { v.flatMap { VectorCheck.isFinite($0) ? $0 : nil } }
        func nextRow() throws(CSVError) -> IMUReadingRow? {
            do {
                return try reader.nextReadings()
            } catch .noData {
                return nil  // a recording that has its header and no sample yet is empty, not broken
            }
        }
        var samples: [SensorSample] = []
        while let row = try nextRow() {
            guard row.timestamp >= from && row.timestamp <= to else { continue }
            samples.append(
                SensorSample(
                    timestamp: row.timestamp, gyroscope: finite(row.gyroscope),
                    accelerometer: finite(row.accelerometer), magnetometer: finite(row.magnetometer)))
        }
        return RecordedSamples(samples: samples, partialLastLine: reader.csv.partialLastLine)
    }

    /// Whether `text` (a last line without its newline) is a whole row of the recording format: the
    /// header's number of fields, each a number, `nan` or empty (a sensor's three all empty or
    /// none), the first a finite time.
    static func isWholeRow(_ text: String) -> Bool {
        var line = Substring(text)
        if line.last == "\r" { line = line.dropLast() }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == RecordingColumns.sensors.count, let t = Double(fields[0]), t.isFinite else { return false }
        guard fields.allSatisfy({ $0.isEmpty || Double($0) != nil }) else { return false }
        // Each sensor's three cells all empty or none (a cut after a comma leaves some empty).
        return stride(from: 1, to: fields.count, by: 3).allSatisfy { k in
            let empty = fields[k..<k + 3].filter(\.isEmpty).count
            return empty == 0 || empty == 3
        }
    }

    /// The text from byte `offset` to the end of the file, if it is at most 4 KiB (a row is far
    /// shorter).
    static func text(_ path: String, from offset: Int) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc_close(fd) }
        let size = Int(lseek(fd, 0, SEEK_END))
        guard size > offset, size - offset <= 4096 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size - offset)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
        guard n == bytes.count else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The latest time among the last whole rows (the last 4 KiB) of a recording that ends with a
    /// newline — a reading that arrived late is written at its own, older time; nil for a header
    /// alone or no finite time.
    static func lastTimestamp(_ path: String) -> Double? {
        let end = offsetAfterLastNewline(path)
        guard end > 0 else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc_close(fd) }
        let start = max(0, end - 4096)
        var bytes = [UInt8](repeating: 0, count: end - start)
        guard bytes.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, $0.count, off_t(start)) }) == bytes.count else { return nil }
        var lines = bytes.dropLast().split(separator: 10, omittingEmptySubsequences: true)
        if !lines.isEmpty { lines.removeFirst() }  // the header, or a line the chunk's start may cut
        let times = lines.compactMap { line in
            Double(String(decoding: line.prefix { $0 != UInt8(ascii: ",") }, as: UTF8.self))
        }.filter(\.isFinite)
        return times.max()
    }

    /// A file's modification time, s since 1970.
    static func modificationTime(_ info: stat) -> Double {
        #if canImport(Darwin)
            return Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) * 1e-9
        #else
            return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) * 1e-9
        #endif
    }

    /// The wall-clock time now, s since 1970.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// The length of the file up to and including its last newline (0 if it has none).
    private static func offsetAfterLastNewline(_ path: String) -> Int {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { Glibc_close(fd) }
        var end = Int(lseek(fd, 0, SEEK_END))
        var chunk = [UInt8](repeating: 0, count: 4096)
        while end > 0 {
            let start = max(0, end - chunk.count)
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, end - start, off_t(start)) }
            guard n == end - start else { return 0 }
            if let i = chunk[0..<n].lastIndex(of: UInt8(ascii: "\n")) { return start + i + 1 }
            end = start
        }
        return 0
    }

    private static func endsWithNewline(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return true }
        defer { Glibc_close(fd) }
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return true }
        var last: UInt8 = 0
        guard pread(fd, &last, 1, size - 1) == 1 else { return true }
        return last == UInt8(ascii: "\n")
    }
}

/// `read(2)` under a name that does not clash with ``MotionRecorder/read(path:from:to:checksUnits:)``.
@inline(__always) func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// `close(2)` under a name that does not clash with methods called `close`.
@inline(__always) func Glibc_close(_ fd: Int32) {
    _ = close(fd)
}

