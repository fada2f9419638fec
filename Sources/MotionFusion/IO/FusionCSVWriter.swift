#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// Writes ``FusionOutput`` rows as CSV, atomically: rows go to a temporary file beside the target,
/// which replaces the target only in ``finish()``. A run that fails calls ``abandon()`` (or lets the
/// writer go) and leaves no partial output behind.
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

    private let target: String
    private let temporary: String
    private var file: UnsafeMutablePointer<FILE>?
    private var buffer: ByteOutputBuffer
    /// Why a write failed (the first failure), if one did.
    private var failure: String?
    static let chunk = 256 * 1024
    /// More than any row needs (18 numbers of at most 32 bytes each, commas, newline).
    static let rowReserve = 1024

    /// Creates the temporary file and writes the header.
    ///
    /// - Throws: ``CSVError/unreadable(path:reason:)`` when the file cannot be created.
    public init(path: String) throws(CSVError) {
        target = path
        temporary = path + ".partial-\(getpid())"
        guard let file = fopen(temporary, "wb") else {
            throw .unreadable(path: temporary, reason: String(cString: strerror(errno)))
        }
        self.file = file
        buffer = ByteOutputBuffer(capacity: Self.chunk + Self.rowReserve)
        buffer.write(Self.header + "\n")
    }

    deinit {
        abandon()
        buffer.deallocate()
    }

    /// Appends one row.
    public func write<Scalar: FusionScalar>(_ output: FusionOutput<Scalar>) {
        guard file != nil else { return }
        if Scalar.self == Double.self {
            append(unsafeBitCast(output, to: FusionOutput<Double>.self))
        } else if Scalar.self == Float.self {
            append(unsafeBitCast(output, to: FusionOutput<Float>.self))
        } else {
            appendText(output)
        }
        if buffer.count >= Self.chunk { flush() }
    }

    private func append<Scalar: FusionScalar & TextOutputStreamable>(_ output: FusionOutput<Scalar>) {
        var line = buffer  // a local copy while the row is formatted, stored back below
        func field(_ value: Scalar) {
            line.append(UInt8(ascii: ","))
            value.write(to: &line)
        }
        output.timestamp.write(to: &line)
        let q = output.quaternion
        field(q.w)
        field(q.x)
        field(q.y)
        field(q.z)
        func fields(_ v: SIMD3<Scalar>) {
            field(v.x)
            field(v.y)
            field(v.z)
        }
        fields(output.gyroscopeBias)
        fields(output.gravity)
        fields(output.linearAcceleration)
        fields(output.earthLinearAcceleration)
        line.append(UInt8(ascii: ","))
        line.append(UInt64(output.flags.rawValue))
        line.append(UInt8(ascii: "\n"))
        buffer = line
    }

    /// Any other scalar type: its description.
    private func appendText<Scalar: FusionScalar>(_ output: FusionOutput<Scalar>) {
        let q = output.quaternion
        var text = "\(output.timestamp),\(q.w),\(q.x),\(q.y),\(q.z)"
        for v in [output.gyroscopeBias, output.gravity, output.linearAcceleration, output.earthLinearAcceleration] {
            text += ",\(v.x),\(v.y),\(v.z)"
        }
        buffer.write(text + ",\(output.flags.rawValue)\n")
    }

    /// Hands the buffered rows to the file.
    private func flush() {
        guard let file else { return }
        let contents = buffer.contents
        if failure == nil, contents.count > 0, fwrite(contents.baseAddress, 1, contents.count, file) != contents.count {
            failure = String(cString: strerror(errno))
        }
        buffer.removeAll()
    }

    /// Flushes, closes and moves the file into place.
    ///
    /// - Throws: ``CSVError/unreadable(path:reason:)`` if writing or renaming failed; the
    ///   temporary file is removed then.
    public func finish() throws(CSVError) {
        guard let file else { return }
        flush()
        self.file = nil
        if failure == nil, fflush(file) != 0 || ferror(file) != 0 {
            failure = String(cString: strerror(errno))
        }
        if fclose(file) != 0, failure == nil {
            failure = String(cString: strerror(errno))
        }
        if failure == nil, rename(temporary, target) != 0 {
            failure = String(cString: strerror(errno))
        }
        if let failure {
            unlink(temporary)
            throw .unreadable(path: target, reason: failure)
        }
    }

    /// Closes and deletes the temporary file; the target is untouched.
    public func abandon() {
        guard let file else { return }
        self.file = nil
        buffer.removeAll()
        fclose(file)
        unlink(temporary)
    }
}
