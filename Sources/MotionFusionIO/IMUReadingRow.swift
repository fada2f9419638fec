import MotionFusionCore
/// One row of an IMU recording whose sensors have separate timestamps (a multi-rate recording: a
/// sensor without a reading at the row's time has empty cells), converted to the library's units
/// (s, rad/s, m/s², µT). Read by ``IMUCSVReader/nextReadings()``.
public struct IMUReadingRow: Sendable, Hashable {
    /// Seconds: when every reading of this row was taken.
    public var timestamp: Double
    /// rad/s, or nil when the row has no gyroscope reading.
    public var gyroscope: SIMD3<Double>?
    /// Specific force, m/s², or nil when the row has no accelerometer reading.
    public var accelerometer: SIMD3<Double>?
    /// µT, or nil when the row has no magnetometer reading (or the reader does not read one).
    public var magnetometer: SIMD3<Double>?
    /// The row's line in the file (the file's first line is 1; the header is line 1 unless blank lines precede it).
    public var line: Int

    public init(
        timestamp: Double, gyroscope: SIMD3<Double>?, accelerometer: SIMD3<Double>?, magnetometer: SIMD3<Double>?,
        line: Int
    ) {
        self.timestamp = timestamp
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
        self.line = line
    }

    /// The row as the readings of one scan, for ``SampleAssembler/add(_:)-(SensorSample)``
    /// (which takes the accelerometer and magnetometer before the gyroscope).
    public var sample: SensorSample {
        SensorSample(timestamp: timestamp, gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer)
    }
}
