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
    /// The row's line in the file (the header is line 1).
    public var line: Int
}

/// Reads IMU recordings from CSV: a header naming `t,gx,gy,gz,ax,ay,az` and optionally `mx,my,mz`,
/// in any order; other columns are ignored.
///
/// Units are converted to s, rad/s, m/s² and µT from the units given. Empty magnetometer fields give
/// a row without magnetometer; every other field must be a number (`nan` is a number: the filters
/// skip such samples as documented). Errors are ``CSVError`` values naming line and column.
public final class IMUCSVReader {
    /// True when the file has all three magnetometer columns and they are being read.
    public let hasMagnetometer: Bool
    /// The underlying reader (header, progress).
    public let csv: CSVReader
    private let columns: [Int]
    private let optional: Set<Int>
    private let gyroScale: Double
    private let accelScale: Double
    private let magScale: Double
    private var values: [Double] = []

    /// Opens a recording.
    ///
    /// - Parameters:
    ///   - path: the CSV file.
    ///   - gyroscopeUnit: the unit of `gx,gy,gz`.
    ///   - accelerometerUnit: the unit of `ax,ay,az`.
    ///   - magnetometerUnit: the unit of `mx,my,mz`.
    ///   - useMagnetometer: false reads a 6D recording even when magnetometer columns exist.
    /// - Throws: ``CSVError`` for an unreadable or empty file, a missing required column, a
    ///   duplicated one, or only some of `mx,my,mz`.
    public init(
        path: String, gyroscopeUnit: GyroscopeUnit = .radiansPerSecond,
        accelerometerUnit: AccelerometerUnit = .metersPerSecondSquared,
        magnetometerUnit: MagnetometerUnit = .microtesla, useMagnetometer: Bool = true
    ) throws(CSVError) {
        let csv = try CSVReader(path: path)
        var columns: [Int] = []
        for name in ["t", "gx", "gy", "gz", "ax", "ay", "az"] {
            columns.append(try csv.requiredColumn(named: name))
        }
        let magnetic = [try csv.column(named: "mx"), try csv.column(named: "my"), try csv.column(named: "mz")]
        let present = magnetic.compactMap { $0 }
        if !present.isEmpty && present.count < 3 {
            let missing = ["mx", "my", "mz"].enumerated().first { magnetic[$0.offset] == nil }!.element
            throw .missingColumn(name: missing)
        }
        hasMagnetometer = useMagnetometer && present.count == 3
        if hasMagnetometer { columns += present }
        self.csv = csv
        self.columns = columns
        optional = hasMagnetometer ? Set(present) : []
        gyroScale = gyroscopeUnit.toRadiansPerSecond
        accelScale = accelerometerUnit.toMetersPerSecondSquared
        magScale = magnetometerUnit.toMicrotesla
    }

    /// The next record, or nil at the end of the file.
    public func next() throws(CSVError) -> IMURecord? {
        guard try csv.nextRow(columns: columns, into: &values, optional: optional) else { return nil }
        var magnetometer: SIMD3<Double>?
        if hasMagnetometer {
            let m = SIMD3(values[7], values[8], values[9])
            // Empty fields read as NaN; three empty (or `nan`) fields mean no magnetometer this row.
            // A partly NaN field stays: the filters treat it as unusable for that step.
            if !(m.x.isNaN && m.y.isNaN && m.z.isNaN) {
                magnetometer = m * magScale
            }
        }
        return IMURecord(
            timestamp: values[0],
            gyroscope: SIMD3(values[1], values[2], values[3]) * gyroScale,
            accelerometer: SIMD3(values[4], values[5], values[6]) * accelScale,
            magnetometer: magnetometer, line: csv.lineNumber)
    }

}
