import MotionFusionCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#elseif canImport(WASILibc)
    import WASILibc
#endif

/// A streaming reader of numeric CSV files with a header line: it reads the columns you ask for by
/// name, in any order, and ignores the others.
///
/// Accepted: a UTF-8 byte-order mark, LF or CRLF line ends, blank lines (skipped, before the header
/// too: line numbers count them, and the header is then not line 1), surrounding
/// spaces in header names, `nan`/`inf` spelled as `strtod` reads them. A gzip-compressed file (or
/// standard input) is decompressed as it is read, whatever its name (told by its first two bytes);
/// a compressed stream that is cut short or corrupt is an error naming the file, never a shorter
/// recording. A pipe's rows are returned as soon as they arrive (see ``whenWaiting``).
///
/// A line is whole only with its newline. A last data line without one is a line cut short (a
/// crash or a full disk in the middle of a write; the cut may fall inside a number, leaving text
/// that still parses): it is not read, and once the reader reaches the end ``partialLastLine``
/// names it, so that callers report the cut. (A header without a newline, with no data after it, is
/// still a header; a last line of only spaces or a CR is a blank line.)
/// Rejected with a ``CSVError`` naming line and column: an empty file, a missing or duplicated
/// required column, a line with a different number of fields than the header, a field that is not a
/// number (an empty field counts as not a number unless the column is read as optional), a line
/// longer than 1 MiB, a header with no data line.
///
/// The file is read in 256 KiB chunks into one reused buffer, so memory stays flat however large it
/// is, and reading a row allocates nothing. Numbers are read by a correctly rounded decimal parser
/// (the same `Double` as `strtod`, to the last bit), with `strtod` itself for the spellings that
/// parser leaves to it.
public final class CSVReader {
    /// The header's column names, trimmed.
    @exclusivity(unchecked) public private(set) var header: [String] = []
    /// Bytes read so far, for progress reporting against ``fileSize``: of a compressed regular file,
    /// the compressed bytes; otherwise (a plain file, standard input) the bytes of text.
    @exclusivity(unchecked) public private(set) var bytesRead: Int = 0
    /// The file's size in bytes, if known: a regular file's, not for standard input or a pipe.
    public let fileSize: Int?
    /// The line number of the last row returned (the file's first line is 1; the header is line 1 unless blank lines precede it).
    @exclusivity(unchecked) public private(set) var lineNumber = 0  // 1 once the header is read
    /// The header's line: 1, unless blank lines precede it.
    public private(set) var headerLine = 1
    /// The last line, when it has no newline and so was not read (see the type's description); set
    /// once the reader has reached the end of the file.
    public private(set) var partialLastLine: CSVPartialLine?

    private let input: ByteInput
    /// The bytes read and not yet consumed are `buffer[start..<end]`; `capacity` bytes are allocated.
    // Unchecked exclusivity (see IMUCSVReader): one thread, no reentrant access.
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEnd = false
    @exclusivity(unchecked) private var rowsReturned = 0
    /// Lines read while looking for the header (blank ones before it).
    @exclusivity(unchecked) private var linesBeforeHeader = 0
    /// The current line's fields (at most `header.count` are recorded) and how many it has.
    @exclusivity(unchecked) private var fieldStarts: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var fieldEnds: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var fieldCapacity = 0
    @exclusivity(unchecked) private var fieldCount = 0
    static let chunk = 256 * 1024
    static let maximumLine = 1024 * 1024

    /// Opens `path` and reads its header.
    ///
    /// - Throws: ``CSVError/unreadable(path:reason:)``, ``CSVError/empty``,
    ///   ``CSVError/lineTooLong(line:limit:)``.
    public convenience init(path: String) throws(CSVError) {
        // `-` is standard input (a duplicate of its descriptor, so that closing the reader leaves it open).
        try self.init(input: ByteInput(path: path))
    }

    /// Reads `contents`, a file's bytes in memory (plain, or gzip-compressed where the build has
    /// zlib), and its header; `name` stands for the path in errors.
    ///
    /// - Throws: as ``init(path:)``.
    public convenience init(name: String, contents: [UInt8]) throws(CSVError) {
        try self.init(input: ByteInput(name: name, contents: contents))
    }

    private init(input: ByteInput) throws(CSVError) {
        self.input = input
        fileSize = input.fileSize
        capacity = Self.chunk * 2
        buffer = .allocate(capacity: capacity)
        fieldStarts = .allocate(capacity: 1)
        fieldEnds = .allocate(capacity: 1)
        fieldCapacity = 1
        var names: [String] = []
        // The header is the first line that is not blank (blank lines before it are skipped and
        // counted, as after it).
        var lines = 0
        while names.isEmpty, let line = try nextLine() {
            lines += 1
            linesBeforeHeader = lines
            var bytes = Array(UnsafeBufferPointer(start: buffer + line.lowerBound, count: line.count))
            if lines == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            names = bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self).trimmingSpaces()
            }
        }
        lineNumber = max(lines, 1)
        headerLine = lineNumber
        guard !names.isEmpty, names != [""] else { throw .empty }
        header = names
        fieldStarts.deallocate()
        fieldEnds.deallocate()
        fieldCapacity = names.count
        fieldStarts = .allocate(capacity: fieldCapacity)
        fieldEnds = .allocate(capacity: fieldCapacity)
    }

    /// Called when the reader is about to wait for a pipe, FIFO or terminal that has nothing to
    /// give yet (never for a regular file): a command that writes as it reads flushes its output
    /// there, so that a live pipeline's results come out as its input goes in.
    public var whenWaiting: (() -> Void)? {
        get { input.whenWaiting }
        set { input.whenWaiting = newValue }
    }

    deinit {
        buffer.deallocate()
        fieldStarts.deallocate()
        fieldEnds.deallocate()
    }

    /// The index of a column, or nil. Throws when the name appears more than once.
    ///
    /// A header matches `name` when it is `name` exactly, or `name` followed by a unit in
    /// parentheses or brackets (`gx (deg/s)`, `gx[deg/s]`; see ``splitUnit(_:)``). The short names
    /// `t`, `gx…gz`, `ax…az`, `mx…mz` also match the descriptive headers of x-io's recordings —
    /// `Time (s)`, `Gyroscope X (deg/s)`, `Accelerometer X (g)`, `Magnetometer X (uT)` — compared
    /// without case. The unit is not read here: ``unit(ofColumn:)`` gives its text, and
    /// ``IMUCSVReader`` converts or refuses it.
    public func column(named name: String) throws(CSVError) -> Int? {
        let alias = RecordingColumns.longName(of: name)
        let matches = header.indices.filter { index in
            if header[index] == name { return true }
            let base = Self.splitUnit(header[index]).name
            return base == name || (alias != nil && base.lowercased() == alias)
        }
        if matches.count > 1 { throw .duplicateColumn(line: headerLine, name: name, column: matches[1] + 1) }
        return matches.first
    }

    /// The unit written in a column's header (see ``splitUnit(_:)``), or nil when it has none.
    /// `index` is 0-based, as ``column(named:)`` returns it.
    public func unit(ofColumn index: Int) -> String? {
        Self.splitUnit(header[index]).unit
    }

    /// Where the unit of the column at `index` (0-based) comes from: its header when it writes
    /// one, else the reader's caller when `given`, else the library.
    public func unitSource(ofColumn index: Int, given: Bool) -> CSVError.UnitSource {
        unit(ofColumn: index) != nil ? .header : given ? .given : .library
    }

    /// The unit of the columns at `columns` (0-based; the axes of one sensor, or the one time
    /// column), from their headers and the unit given:
    ///
    /// - the header's unit when the columns give one, the same for all (`deg/s` and `dps` are the
    ///   same unit); `given` must then be nil or that unit;
    /// - else `given`, else the library's unit (``HeaderUnit/libraryUnit``).
    ///
    /// - Throws: ``CSVError/unknownUnit(line:quantity:column:name:unit:)`` for a header unit that
    ///   `Unit(headerText:)` does not read,
    ///   ``CSVError/mixedUnits(line:quantity:column:name:unit:otherColumn:otherName:otherUnit:)`` when
    ///   the columns differ (one without a unit counts), and
    ///   ``CSVError/unitContradiction(line:quantity:column:name:header:given:)`` when `given` differs
    ///   from the header's.
    public func unit<Unit: HeaderUnit>(ofColumns columns: [Int], given: Unit?) throws(CSVError) -> Unit {
        precondition(!columns.isEmpty, "no columns")
        let texts = columns.map { unit(ofColumn: $0) }
        var units: [Unit?] = []
        for (column, text) in zip(columns, texts) {
            guard let text else {
                units.append(nil)
                continue
            }
            guard let unit = Unit(headerText: text) else {
                throw .unknownUnit(line: headerLine, quantity: Unit.quantity, column: column + 1, name: header[column], unit: text)
            }
            units.append(unit)
        }
        for k in units.indices.dropFirst() where units[k] != units[0] {
            throw .mixedUnits(
                line: headerLine, quantity: Unit.quantity, column: columns[k] + 1, name: header[columns[k]], unit: texts[k],
                otherColumn: columns[0] + 1, otherName: header[columns[0]], otherUnit: texts[0])
        }
        guard let written = units[0], let text = texts[0] else { return given ?? Unit.libraryUnit }
        if let given, given != written {
            throw .unitContradiction(
                line: headerLine, quantity: Unit.quantity, column: columns[0] + 1, name: header[columns[0]], header: text,
                given: given.rawValue)
        }
        return written
    }

    /// A header name split into the name and the unit written after it in parentheses or
    /// brackets, both trimmed of spaces: `Gyroscope X (deg/s)` gives (`Gyroscope X`, `deg/s`),
    /// `gx[deg/s]` gives (`gx`, `deg/s`), `gx ()` gives (`gx`, an empty unit). A header without a final
    /// `(…)` or `[…]`, or with nothing before it, is all name, with a unit of nil.
    public static func splitUnit(_ header: String) -> (name: String, unit: String?) {
        let text = header.trimmingSpaces()
        for (open, close) in [("(", ")"), ("[", "]")] as [(Character, Character)] where text.last == close {
            guard let start = text.lastIndex(of: open) else { break }
            let name = String(text[..<start]).trimmingSpaces()
            guard !name.isEmpty else { break }
            let unit = String(text[text.index(after: start)..<text.index(before: text.endIndex)]).trimmingSpaces()
            return (name, unit)
        }
        return (text, nil)
    }

    /// The index of a required column.
    public func requiredColumn(named name: String) throws(CSVError) -> Int {
        guard let index = try column(named: name) else { throw .missingColumn(line: headerLine, name: name, found: header) }
        return index
    }

    /// Reads the next data row into `values`: `values[i]` is the number in column `columns[i]`.
    /// Columns listed in `optional` may be empty; they then read as NaN. Returns false at the end of
    /// the file.
    ///
    /// - Throws: ``CSVError/wrongFieldCount(line:expected:found:)``,
    ///   ``CSVError/notANumber(line:column:name:text:)``, ``CSVError/lineTooLong(line:limit:)``,
    ///   ``CSVError/noData(line:)`` when the file ends before its first data row.
    public func nextRow(
        columns: [Int], into values: inout [Double], optional: Set<Int> = []
    ) throws(CSVError) -> Bool {
        guard try nextFields() else { return false }
        if values.count != columns.count { values = [Double](repeating: 0, count: columns.count) }
        try values.withUnsafeMutableBufferPointer { (values) throws(CSVError) in
            for i in values.indices {
                let column = columns[i]
                precondition(column >= 0 && column < fieldCount, "column \(column) is not in the header")
                values[i] = try parse(column, optional: optional)
            }
        }
        rowsReturned += 1
        return true
    }

    /// Reads the next data row's fields without reading their numbers (for a quick scan; then
    /// ``fieldIsEmpty(_:)``). Returns false at the end of the file.
    ///
    /// - Throws: ``CSVError/wrongFieldCount(line:expected:found:)``,
    ///   ``CSVError/lineTooLong(line:limit:)``, ``CSVError/noData(line:)`` when the file ends before its
    ///   first data row.
    public func skipRow() throws(CSVError) -> Bool {
        guard try nextFields() else { return false }
        rowsReturned += 1
        return true
    }

    /// Whether the field in `column` (0-based) of the row last returned by
    /// ``nextRow(columns:into:optional:)`` or ``skipRow()`` is empty or only spaces (an optional column read as NaN
    /// for it, where a `nan` field also reads as NaN).
    public func fieldIsEmpty(_ column: Int) -> Bool {
        precondition(column >= 0 && column < min(fieldCount, fieldCapacity), "column \(column) is not in the row")
        return field(column).isEmpty
    }

    /// Finds the next data row's fields (``split(_:)``), skipping blank lines and counting every
    /// line; false at the end of the file. The caller counts the row in `rowsReturned` once it
    /// has taken it.
    ///
    /// - Throws: ``CSVError/wrongFieldCount(line:expected:found:)``,
    ///   ``CSVError/lineTooLong(line:limit:)``, ``CSVError/noData(line:)`` when the file ends before its
    ///   first data row.
    private func nextFields() throws(CSVError) -> Bool {
        while true {
            guard let line = try nextLine() else {
                if rowsReturned == 0 { throw .noData(line: headerLine + 1) }
                return false
            }
            lineNumber += 1
            if line.isEmpty { continue }  // blank line
            split(line)
            guard fieldCount == header.count else {
                throw .wrongFieldCount(line: lineNumber, expected: header.count, found: fieldCount)
            }
            return true
        }
    }

    /// The byte range in `buffer` of the field in `column` of the current row, without the spaces
    /// before and after it.
    private func field(_ column: Int) -> Range<Int> {
        let buffer = self.buffer
        var lower = fieldStarts[column]
        var upper = fieldEnds[column]
        while lower < upper, buffer[lower] == 0x20 { lower += 1 }
        while upper > lower, buffer[upper - 1] == 0x20 { upper -= 1 }
        return lower..<upper
    }

    private func parse(_ column: Int, optional: Set<Int>) throws(CSVError) -> Double {
        let buffer = self.buffer
        let trimmed = field(column)
        let (lower, upper) = (trimmed.lowerBound, trimmed.upperBound)
        if lower == upper {
            if optional.contains(column) { return .nan }
            throw .notANumber(line: lineNumber, column: column + 1, name: header[column], text: "")
        }
        if let value = DecimalParser.parse(buffer + lower, count: upper - lower) { return value }
        // Everything else goes to strtod, which needs a terminator: the byte after the field (a
        // comma, CR or the line's end) is overwritten with 0 for the call and restored.
        let saved = buffer[upper]
        buffer[upper] = 0
        defer { buffer[upper] = saved }
        let begin = UnsafeMutableRawPointer(buffer + lower).assumingMemoryBound(to: CChar.self)
        var stop: UnsafeMutablePointer<CChar>? = nil
        let value = strtod(begin, &stop)
        guard stop == begin + (upper - lower) else {
            let text = String(decoding: UnsafeBufferPointer(start: buffer + lower, count: min(upper - lower, 40)), as: UTF8.self)
            throw .notANumber(line: lineNumber, column: column + 1, name: header[column], text: text)
        }
        return value
    }

    /// Finds the fields of `line`: records the first `fieldCapacity` and counts them all.
    private func split(_ line: Range<Int>) {
        let buffer = self.buffer, fieldStarts = self.fieldStarts, fieldEnds = self.fieldEnds
        let fieldCapacity = self.fieldCapacity
        var count = 0
        var fieldStart = line.lowerBound
        var i = line.lowerBound
        let upper = line.upperBound
        while i < upper {
            if buffer[i] == UInt8(ascii: ",") {
                if count < fieldCapacity {
                    fieldStarts[count] = fieldStart
                    fieldEnds[count] = i
                }
                count += 1
                fieldStart = i + 1
            }
            i += 1
        }
        if count < fieldCapacity {
            fieldStarts[count] = fieldStart
            fieldEnds[count] = upper
        }
        fieldCount = count + 1
    }

    /// The next line's byte range in `buffer`, without its LF or CRLF; nil at the end. The byte at
    /// the range's upper bound exists (the LF, or the CR before it) so it can be overwritten.
    private func nextLine() throws(CSVError) -> Range<Int>? {
        while true {
            if start < end, let found = memchr(buffer + start, Int32(UInt8(ascii: "\n")), end - start) {
                let newline = buffer.distance(to: found.assumingMemoryBound(to: UInt8.self))
                var last = newline
                if last > start, buffer[last - 1] == UInt8(ascii: "\r") { last -= 1 }
                let range = start..<last
                start = newline + 1
                return range
            }
            if end - start > Self.maximumLine {
                throw .lineTooLong(line: (lineNumber == 0 ? linesBeforeHeader : lineNumber) + 1, limit: Self.maximumLine)
            }
            if atEnd {
                guard start < end else { return nil }
                if lineNumber > 0 {
                    // A data line without its newline: cut short, never read (see the type's
                    // description); only spaces and a CR make it a blank line.
                    let blank = (start..<end).allSatisfy { buffer[$0] == 0x20 || buffer[$0] == 0x0D }
                    if !blank { partialLastLine = CSVPartialLine(line: lineNumber + 1, byteCount: end - start) }
                    start = end
                    return nil
                }
                // A header alone without its newline: append one, so it ends like every line.
                reserve(1)
                buffer[end] = UInt8(ascii: "\n")
                end += 1
                continue
            }
            // Move the unread tail to the front and read another chunk.
            if start > 0 {
                if end > start { memmove(buffer, buffer + start, end - start) }
                end -= start
                start = 0
            }
            reserve(Self.chunk)
            let got = try input.read(into: buffer + end, count: Self.chunk)
            end += got
            bytesRead = input.progress
            if got == 0 { atEnd = true }
        }
    }

    /// Makes room for `count` more bytes after `end` (only a line longer than a chunk grows it).
    private func reserve(_ count: Int) {
        guard end + count > capacity else { return }
        let larger = max(capacity * 2, end + count)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: buffer, count: end)
        buffer.deallocate()
        buffer = moved
        capacity = larger
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
