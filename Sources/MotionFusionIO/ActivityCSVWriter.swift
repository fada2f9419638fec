import MotionFusionCore

/// Writes activity reports as CSV — what `motion activity` writes — through an ``OutputFile`` (as
/// ``StepCSVWriter`` does).
///
/// Columns: `t,activity,confidence,start`: when the report was made (seconds, the recording's time
/// base: the reading that changed the activity or its confidence), the activity (`unknown`,
/// `stationary`, `walking`, `running`), its confidence (`low`, `medium`, `high`) and when the
/// activity began (s; at or before `t`).
public final class ActivityCSVWriter {
    /// The header line, without newline.
    public static let header = "t,activity,confidence,start"

    /// Where the rows go.
    public var file: OutputFile { sink.file }
    private let sink: CSVRowSink

    /// Writes the header to an open output.
    public init(file: OutputFile) {
        sink = CSVRowSink(file: file, header: Self.header)
    }

    /// Appends one row.
    public func write(_ report: ActivityReport) {
        guard sink.isOpen else { return }
        sink.buffer.number(report.reportTime)
        sink.buffer.append(UInt8(ascii: ","))
        sink.buffer.write(report.kind.description)
        sink.buffer.append(UInt8(ascii: ","))
        sink.buffer.write(report.confidence.description)
        sink.buffer.field(report.startTime)
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
