#if canImport(CZlib)
    internal import CZlib
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(WASILibc)
    import WASILibc
#endif

/// The bytes of one input as ``CSVReader`` reads them: a file by path, standard input (`-`), or
/// bytes already in memory (a file's contents), plain or gzip-compressed — told apart by the first
/// two bytes (gzip's 1f 8b), whatever the name — and decompressed with zlib's stream API as they
/// arrive.
///
/// A build without zlib (the `CZlib` module; the WebAssembly build, whose page decompresses with the
/// browser's own gzip) reads plain input only: gzip-compressed input is
/// ``CSVError/unreadable(path:reason:)``. A build without a file system's C library (again the
/// WebAssembly build) reads only contents in memory: a path is unreadable there.
///
/// ``read(into:count:)`` returns what is there as soon as there is something: a pipe's or a FIFO's
/// bytes are handed on as they are written, not held until a buffer fills or the writer closes, so
/// that `producer | motion fuse - -o -` follows the producer. Before it would wait for a pipe,
/// ``whenWaiting`` is called (a command flushes its output there). A gzip file of several members
/// (`cat a.gz b.gz`) reads as their concatenation; bytes after the last member that do not start
/// another are ignored, as gzip and zlib's `gzread` do.
///
/// Errors are ``CSVError/unreadable(path:reason:)``: a read that fails, a compressed stream cut
/// short ("cut short") or corrupt, a bad check sum included ("corrupt").
final class ByteInput {
    /// The file's size in bytes: a regular file's, nil for a pipe, a FIFO or a terminal.
    let fileSize: Int?
    /// Bytes of the input consumed so far, for progress against ``fileSize``: of a compressed
    /// regular file the compressed bytes, otherwise the bytes returned.
    private(set) var progress = 0
    /// Called before a read that would wait for a pipe, FIFO or terminal (never for a regular file).
    var whenWaiting: (() -> Void)?

    /// The file's descriptor; −1 for contents in memory.
    private let descriptor: Int32
    private let path: String
    /// Contents in memory, and how many of them ``readSource(into:count:)`` has handed on.
    private let contents: [UInt8]
    private var contentsRead = 0
    /// Compressed bytes read and not yet inflated, or (before the first call decides the format, or
    /// of a plain input) bytes read and not yet returned: `pending[pendingStart..<pendingEnd]`.
    private let pending: UnsafeMutablePointer<UInt8>
    private var pendingStart = 0
    private var pendingEnd = 0
    #if canImport(CZlib)
        /// zlib's state, at an address that stays put (zlib checks that it does).
        private let stream: UnsafeMutablePointer<z_stream>
    #endif
    private var format = Format.undecided
    /// The descriptor gave its end of file.
    private var sourceEnded = false
    /// A gzip member ended and whether another follows is not yet known.
    private var memberEnded = false
    /// zlib's inflate state is set up (and must be ended).
    private var inflating = false

    private enum Format { case undecided, plain, gzip, finished }
    private static let pendingCapacity = 64 * 1024

    /// Opens `path` (`-`: a duplicate of standard input's descriptor, so that closing this leaves
    /// standard input open).
    init(path: String) throws(CSVError) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            let descriptor = path == "-" ? dup(0) : open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw .unreadable(path: path, reason: reason)
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                close(descriptor)
                throw .unreadable(path: path, reason: String(cString: strerror(EISDIR)))
            }
            fileSize = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
            self.descriptor = descriptor
            self.path = path
            contents = []
            pending = .allocate(capacity: Self.pendingCapacity)
            #if canImport(CZlib)
                stream = .allocate(capacity: 1)
                stream.initialize(to: z_stream())
            #endif
        #else
            throw .unreadable(path: path, reason: "this build reads no files, only contents in memory")
        #endif
    }

    /// Reads `contents`, a file's bytes in memory, named `name` in errors: as a regular file of
    /// that size.
    init(name: String, contents: [UInt8]) {
        fileSize = contents.count
        descriptor = -1
        path = name
        self.contents = contents
        pending = .allocate(capacity: Self.pendingCapacity)
        #if canImport(CZlib)
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
        #endif
    }

    deinit {
        #if canImport(CZlib)
            if inflating { inflateEnd(stream) }
            stream.deinitialize(count: 1)
            stream.deallocate()
        #endif
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            if descriptor >= 0 { close(descriptor) }
        #endif
        pending.deallocate()
    }

    /// Reads up to `count` (> 0) bytes of text into `destination` and returns how many: 0 only at
    /// the end of the input. Waits only while nothing at all can be returned.
    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws(CSVError) -> Int {
        if format == .undecided { try decide() }
        switch format {
        case .undecided, .finished:
            return 0
        case .plain:
            let got: Int
            if pendingStart < pendingEnd {
                got = min(count, pendingEnd - pendingStart)
                destination.update(from: pending + pendingStart, count: got)
                pendingStart += got
            } else if sourceEnded {
                got = 0
            } else {
                got = try readSource(into: destination, count: count)
            }
            progress += got
            return got
        case .gzip:
            #if canImport(CZlib)
                return try inflate(into: destination, count: count)
            #else
                return 0
            #endif
        }
    }

    /// Reads the first bytes (two, or fewer at the end) and settles the format.
    private func decide() throws(CSVError) {
        try fillPending(atLeast: 2)
        let available = pendingEnd - pendingStart
        guard available >= 2, pending[pendingStart] == 0x1F, pending[pendingStart + 1] == 0x8B else {
            format = .plain
            return
        }
        #if canImport(CZlib)
            // 15 + 16: a gzip header and trailer (its CRC-32 and length checked) around a 32 KiB window.
            let status = inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else { throw .unreadable(path: path, reason: Self.reason(status, stream.pointee.msg)) }
            inflating = true
            format = .gzip
        #else
            throw .unreadable(path: path, reason: "it is gzip-compressed and this build has no zlib: decompress it first")
        #endif
    }

    #if canImport(CZlib)

    /// Inflates what it can into `destination`, reading more compressed bytes only when it must:
    /// zlib may hold output back when the last call filled `destination` (the rest of a match),
    /// so it is asked first with the input it has, even none.
    private func inflate(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws(CSVError) -> Int {
        if memberEnded, try !nextMember() { return 0 }
        let room = min(count, Int(UInt32.max))
        while true {
            let before = pendingEnd - pendingStart
            stream.pointee.next_in = pending + pendingStart
            stream.pointee.avail_in = UInt32(before)
            stream.pointee.next_out = destination
            stream.pointee.avail_out = UInt32(room)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let consumed = before - Int(stream.pointee.avail_in)
            pendingStart += consumed
            let produced = room - Int(stream.pointee.avail_out)
            progress += fileSize != nil ? consumed : produced
            switch status {
            case Z_OK, Z_BUF_ERROR:
                if produced > 0 { return produced }
                // Nothing came out: zlib needs more input.
                if pendingStart == pendingEnd {
                    if sourceEnded {
                        throw .unreadable(path: path, reason: "the gzip stream is cut short (the compressed file is truncated)")
                    }
                    try fillPending(atLeast: 1)
                }
            case Z_STREAM_END:
                // What the member ended with goes out first: whether another follows may mean
                // waiting for the writer.
                memberEnded = true
                if produced > 0 { return produced }
                if try !nextMember() { return 0 }
            case Z_MEM_ERROR:
                throw .unreadable(path: path, reason: "out of memory while decompressing")
            default:
                throw .unreadable(path: path, reason: "the gzip stream is corrupt (\(Self.reason(status, stream.pointee.msg)))")
            }
        }
    }

    /// After a gzip member's end: true when another member follows (the stream is reset for it);
    /// false when the input ends, or what follows is not a member (ignored).
    private func nextMember() throws(CSVError) -> Bool {
        memberEnded = false
        try fillPending(atLeast: 2)
        if pendingEnd - pendingStart >= 2, pending[pendingStart] == 0x1F, pending[pendingStart + 1] == 0x8B {
            inflateReset(stream)
            return true
        }
        // The rest (not another member) is ignored: progress counts it as read.
        format = .finished
        if let fileSize { progress = fileSize }
        return false
    }

    #endif

    /// Reads until `pending` holds at least `minimum` bytes or the source ends, moving the unread
    /// bytes to the front first.
    private func fillPending(atLeast minimum: Int) throws(CSVError) {
        if pendingStart > 0 {
            let unread = pendingEnd - pendingStart
            if unread > 0 { memmove(pending, pending + pendingStart, unread) }
            pendingEnd = unread
            pendingStart = 0
        }
        while pendingEnd < minimum && !sourceEnded {
            let got = try readSource(into: pending + pendingEnd, count: Self.pendingCapacity - pendingEnd)
            if got == 0 { sourceEnded = true }
            pendingEnd += got
        }
    }

    /// One read(2) of the descriptor (again when a signal interrupts it); 0 at its end. Calls
    /// ``whenWaiting`` first when a pipe has nothing to give yet. Of contents in memory, the next
    /// `count` bytes (or what is left).
    private func readSource(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws(CSVError) -> Int {
        if descriptor < 0 {
            let got = min(count, contents.count - contentsRead)
            contents.withUnsafeBufferPointer { destination.update(from: $0.baseAddress! + contentsRead, count: got) }
            contentsRead += got
            return got
        }
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            return try readDescriptor(into: destination, count: count)
        #else
            return 0
        #endif
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    private func readDescriptor(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws(CSVError) -> Int {
        if let whenWaiting, fileSize == nil {
            // Unless the descriptor has bytes or its end ready (poll may also fail, or not serve
            // terminals, as on Darwin: then the read may wait, so the hook runs).
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 0) != 1 || ready.revents & Int16(POLLIN | POLLHUP) == 0 { whenWaiting() }
        }
        while true {
            let got = systemRead(descriptor, destination, count)
            if got >= 0 { return got }
            if errno == EINTR { continue }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
    }
    #endif

    #if canImport(CZlib)
    /// zlib's words for a status, or its code.
    private static func reason(_ status: Int32, _ message: UnsafePointer<CChar>?) -> String {
        if let message { return String(cString: message) }
        switch status {
        case Z_DATA_ERROR: return "invalid compressed data"
        case Z_NEED_DICT: return "a preset dictionary is needed"
        case Z_VERSION_ERROR: return "zlib version mismatch"
        default: return "zlib error \(status)"
        }
    }
    #endif
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// read(2), named apart from ``ByteInput/read(into:count:)``.
    private func systemRead(_ descriptor: Int32, _ destination: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        read(descriptor, destination, count)
    }
#endif
