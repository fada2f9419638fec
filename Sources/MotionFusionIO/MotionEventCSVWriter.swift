import MotionFusionCore

/// Writes ``MotionEvent`` rows as CSV — what `motion events` writes — through an ``OutputFile``
/// (as ``DeviceMotionCSVWriter`` does).
///
/// Columns: `t,event,value`: the time the event was recognized (seconds), its ``MotionEvent/name``
/// and its ``MotionEvent/value`` (empty for shakes).
public final class MotionEventCSVWriter {
    /// The header line, without newline.
    public static let header = "t,event,value"

    /// Where the rows go.
    public var file: OutputFile { sink.file }
    private let sink: CSVRowSink

    /// Writes the header to an open output.
    public init(file: OutputFile) {
        sink = CSVRowSink(file: file, header: Self.header)
    }

    /// Appends one row.
    public func write(_ event: MotionEvent) {
        guard sink.isOpen else { return }
        sink.buffer.number(event.timestamp)
        sink.buffer.append(UInt8(ascii: ","))
        sink.buffer.write(event.name)
        sink.buffer.append(UInt8(ascii: ","))
        sink.buffer.write(event.value)
        sink.buffer.append(UInt8(ascii: "\n"))
        sink.rowWritten()
    }

    /// Sends the rows written so far on to the file now (``OutputFile/flush()``).
    public func flush() { sink.flush() }

    /// Writes the last rows and finishes the file (``OutputFile/commit()``).
    ///
    /// - Throws: ``OutputFileError/cannotWrite(path:reason:)`` if writing, syncing or renaming
    ///   failed; the temporary file is removed then and the target is as it was.
    public func finish() throws(OutputFileError) { try sink.finish() }

    /// Stops: a temporary file is deleted and the target is untouched.
    public func abandon() { sink.abandon() }
}
