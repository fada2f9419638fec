#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small sysfs helpers over the C library (no Foundation).
enum IIOFiles {
    /// Sysfs attribute files are at most a page; anything much larger is not one.
    static let maximumSize = 64 * 1024

    /// The names in the folder `path`, without `.` and `..`.
    static func entries(of path: String) throws(IIOError) -> [String] {
        guard let directory = opendir(path) else {
            let code = errno
            if code == ENOENT { throw .missingFile(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The whole text of the file at `path`, or nil when it does not exist.
    static func text(at path: String) throws(IIOError) -> String? {
        guard let file = fopen(path, "rb") else {
            let code = errno
            if code == ENOENT { return nil }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > maximumSize {
                throw .unreadable(path: path, reason: "larger than \(maximumSize) bytes")
            }
            if count < chunk.count {
                if ferror(file) != 0 {
                    throw .unreadable(path: path, reason: String(cString: strerror(errno)))
                }
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The finite number held by the file at `path`, or nil when the file does not exist.
    static func number(at path: String) throws(IIOError) -> Double? {
        guard let text = try text(at: path) else { return nil }
        let trimmed = text.trimmingIIOSpace()
        guard let value = Double(trimmed), value.isFinite else {
            throw .notANumber(path: path, text: trimmed)
        }
        return value
    }

    /// The scale and offset of one axis of a channel, as the kernel's IIO ABI gives them: the
    /// axis's own `in_<type>_<axis>_scale` or the channel's shared `in_<type>_scale` (one of the two
    /// must exist), and likewise the offset, 0 when neither file exists. A value is
    /// `(raw + offset) × scale`. `prefix` is the device folder and `in_<type>`.
    static func scaleAndOffset(prefix: String, axis: String) throws(IIOError) -> (scale: Double, offset: Double) {
        let scale: Double
        if let own = try number(at: "\(prefix)_\(axis)_scale") {
            scale = own
        } else if let shared = try number(at: "\(prefix)_scale") {
            scale = shared
        } else {
            throw .missingFile(path: "\(prefix)_scale")
        }
        var offset = 0.0
        if let own = try number(at: "\(prefix)_\(axis)_offset") {
            offset = own
        } else if let shared = try number(at: "\(prefix)_offset") {
            offset = shared
        }
        return (scale, offset)
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs, CR and LF.
    func trimmingIIOSpace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }),
            let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
