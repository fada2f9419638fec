import MotionFusionCore

/// Writes ``DeviceMotionSample`` rows as CSV — what `motion device-motion` writes — through an
/// ``OutputFile``: a regular file is written to a temporary file beside it, which replaces it only in
/// ``finish()``; standard output (`-`), devices and FIFOs are written through.
///
/// Columns: `t,qw,qx,qy,qz,roll,pitch,yaw,rotation_x,rotation_y,rotation_z,gravity_x,gravity_y,
/// gravity_z,user_x,user_y,user_z,heading,field_x,field_y,field_z,field_accuracy` — the attitude
/// (device → reference frame, scalar first), its Core Motion Euler angles in radians, the unbiased
/// rotation rate in rad/s, gravity and user acceleration in g (Core Motion's signs: (0, 0, −1) lying
/// flat), the heading in degrees (−1 in a frame without north), and the calibrated magnetic field in
/// µT with its accuracy (``CalibratedMagneticField``: `uncalibrated`, `low`, `medium` or `high`; a
/// zero field and `uncalibrated` without a magnetometer sample). Numbers as ``FusionCSVWriter``
/// writes them; writing a row allocates nothing.
public final class DeviceMotionCSVWriter {
    /// The header line, without newline.
    public static let header =
        "t,qw,qx,qy,qz,roll,pitch,yaw,rotation_x,rotation_y,rotation_z,gravity_x,gravity_y,gravity_z,"
        + "user_x,user_y,user_z,heading,field_x,field_y,field_z,field_accuracy"

    /// Where the rows go.
    public var file: OutputFile { sink.file }
    private let sink: CSVRowSink

    /// Writes the header to an open output (``OutputFile`` says which outputs are refused).
    public init(file: OutputFile) {
        sink = CSVRowSink(file: file, header: Self.header)
    }

    /// Appends one row.
    public func write<Scalar: FusionScalar & TextOutputStreamable>(_ motion: DeviceMotionSample<Scalar>) {
        guard sink.isOpen else { return }
        var line = sink.buffer  // a local copy while the row is formatted, stored back below
        line.number(motion.timestamp)
        let q = motion.attitude.quaternion
        line.field(q.w)
        line.field(q.x)
        line.field(q.y)
        line.field(q.z)
        // Core Motion's order: roll, pitch, yaw (the aerospace sequence gives yaw, pitch, roll).
        let e = motion.attitude.eulerAngles.angles
        line.field(e[2])
        line.field(e[1])
        line.field(e[0])
        line.fields(motion.rotationRate)
        line.fields(motion.gravity)
        line.fields(motion.userAcceleration)
        line.field(motion.heading)
        line.fields(motion.magneticField.field)
        line.append(UInt8(ascii: ","))
        line.write(motion.magneticField.accuracy.rawValue)
        line.append(UInt8(ascii: "\n"))
        sink.buffer = line
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
