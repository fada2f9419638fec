/// A last line without its newline: a line cut short (a write interrupted by a crash, a full disk
/// or a copy still in progress), which `CSVReader` (MotionFusionIO) does not read. A line is whole only with its
/// newline: a cut can fall inside the last number (`-40.14` cut to `-4`), where the remaining text
/// would still read as a number, so no cut line is ever guessed at.
public struct CSVPartialLine: Sendable, Hashable, CustomStringConvertible {
    /// The line's number (the file's first line is 1; the header is line 1 unless blank lines precede it).
    public var line: Int
    /// Its length in bytes.
    public var byteCount: Int

    public init(line: Int, byteCount: Int) {
        self.line = line
        self.byteCount = byteCount
    }

    /// e.g. `line 5302 has no newline (37 bytes, cut short?): it was not read`.
    public var description: String {
        "line \(line) has no newline (\(byteCount) bytes, cut short?): it was not read"
    }
}
