import MotionFusionCore
/// Reads the readings of one sensor from a CSV file of its own (a recording kept as one file per
/// sensor, each sensor with its own timestamps), converted to the library's units.
///
/// The header names `t` and the three axes `x,y,z`, in any order; other columns are ignored. The
/// axes may instead carry the sensor's names in ``IMUCSVReader``'s format — `gx,gy,gz`, `ax,ay,az`
/// or `mx,my,mz`, or x-io's `Gyroscope X`, … — and `t` may be `Time`. Units are given as
/// ``IMUCSVReader`` reads them: after a column's name in parentheses or brackets (`t (ms)`,
/// `x [deg/s]`), else the unit passed to the initializer, else the library's (s, rad/s, m/s²,
/// µT); an unknown unit, axes in different units or a given unit that contradicts the header is
/// refused.
///
/// Every row is one reading; each of its four cells must be a number (`nan` is one: such a
/// reading is passed on as it is). With `emptyAxesAreNaN`, empty axis cells read as NaN instead of
/// being an error (a column of a multi-rate recording, where a row may hold another sensor's
/// reading only). Rows are returned in file order: the reader neither sorts nor
/// checks the timestamps. Errors are ``CSVError`` values naming line and column.
public final class SensorCSVReader {
    /// The sensor the file holds.
    public let sensor: SensorReading.Sensor
    /// The unit of `t`: the header's, the one given, or seconds.
    public let timeUnit: TimeUnit
    /// The spelling of the axes' unit the values are converted from (a ``GyroscopeUnit``,
    /// ``AccelerometerUnit`` or ``MagnetometerUnit`` raw value): the header's, the one given, or the
    /// library's.
    public let unit: String
    /// The underlying reader (header, line numbers, progress).
    public let csv: CSVReader
    private let columns: [Int]
    private let scale: Double
    private var values: [Double] = []
    /// The columns that may be empty (the axes, with `emptyAxesAreNaN`).
    private let optional: Set<Int>

    /// Opens one sensor's file and checks its header.
    ///
    /// - Parameters:
    ///   - path: the CSV file.
    ///   - sensor: the sensor the file holds; it decides the axis names accepted besides `x,y,z`
    ///     and which unit applies.
    ///   - timeUnit: the unit of `t`; nil for the header's, else seconds.
    ///   - gyroscopeUnit: for a gyroscope file, the axes' unit; nil for the header's, else rad/s.
    ///   - accelerometerUnit: for an accelerometer file; nil for the header's, else m/s².
    ///   - magnetometerUnit: for a magnetometer file; nil for the header's, else µT.
    ///   - emptyAxesAreNaN: true reads an empty axis cell as NaN (a row without this sensor's
    ///     reading in a multi-rate recording); false (the default) refuses it.
    /// - Throws: ``CSVError`` for an unreadable or empty file, a missing `t` or axis column (named
    ///   `x`, `y` or `z` when the file has none of the sensor's own names, else the missing one of
    ///   those), a duplicated one, or a header unit that is unknown, differs between the axes, or
    ///   contradicts the unit given.
    public convenience init(
        path: String, sensor: SensorReading.Sensor, timeUnit: TimeUnit? = nil, gyroscopeUnit: GyroscopeUnit? = nil,
        accelerometerUnit: AccelerometerUnit? = nil, magnetometerUnit: MagnetometerUnit? = nil,
        emptyAxesAreNaN: Bool = false
    ) throws(CSVError) {
        try self.init(
            csv: CSVReader(path: path), sensor: sensor, timeUnit: timeUnit, gyroscopeUnit: gyroscopeUnit,
            accelerometerUnit: accelerometerUnit, magnetometerUnit: magnetometerUnit, emptyAxesAreNaN: emptyAxesAreNaN)
    }

    /// Reads one sensor's readings from `csv`, which has read its header and nothing more (a
    /// file's contents in memory, say); the rest as ``init(path:sensor:timeUnit:gyroscopeUnit:accelerometerUnit:magnetometerUnit:emptyAxesAreNaN:)``.
    init(
        csv: CSVReader, sensor: SensorReading.Sensor, timeUnit: TimeUnit?, gyroscopeUnit: GyroscopeUnit?,
        accelerometerUnit: AccelerometerUnit?, magnetometerUnit: MagnetometerUnit?, emptyAxesAreNaN: Bool
    ) throws(CSVError) {
        let time = try csv.requiredColumn(named: RecordingColumns.time)
        var names = RecordingColumns.axes
        var hasAxis = false
        for name in names where try csv.column(named: name) != nil { hasAxis = true }
        if !hasAxis {
            let own =
                sensor == .gyroscope
                ? RecordingColumns.gyroscope : sensor == .accelerometer ? RecordingColumns.accelerometer : RecordingColumns.magnetometer
            var found = false
            for name in own where try csv.column(named: name) != nil { found = true }
            if found { names = own }
        }
        var axes: [Int] = []
        for name in names { axes.append(try csv.requiredColumn(named: name)) }
        self.timeUnit = try csv.unit(ofColumns: [time], given: timeUnit)
        switch sensor {
        case .gyroscope:
            let unit = try csv.unit(ofColumns: axes, given: gyroscopeUnit)
            self.unit = unit.rawValue
            scale = unit.toRadiansPerSecond
        case .accelerometer:
            let unit = try csv.unit(ofColumns: axes, given: accelerometerUnit)
            self.unit = unit.rawValue
            scale = unit.toMetersPerSecondSquared
        case .magnetometer:
            let unit = try csv.unit(ofColumns: axes, given: magnetometerUnit)
            self.unit = unit.rawValue
            scale = unit.toMicrotesla
        }
        self.sensor = sensor
        self.csv = csv
        columns = [time] + axes
        optional = emptyAxesAreNaN ? Set(axes) : []
    }

    /// The first axis column (0-based), for messages.
    public var firstAxisColumn: Int { columns[1] }
    /// The three axis columns (0-based), x, y, z.
    public var axisColumns: [Int] { Array(columns[1...3]) }

    /// The next reading, or nil at the end of the file.
    ///
    /// - Throws: ``CSVError`` naming the line and column of a malformed row.
    public func next() throws(CSVError) -> SensorReading? {
        guard try csv.nextRow(columns: columns, into: &values, optional: optional) else { return nil }
        return SensorReading(
            sensor: sensor, timestamp: timeUnit.seconds(values[0]),
            value: SIMD3(values[1], values[2], values[3]) * scale)
    }
}
