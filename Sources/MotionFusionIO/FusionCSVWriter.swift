import MotionFusionCore
/// Writes ``FusionOutput`` rows as CSV through an ``OutputFile``: a regular file is written to a
/// temporary file beside it, which replaces it only in ``finish()``; standard output (`-`),
/// devices and FIFOs are written through. A run that fails calls ``abandon()`` (or lets the
/// writer go) and leaves no partial file behind. ``OutputFile`` says which outputs are refused
/// (one of the inputs, a symbolic link to a file, a file with other hard links).
///
/// Columns: `t,qw,qx,qy,qz,bias_x,bias_y,bias_z,gravity_x,gravity_y,gravity_z,linear_x,linear_y,
/// linear_z,earth_linear_x,earth_linear_y,earth_linear_z,flags`. Quaternions are sensor → earth,
/// scalar first; bias rad/s; accelerations m/s²; `flags` is ``FusionFlags``' raw value. Numbers are
/// printed in the shortest form that reads back to the same `Double` (or `Float`), exactly as
/// `"\(x)"` prints them (`0.0`, `0.25`, `1e-05`, `-2.5e+16`, `nan`, `-inf`): the same text as
/// earlier versions wrote.
///
/// Rows are formatted into a reused 256 KiB buffer that goes to the file whenever it fills: writing
/// a row allocates nothing.
public final class FusionCSVWriter {
    /// The header line, without newline.
    public static let header =
        "t,qw,qx,qy,qz,bias_x,bias_y,bias_z,gravity_x,gravity_y,gravity_z,linear_x,linear_y,linear_z,"
        + "earth_linear_x,earth_linear_y,earth_linear_z,flags"

    /// Where the rows go.
    public var file: OutputFile { sink.file }
    private let sink: CSVRowSink

    /// Opens the output (see ``OutputFile``) and writes the header.
    ///
    /// - Parameters:
    ///   - path: the output file; `-` is standard output.
    ///   - inputs: the files the rows come from; the output may be none of them.
    /// - Throws: ``OutputFileError`` when the output is refused or cannot be created.
    public convenience init(path: String, inputs: [String] = []) throws(OutputFileError) {
        self.init(file: try OutputFile(path: path, inputs: inputs))
    }

    /// Writes the header to an open output.
    public init(file: OutputFile) {
        sink = CSVRowSink(file: file, header: Self.header)
    }

    /// Appends one row.
    public func write<Scalar: FusionScalar>(_ output: FusionOutput<Scalar>) {
        guard sink.isOpen else { return }
        if Scalar.self == Double.self {
            append(unsafeBitCast(output, to: FusionOutput<Double>.self))
        } else if Scalar.self == Float.self {
            append(unsafeBitCast(output, to: FusionOutput<Float>.self))
        } else {
            appendText(output)
        }
        sink.rowWritten()
    }

    private func append<Scalar: FusionScalar & TextOutputStreamable>(_ output: FusionOutput<Scalar>) {
        var line = sink.buffer  // a local copy while the row is formatted, stored back below
        line.number(output.timestamp)
        let q = output.quaternion
        line.field(q.w)
        line.field(q.x)
        line.field(q.y)
        line.field(q.z)
        line.fields(output.gyroscopeBias)
        line.fields(output.gravity)
        line.fields(output.linearAcceleration)
        line.fields(output.earthLinearAcceleration)
        line.append(UInt8(ascii: ","))
        line.append(UInt64(output.flags.rawValue))
        line.append(UInt8(ascii: "\n"))
        sink.buffer = line
    }

    /// Any other scalar type: its description.
    private func appendText<Scalar: FusionScalar>(_ output: FusionOutput<Scalar>) {
        let q = output.quaternion
        var text = "\(output.timestamp),\(q.w),\(q.x),\(q.y),\(q.z)"
        for v in [output.gyroscopeBias, output.gravity, output.linearAcceleration, output.earthLinearAcceleration] {
            text += ",\(v.x),\(v.y),\(v.z)"
        }
        sink.buffer.write(text + ",\(output.flags.rawValue)\n")
    }

    /// Sends the rows written so far on to the file now (``OutputFile/flush()``), instead of when
    /// the buffers fill: for output written through to a pipe whose reader follows the input.
    public func flush() { sink.flush() }

    /// Writes the last rows and finishes the file (``OutputFile/commit()``): a temporary file is
    /// synced and moved into place.
    ///
    /// - Throws: ``OutputFileError/cannotWrite(path:reason:)`` if writing, syncing or renaming
    ///   failed; the temporary file is removed then and the target is as it was.
    public func finish() throws(OutputFileError) { try sink.finish() }

    /// Stops: the temporary file is deleted and the target is untouched.
    public func abandon() { sink.abandon() }
}
