#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An output file that is never half written and never destroys data: a regular file is written
/// to a temporary file beside it and replaces it only in ``commit()``; standard output, devices
/// and FIFOs are written through.
///
/// What the path names decides how it is written:
///
/// | output path | what happens |
/// |---|---|
/// | no file yet, or a regular file with one link | written to a new temporary file in the same folder (a random name after the output's, created exclusively with mode 0600, never through a symbolic link), synced, given the permission bits of the file it replaces (and, for root, its owner and group; a new file gets 0666 less the umask), and renamed onto the path in ``commit()``; ``abandon()`` removes it and leaves the path as it was |
/// | `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` | that open descriptor (standard output for `-`), written through: the shell's redirection is kept, nothing is created or renamed |
/// | a character device or a FIFO (`/dev/null`, a named pipe), or a symbolic link to one | opened and written through, never replaced |
/// | a symbolic link to a regular file, or a dangling one | refused: ``OutputFileError/symbolicLink(path:)`` |
/// | a regular file with more than one hard link | refused: ``OutputFileError/hardLink(path:links:)`` |
/// | a directory, a block device, a socket | refused: ``OutputFileError/unsupportedFileType(path:type:)`` |
/// | one of `inputs` (the same device and inode, by any name or link) | refused: ``OutputFileError/sameAsInput(path:input:)`` |
///
/// A temporary file is removed by ``abandon()``, when the object is released, and, in a program
/// that called ``TemporaryFileCleanup/enable()`` (the `motion` tool does), when SIGINT, SIGTERM or
/// SIGHUP ends the process.
///
/// Every refusal comes from the initializer, before anything is created or written. Writes are
/// buffered; the first failure is remembered (later writes do nothing) and reported by
/// ``commit()`` as ``OutputFileError/cannotWrite(path:reason:)``. Output written through to a
/// device or descriptor cannot be taken back: ``abandon()`` only stops writing there.
///
/// `OutputFile` is a `TextOutputStream`: `print(…, to: &file)` and `value.write(to: &file)` append
/// text without making a `String` for numbers.
public final class OutputFile: TextOutputStream {
    /// How the output is written.
    public enum Mode: Sendable, Equatable {
        /// A temporary file in the output's folder, renamed onto the path in ``commit()``.
        case replace
        /// Straight to the open file, device, FIFO or descriptor.
        case writeThrough
    }

    /// The path as given.
    public let path: String
    /// How the output is written.
    public let mode: Mode
    /// The temporary file (`.replace` only).
    public let temporaryPath: String?

    /// The path as errors name it.
    private let name: String
    private var descriptor: Int32
    private let folder: String
    /// The permission bits, owner and group the finished file gets (`.replace` only).
    private let permissions: mode_t
    private let owner: (uid_t, gid_t)?
    private let isStandardStream: Bool
    private var buffer: ByteOutputBuffer
    private let bufferLimit: Int
    /// Why writing failed (the first failure), if it did.
    public private(set) var failure: String?
    /// The bytes handed to the file so far (those still buffered not counted).
    public private(set) var bytesWritten = 0
    private var state = State.open
    /// The temporary file's slot in ``TemporaryFileCleanup``, when it covers it.
    private var cleanupSlot: Int?

    private enum State { case open, committed, abandoned }

    /// Opens the output: checks what `path` names (see the table above), then creates the
    /// temporary file or opens the destination.
    ///
    /// - Parameters:
    ///   - path: the output; `-` is standard output.
    ///   - inputs: files the command reads; the output may be none of them.
    ///   - bufferSize: bytes collected before they go to the file.
    /// - Throws: ``OutputFileError`` for a refused or unwritable output; nothing was created.
    public init(path: String, inputs: [String] = [], bufferSize: Int = 64 * 1024) throws(OutputFileError) {
        self.path = path
        name = path == "-" ? "standard output" : path
        bufferLimit = max(bufferSize, 64)
        let (folder, base) = Self.split(path)
        self.folder = folder

        if let number = Self.openDescriptorNumber(path) {
            let fd = fcntl(number, F_DUPFD_CLOEXEC, 3)
            guard fd >= 0 else { throw .cannotCreate(path: name, reason: Self.reason(errno)) }
            var status = stat()
            if fstat(fd, &status) == 0, let input = Self.input(among: inputs, sameAs: status) {
                close(fd)
                throw .sameAsInput(path: name, input: input)
            }
            descriptor = fd
            mode = .writeThrough
            temporaryPath = nil
            isStandardStream = number <= 2
            (permissions, owner) = (0, nil)
            buffer = ByteOutputBuffer(capacity: bufferLimit)
            return
        }
        isStandardStream = false

        var link = stat()
        if lstat(path, &link) == 0 {
            var target = link
            if FileType(link.st_mode) == .symbolicLink {
                // Follow it only to see what it leads to.
                guard stat(path, &target) == 0 else { throw .symbolicLink(path: name) }
            }
            if let input = Self.input(among: inputs, sameAs: target) { throw .sameAsInput(path: name, input: input) }
            switch FileType(target.st_mode) {
            case .characterDevice, .fifo:
                descriptor = try Self.openThrough(path, name: name, following: FileType(link.st_mode) == .symbolicLink)
                mode = .writeThrough
                temporaryPath = nil
                (permissions, owner) = (0, nil)
                buffer = ByteOutputBuffer(capacity: bufferLimit)
                return
            case .regular where FileType(link.st_mode) == .symbolicLink: throw .symbolicLink(path: name)
            case .regular where link.st_nlink > 1: throw .hardLink(path: name, links: Int(link.st_nlink))
            case .regular:
                permissions = link.st_mode & 0o7777
                owner = geteuid() == 0 ? (link.st_uid, link.st_gid) : nil
            case .directory: throw .unsupportedFileType(path: name, type: "a directory")
            case .blockDevice: throw .unsupportedFileType(path: name, type: "a block device")
            case .socket: throw .unsupportedFileType(path: name, type: "a socket")
            case .symbolicLink, .other: throw .unsupportedFileType(path: name, type: "not a regular file")
            }
        } else if errno == ENOENT {
            permissions = 0o666 & ~Self.umask()
            owner = nil
        } else {
            throw .cannotCreate(path: name, reason: Self.reason(errno))
        }
        guard !base.isEmpty, base != ".", base != ".." else { throw .cannotCreate(path: name, reason: Self.reason(EISDIR)) }

        let (fd, temporary) = try Self.createTemporary(folder: folder, base: base, name: name)
        descriptor = fd
        temporaryPath = temporary
        mode = .replace
        buffer = ByteOutputBuffer(capacity: bufferLimit)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            cleanupSlot = TemporaryFileCleanup.register(temporary)
        }
    }

    /// Stops covering the temporary file on signals (it was renamed or removed).
    private func releaseCleanupSlot() {
        guard let slot = cleanupSlot else { return }
        cleanupSlot = nil
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { TemporaryFileCleanup.unregister(slot) }
    }

    deinit {
        abandon()
        buffer.deallocate()
    }

    /// Whether a write has failed (``commit()`` will throw).
    public var hasFailed: Bool { failure != nil }

    /// True when the output goes where standard output goes (`-`, `/dev/stdout`, or the device or
    /// FIFO standard output is open on), so that a command prints its messages elsewhere.
    public var writesToStandardOutput: Bool {
        guard mode == .writeThrough, let mine = Self.identity(of: descriptor) else { return false }
        return Self.identity(of: 1).map { $0 == mine } ?? false
    }

    /// True when both outputs end up in the same place: the same device, FIFO or descriptor's
    /// file, or the same path once its folder's links and `.`/`..` are resolved.
    public func isSameDestination(as other: OutputFile) -> Bool {
        switch (mode, other.mode) {
        case (.writeThrough, .writeThrough):
            guard let mine = Self.identity(of: descriptor), let theirs = Self.identity(of: other.descriptor) else { return false }
            return mine == theirs
        case (.replace, .replace):
            guard let mine = Self.resolvedTarget(path), let theirs = Self.resolvedTarget(other.path) else { return path == other.path }
            return mine == theirs
        default:
            return false
        }
    }

    /// The device and inode an open descriptor is on.
    private static func identity(of fd: Int32) -> [UInt64]? {
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    /// The output's path with its folder resolved (`realpath`), or nil if the folder cannot be.
    private static func resolvedTarget(_ path: String) -> String? {
        let (folder, base) = split(path)
        guard let resolved = realpath(folder, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + base
    }

    /// Appends bytes. After a failure, or after ``commit()`` or ``abandon()``, does nothing.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard state == .open, failure == nil, let base = bytes.baseAddress, bytes.count > 0 else { return }
        if buffer.count + bytes.count > bufferLimit { flush() }
        if bytes.count >= bufferLimit {
            put(base, bytes.count)
        } else {
            buffer.append(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count))
        }
    }

    /// Appends the text's UTF-8 bytes.
    public func write(_ string: String) {
        var string = string
        string.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Numbers' text, handed over by the standard library without making a `String`.
    public func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { write(UnsafeRawBufferPointer(buffer)) }

    /// Hands the buffered bytes to the file.
    public func flush() {
        guard buffer.count > 0 else { return }
        let contents = buffer.contents
        if state == .open, failure == nil, let base = contents.baseAddress { put(base, contents.count) }
        buffer.removeAll()
    }

    /// Finishes the output: flushes, and for a replaced file syncs it, gives it its permission bits
    /// (and owner), renames it onto the path and syncs the folder. Does nothing a second time.
    ///
    /// - Throws: ``OutputFileError/cannotWrite(path:reason:)`` if a write failed or finishing
    ///   fails; the temporary file is removed then and the path is as it was. A link that
    ///   appeared at the path meanwhile is refused as in the initializer.
    public func commit() throws(OutputFileError) {
        switch state {
        case .committed: return
        case .abandoned: throw .cannotWrite(path: name, reason: "the output was abandoned")
        case .open: break
        }
        flush()
        do throws(OutputFileError) {
            if let failure { throw .cannotWrite(path: name, reason: failure) }
            switch mode {
            case .writeThrough:
                var status = stat()
                if fstat(descriptor, &status) == 0, FileType(status.st_mode) == .regular, fsync(descriptor) != 0,
                    errno != EINVAL
                {
                    throw .cannotWrite(path: name, reason: Self.reason(errno))
                }
                let fd = descriptor
                descriptor = -1
                if close(fd) != 0 && errno != EINTR { throw .cannotWrite(path: name, reason: Self.reason(errno)) }
            case .replace:
                try finishTemporary()
            }
            state = .committed
        } catch {
            abandon()
            throw error
        }
    }

    /// Stops writing: closes the output and removes the temporary file, so a replaced file is as
    /// it was. (What went to a device or descriptor stays there.) Does nothing after ``commit()``.
    public func abandon() {
        guard state == .open else { return }
        state = .abandoned
        buffer.removeAll()
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if let temporaryPath { unlink(temporaryPath) }
        releaseCleanupSlot()
    }

    // MARK: Writing

    /// Writes all the bytes, remembering the first failure.
    private func put(_ base: UnsafeRawPointer, _ count: Int) {
        guard failure == nil else { return }
        // Text printed before (to the C library's buffer) goes first.
        if isStandardStream { fflush(nil) }
        var next = base
        var left = count
        while left > 0 {
            let written = systemWrite(descriptor, next, left)
            if written < 0 {
                if errno == EINTR { continue }
                failure = Self.reason(errno)
                return
            }
            next += written
            left -= written
            bytesWritten += written
        }
    }

    private func finishTemporary() throws(OutputFileError) {
        guard let temporaryPath else { return }
        if let (user, group) = owner, fchown(descriptor, user, group) != 0 {
            throw .cannotWrite(path: name, reason: "cannot keep the owner: \(Self.reason(errno))")
        }
        if fchmod(descriptor, permissions) != 0 {
            throw .cannotWrite(path: name, reason: "cannot set the permissions: \(Self.reason(errno))")
        }
        if fsync(descriptor) != 0 { throw .cannotWrite(path: name, reason: Self.reason(errno)) }
        let fd = descriptor
        descriptor = -1
        if close(fd) != 0 && errno != EINTR { throw .cannotWrite(path: name, reason: Self.reason(errno)) }
        // What is at the path now: the file seen when opening, or nothing; never a link to break.
        var now = stat()
        if lstat(path, &now) == 0 {
            if FileType(now.st_mode) == .symbolicLink { throw .symbolicLink(path: name) }
            if FileType(now.st_mode) == .regular && now.st_nlink > 1 { throw .hardLink(path: name, links: Int(now.st_nlink)) }
        }
        if rename(temporaryPath, path) != 0 { throw .cannotWrite(path: name, reason: Self.reason(errno)) }
        releaseCleanupSlot()
        // Make the rename itself durable; the file is in place whatever this says.
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    // MARK: Opening

    private enum FileType {
        case regular, directory, symbolicLink, characterDevice, blockDevice, fifo, socket, other

        init(_ mode: mode_t) {
            switch mode & 0o170000 {
            case 0o100000: self = .regular
            case 0o040000: self = .directory
            case 0o120000: self = .symbolicLink
            case 0o020000: self = .characterDevice
            case 0o060000: self = .blockDevice
            case 0o010000: self = .fifo
            case 0o140000: self = .socket
            default: self = .other
            }
        }
    }

    /// The descriptor a path names: `-` and `/dev/stdout` 1, `/dev/stderr` 2, `/dev/fd/N` and
    /// `/proc/self/fd/N` N.
    static func openDescriptorNumber(_ path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let number = Int32(path.dropFirst(prefix.count)), number >= 0 { return number }
            }
            return nil
        }
    }

    /// The input that is the file `status` describes. Character devices (a terminal, /dev/null)
    /// hold no data and may be both.
    private static func input(among inputs: [String], sameAs status: stat) -> String? {
        guard FileType(status.st_mode) != .characterDevice else { return nil }
        for input in inputs {
            var other = stat()
            if stat(input, &other) == 0, other.st_dev == status.st_dev, other.st_ino == status.st_ino { return input }
        }
        return nil
    }

    /// Opens a device or FIFO for writing through, and checks that it still is one.
    private static func openThrough(_ path: String, name: String, following: Bool) throws(OutputFileError) -> Int32 {
        var flags = O_WRONLY | O_NOCTTY | O_CLOEXEC
        if !following { flags |= O_NOFOLLOW }
        var fd: Int32
        repeat { fd = open(path, flags) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw .cannotCreate(path: name, reason: reason(errno)) }
        var status = stat()
        guard fstat(fd, &status) == 0, [.characterDevice, .fifo].contains(FileType(status.st_mode)) else {
            close(fd)
            throw .cannotCreate(path: name, reason: "it changed while being opened")
        }
        return fd
    }

    /// Creates `folder/base.tmp-XXXXXXXXXXXX` exclusively: never an existing file, never through a link.
    private static func createTemporary(folder: String, base: String, name: String) throws(OutputFileError) -> (Int32, String) {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        // Room for the suffix within the 255 bytes of a file name.
        var prefix = Substring(base)
        while prefix.utf8.count > 200 { prefix = prefix.dropLast() }
        let directory = folder == "/" ? "" : folder
        for _ in 0..<100 {
            let suffix = String(decoding: (0..<12).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
            let temporary = "\(directory)/\(prefix).tmp-\(suffix)"
            var fd: Int32
            repeat {
                fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            } while fd < 0 && errno == EINTR
            if fd >= 0 { return (fd, temporary) }
            if errno != EEXIST { throw .cannotCreate(path: name, reason: reason(errno)) }
        }
        throw .cannotCreate(path: name, reason: "no free temporary name in \(folder)")
    }

    /// The folder and the last component of a path (`.` for a bare name).
    static func split(_ path: String) -> (folder: String, base: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// The process's umask, from /proc/self/status (setting and restoring it would race with other
    /// threads creating files); 0o022 if that cannot be read.
    static func umask() -> mode_t {
        guard let file = fopen("/proc/self/status", "r") else { return 0o022 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("Umask:"), let mask = mode_t(text.dropFirst(6).filter { $0.isNumber }, radix: 8) {
                return mask & 0o777
            }
        }
        return 0o022
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// write(2), outside the class whose `write` methods would hide it.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
