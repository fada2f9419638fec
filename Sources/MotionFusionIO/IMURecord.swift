/// One row of an IMU recording, converted to the library's units (s, rad/s, m/s², µT).
public struct IMURecord: Sendable, Hashable {
    /// Seconds.
    public var timestamp: Double
    /// rad/s.
    public var gyroscope: SIMD3<Double>
    /// Specific force, m/s².
    public var accelerometer: SIMD3<Double>
    /// µT, or nil when the file has no magnetometer columns, the reader was told to ignore them, or
    /// this row's magnetometer fields are empty (a slower magnetometer).
    public var magnetometer: SIMD3<Double>?
    /// The row's line in the file (the file's first line is 1; the header is line 1 unless blank lines precede it).
    public var line: Int
}
