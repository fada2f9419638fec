#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// A streaming reader of numeric CSV files with a header line: it reads the columns you ask for by
/// name, in any order, and ignores the others.
///
/// Accepted: a UTF-8 byte-order mark, LF or CRLF line ends, a missing final newline, blank lines
/// (skipped), surrounding spaces in header names, `nan`/`inf` spelled as `strtod` reads them.
/// Rejected with a ``CSVError`` naming line and column: an empty file, a missing or duplicated
/// required column, a line with a different number of fields than the header, a field that is not a
/// number (an empty field counts as not a number unless the column is read as optional), a line
/// longer than 1 MiB, a header with no data line.
///
/// The file is read in 256 KiB chunks, so memory stays flat however large it is.
public final class CSVReader {
    /// The header's column names, trimmed.
    public private(set) var header: [String] = []
    /// Bytes read so far, for progress reporting.
    public private(set) var bytesRead: Int = 0
    /// The file's size in bytes, if known.
    public let fileSize: Int?
    /// The line number of the last row returned (the header is line 1).
    public private(set) var lineNumber = 1

    private let file: UnsafeMutablePointer<FILE>
    private let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var rowsReturned = 0
    private var fieldStarts: [Int] = []
    private var fieldEnds: [Int] = []
    static let chunk = 256 * 1024
    static let maximumLine = 1024 * 1024

    /// Opens `path` and reads its header.
    ///
    /// - Throws: ``CSVError/unreadable(path:reason:)``, ``CSVError/empty``,
    ///   ``CSVError/lineTooLong(line:limit:)``.
    public init(path: String) throws(CSVError) {
        guard let file = fopen(path, "rb") else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        self.file = file
        self.path = path
        var info = stat()
        fileSize = fstat(fileno(file), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        buffer.reserveCapacity(Self.chunk * 2)
        var names: [String] = []
        if let line = try nextLine() {
            var bytes = Array(buffer[line.lowerBound..<line.upperBound])
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            names = bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self).trimmingSpaces()
            }
        }
        guard !names.isEmpty, names != [""] else { throw .empty }
        header = names
    }

    deinit { fclose(file) }

    /// The index of a column, or nil. Throws when the name appears more than once.
    ///
    /// The short names `t`, `gx…gz`, `ax…az`, `mx…mz` also match the descriptive headers of x-io's
    /// recordings — `Time (s)`, `Gyroscope X (deg/s)`, `Accelerometer X (g)`, `Magnetometer X (uT)` —
    /// compared without case and without the unit in parentheses (the unit itself is not read from
    /// the header: give it with the unit options).
    public func column(named name: String) throws(CSVError) -> Int? {
        var matches = header.indices.filter { header[$0] == name }
        if matches.isEmpty, let alias = Self.aliases[name] {
            matches = header.indices.filter { Self.normalized(header[$0]) == alias }
        }
        if matches.count > 1 { throw .duplicateColumn(name: name, column: matches[1] + 1) }
        return matches.first
    }

    static let aliases: [String: String] = [
        "t": "time", "gx": "gyroscope x", "gy": "gyroscope y", "gz": "gyroscope z",
        "ax": "accelerometer x", "ay": "accelerometer y", "az": "accelerometer z",
        "mx": "magnetometer x", "my": "magnetometer y", "mz": "magnetometer z",
    ]

    /// Lower case, without a trailing "(unit)", trimmed.
    static func normalized(_ name: String) -> String {
        var text = name.lowercased()
        if let open = text.lastIndex(of: "("), text.hasSuffix(")") { text = String(text[..<open]) }
        return text.trimmingSpaces()
    }

    /// The index of a required column.
    public func requiredColumn(named name: String) throws(CSVError) -> Int {
        guard let index = try column(named: name) else { throw .missingColumn(name: name) }
        return index
    }

    /// Reads the next data row into `values`: `values[i]` is the number in column `columns[i]`.
    /// Columns listed in `optional` may be empty; they then read as NaN. Returns false at the end of
    /// the file.
    ///
    /// - Throws: ``CSVError/wrongFieldCount(line:expected:found:)``,
    ///   ``CSVError/notANumber(line:column:name:text:)``, ``CSVError/lineTooLong(line:limit:)``,
    ///   ``CSVError/noData`` when the file ends before its first data row.
    public func nextRow(
        columns: [Int], into values: inout [Double], optional: Set<Int> = []
    ) throws(CSVError) -> Bool {
        while true {
            guard let line = try nextLine() else {
                if rowsReturned == 0 { throw .noData }
                return false
            }
            lineNumber += 1
            if line.isEmpty { continue }  // blank line
            try split(line)
            guard fieldStarts.count == header.count else {
                throw .wrongFieldCount(line: lineNumber, expected: header.count, found: fieldStarts.count)
            }
            if values.count != columns.count { values = [Double](repeating: 0, count: columns.count) }
            for (i, column) in columns.enumerated() {
                values[i] = try parse(column, isOptional: optional.contains(column))
            }
            rowsReturned += 1
            return true
        }
    }

    private func parse(_ column: Int, isOptional: Bool) throws(CSVError) -> Double {
        var lower = fieldStarts[column]
        var upper = fieldEnds[column]
        while lower < upper, buffer[lower] == 0x20 { lower += 1 }
        while upper > lower, buffer[upper - 1] == 0x20 { upper -= 1 }
        if lower == upper {
            if isOptional { return .nan }
            throw .notANumber(line: lineNumber, column: column + 1, name: header[column], text: "")
        }
        // strtod needs a terminator: the byte after the field (a comma, CR or the line's end) is
        // overwritten with 0 for the call and restored.
        let saved = buffer[upper]
        buffer[upper] = 0
        defer { buffer[upper] = saved }
        let value: Double? = buffer.withUnsafeMutableBufferPointer { bytes in
            let begin = UnsafeMutableRawPointer(bytes.baseAddress! + lower).assumingMemoryBound(to: CChar.self)
            var end: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(begin, &end)
            return end == begin + (upper - lower) ? value : nil
        }
        guard let value else {
            let text = String(decoding: buffer[lower..<upper].prefix(40), as: UTF8.self)
            throw .notANumber(line: lineNumber, column: column + 1, name: header[column], text: text)
        }
        return value
    }

    private func split(_ line: Range<Int>) throws(CSVError) {
        fieldStarts.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        var fieldStart = line.lowerBound
        var i = line.lowerBound
        while i < line.upperBound {
            if buffer[i] == UInt8(ascii: ",") {
                fieldStarts.append(fieldStart)
                fieldEnds.append(i)
                fieldStart = i + 1
            }
            i += 1
        }
        fieldStarts.append(fieldStart)
        fieldEnds.append(line.upperBound)
    }

    /// The next line's byte range in `buffer`, without its LF or CRLF; nil at the end. The byte at
    /// the range's upper bound exists (the buffer keeps one spare byte) so it can be overwritten.
    private func nextLine() throws(CSVError) -> Range<Int>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let range = start..<end
                start = newline + 1
                return range
            }
            if buffer.count - start > Self.maximumLine {
                throw .lineTooLong(line: lineNumber + 1, limit: Self.maximumLine)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                // A last line without newline: append one so the range has a spare byte after it.
                buffer.append(UInt8(ascii: "\n"))
                continue
            }
            // Move the unread tail to the front and read another chunk.
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: Self.chunk))
            let got = buffer.withUnsafeMutableBufferPointer { bytes in
                fread(bytes.baseAddress! + old, 1, Self.chunk, file)
            }
            buffer.removeLast(Self.chunk - got)
            bytesRead += got
            if got < Self.chunk {
                if ferror(file) != 0 {
                    throw .unreadable(path: path, reason: String(cString: strerror(errno)))
                }
                atEnd = true
            }
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let first = s.first, first == " " || first == "\t" || first == "\"" { s.removeFirst() }
        while let last = s.last, last == " " || last == "\t" || last == "\"" { s.removeLast() }
        return String(s)
    }
}
