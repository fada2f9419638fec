/// Writes detected steps as CSV — what `motion steps` writes — through an ``OutputFile`` (as
/// ``MotionEventCSVWriter`` does).
///
/// Columns: `t,steps,cadence`: the step's time (seconds, the recording's time base), the number of
/// steps counted up to and including it, and the cadence when it was counted (steps per second,
/// the inverse of the detector's step period; `nan` when the walk ended with the reading that
/// reported the step).
public final class StepCSVWriter {
    /// The header line, without newline.
    public static let header = "t,steps,cadence"

    /// Where the rows go.
    public var file: OutputFile { sink.file }
    private let sink: CSVRowSink

    /// Writes the header to an open output.
    public init(file: OutputFile) {
        sink = CSVRowSink(file: file, header: Self.header)
    }

    /// Appends one row: a step at `time` s, the `count`th, counted at `cadence` steps/s.
    public func write(time: Double, count: Int, cadence: Double) {
        guard sink.isOpen else { return }
        sink.buffer.number(time)
        sink.buffer.append(UInt8(ascii: ","))
        sink.buffer.append(UInt64(max(count, 0)))
        sink.buffer.field(cadence)
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
