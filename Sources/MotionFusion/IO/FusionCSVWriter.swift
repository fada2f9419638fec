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
/// printed in the shortest form that reads back to the same `Double` (or `Float`).
public final class FusionCSVWriter {
    /// The header line, without newline.
    public static let header =
        "t,qw,qx,qy,qz,bias_x,bias_y,bias_z,gravity_x,gravity_y,gravity_z,linear_x,linear_y,linear_z,"
        + "earth_linear_x,earth_linear_y,earth_linear_z,flags"

    private let target: String
    private let temporary: String
    private var file: UnsafeMutablePointer<FILE>?
    private var line = ""

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
        line.reserveCapacity(512)
        fputs(Self.header + "\n", file)
    }

    deinit { abandon() }

    /// Appends one row.
    public func write<Scalar: FusionScalar>(_ output: FusionOutput<Scalar>) {
        guard let file else { return }
        line.removeAll(keepingCapacity: true)
        line += "\(output.timestamp)"
        let q = output.quaternion
        for value in [q.w, q.x, q.y, q.z] { line += ",\(value)" }
        for v in [output.gyroscopeBias, output.gravity, output.linearAcceleration, output.earthLinearAcceleration] {
            line += ",\(v.x),\(v.y),\(v.z)"
        }
        line += ",\(output.flags.rawValue)\n"
        fputs(line, file)
    }

    /// Flushes, closes and moves the file into place.
    ///
    /// - Throws: ``CSVError/unreadable(path:reason:)`` if writing or renaming failed; the
    ///   temporary file is removed then.
    public func finish() throws(CSVError) {
        guard let file else { return }
        self.file = nil
        let failed = fflush(file) != 0 || ferror(file) != 0
        let reason = String(cString: strerror(errno))
        fclose(file)
        if failed || rename(temporary, target) != 0 {
            let why = failed ? reason : String(cString: strerror(errno))
            unlink(temporary)
            throw .unreadable(path: target, reason: why)
        }
    }

    /// Closes and deletes the temporary file; the target is untouched.
    public func abandon() {
        guard let file else { return }
        self.file = nil
        fclose(file)
        unlink(temporary)
    }
}
