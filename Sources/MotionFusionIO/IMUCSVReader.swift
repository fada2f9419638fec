import MotionFusionCore
/// Reads IMU recordings from CSV: a header naming `t,gx,gy,gz,ax,ay,az` and optionally `mx,my,mz`
/// (``RecordingColumns``), in any order; other columns are ignored.
///
/// Values are converted to s, rad/s, m/s² and µT. Each quantity's unit comes from the header when
/// it gives one, else from the unit passed to the initializer, else the library's own:
///
/// - A column's unit is written after its name in parentheses or brackets: `Gyroscope X (deg/s)`,
///   `gx (deg/s)`, `gx[deg/s]`. The spellings are those of ``TimeUnit/headerSpellings``,
///   ``GyroscopeUnit/headerSpellings``, ``AccelerometerUnit/headerSpellings`` and
///   ``MagnetometerUnit/headerSpellings``, matched with their case: `g` is standard gravity and
///   `G` gauss, so `G` is refused in an accelerometer column and `g` in a magnetometer column.
/// - A unit the reader does not know is refused (``CSVError/unknownUnit(line:quantity:column:name:unit:)``),
///   and so are the axes of one sensor in different units, or some with a unit and some without
///   (``CSVError/mixedUnits(line:quantity:column:name:unit:otherColumn:otherName:otherUnit:)``): a
///   recording is not read with a guess.
/// - A unit passed to the initializer that differs from the header's is refused
///   (``CSVError/unitContradiction(line:quantity:column:name:header:given:)``), naming both. One that
///   agrees, or none, reads the file.
///
/// ``units`` tells which units were used. ``nextReadings()`` reads a row as the readings it holds
/// (any sensor's cells may be empty or `nan`: no reading), which ``RecordingReader`` — the reader
/// every command uses — makes into samples. ``next()`` reads a row of every sensor: empty
/// magnetometer fields give a row without magnetometer; every other field must be a number (`nan`
/// is a number, passed on). Errors are ``CSVError`` values naming line and column.
public final class IMUCSVReader {
    /// The units a recording is read in.
    public struct Units: Sendable, Hashable {
        /// The unit of `t`.
        public var time: TimeUnit
        /// The unit of `gx,gy,gz`.
        public var gyroscope: GyroscopeUnit
        /// The unit of `ax,ay,az`.
        public var accelerometer: AccelerometerUnit
        /// The unit of `mx,my,mz`; nil when they are not read (absent, or `useMagnetometer` false).
        public var magnetometer: MagnetometerUnit?

        public init(
            time: TimeUnit, gyroscope: GyroscopeUnit, accelerometer: AccelerometerUnit,
            magnetometer: MagnetometerUnit?
        ) {
            self.time = time
            self.gyroscope = gyroscope
            self.accelerometer = accelerometer
            self.magnetometer = magnetometer
        }
    }

    /// True when the file has all three magnetometer columns and they are being read.
    public let hasMagnetometer: Bool
    /// The units the values are converted from: the header's, the ones given, or the library's.
    public let units: Units
    /// The underlying reader (header, progress).
    public let csv: CSVReader
    private let columns: [Int]
    /// How many of `columns` are sensor columns and `t` (the extra columns follow them).
    private let sensorColumnCount: Int
    /// For each extra column asked for, whether the header has it.
    public let extraColumnsFound: [Bool]
    private let optional: Set<Int>
    /// What ``nextReadings()`` allows to be empty: the sensor and extra columns.
    private let multiRateOptional: Set<Int>
    private let timeUnit: TimeUnit
    private let gyroScale: Double
    private let accelScale: Double
    private let magScale: Double
    // Unchecked exclusivity, as in RecordingReader: the reader is used by one thread and never
    // passes these to code that could reach them again; the dynamic checks cost 8 % of parsing.
    @exclusivity(unchecked) private var values: [Double] = []
    /// The check of ``units`` against the data; nil when ``init(path:timeUnit:gyroscopeUnit:accelerometerUnit:magnetometerUnit:useMagnetometer:checksUnits:extraColumns:)``
    /// was told not to check.
    @exclusivity(unchecked) private var unitCheck: RecordingUnitCheck?

    /// Opens a recording.
    ///
    /// - Parameters:
    ///   - path: the CSV file.
    ///   - timeUnit: the unit of `t`; nil for the header's, else seconds.
    ///   - gyroscopeUnit: the unit of `gx,gy,gz`; nil for the header's, else rad/s.
    ///   - accelerometerUnit: the unit of `ax,ay,az`; nil for the header's, else m/s².
    ///   - magnetometerUnit: the unit of `mx,my,mz`; nil for the header's, else µT.
    ///   - useMagnetometer: false reads a 6D recording even when magnetometer columns exist (their
    ///     headers are then not checked).
    ///   - checksUnits: true (the default) checks the units against the data as rows are read
    ///     (``RecordingUnitCheck``): ``next()`` and ``nextReadings()`` throw
    ///     ``CSVError/implausibleUnit(line:column:name:mismatch:source:)`` at the row that completes
    ///     the evidence, or at the end of the file. False reads data that are really that strange.
    ///   - extraColumns: other numeric columns to read with each row when the header has them (a
    ///     reference attitude `qw,qx,qy,qz`, say), read as they are, an empty cell as NaN:
    ///     ``extraColumnsFound`` says which the header has, ``extraValue(_:)`` gives the last row's.
    /// - Throws: ``CSVError`` for an unreadable or empty file, a missing required column, a
    ///   duplicated one, only some of `mx,my,mz`, or a header unit that is unknown, differs between
    ///   the axes of one sensor, or contradicts a unit given here.
    public convenience init(
        path: String, timeUnit: TimeUnit? = nil, gyroscopeUnit: GyroscopeUnit? = nil,
        accelerometerUnit: AccelerometerUnit? = nil, magnetometerUnit: MagnetometerUnit? = nil,
        useMagnetometer: Bool = true, checksUnits: Bool = true, extraColumns: [String] = []
    ) throws(CSVError) {
        try self.init(
            csv: CSVReader(path: path), timeUnit: timeUnit, gyroscopeUnit: gyroscopeUnit,
            accelerometerUnit: accelerometerUnit, magnetometerUnit: magnetometerUnit,
            useMagnetometer: useMagnetometer, checksUnits: checksUnits, extraColumns: extraColumns)
    }

    /// Reads a recording from `csv`, which has read its header and nothing more (a file's contents
    /// in memory, say); the rest as ``init(path:timeUnit:gyroscopeUnit:accelerometerUnit:magnetometerUnit:useMagnetometer:checksUnits:extraColumns:)``.
    init(
        csv: CSVReader, timeUnit: TimeUnit?, gyroscopeUnit: GyroscopeUnit?,
        accelerometerUnit: AccelerometerUnit?, magnetometerUnit: MagnetometerUnit?,
        useMagnetometer: Bool, checksUnits: Bool, extraColumns: [String]
    ) throws(CSVError) {
        var columns: [Int] = []
        for name in RecordingColumns.inertial {
            columns.append(try csv.requiredColumn(named: name))
        }
        var magnetic: [Int?] = []
        for name in RecordingColumns.magnetometer { magnetic.append(try csv.column(named: name)) }
        let present = magnetic.compactMap { $0 }
        if !present.isEmpty && present.count < 3 {
            let missing = RecordingColumns.magnetometer.enumerated().first { magnetic[$0.offset] == nil }!.element
            throw .missingColumn(line: csv.headerLine, name: missing, found: csv.header)
        }
        hasMagnetometer = useMagnetometer && present.count == 3
        let time = try csv.unit(ofColumns: [columns[0]], given: timeUnit)
        let gyroscope = try csv.unit(ofColumns: Array(columns[1...3]), given: gyroscopeUnit)
        let accelerometer = try csv.unit(ofColumns: Array(columns[4...6]), given: accelerometerUnit)
        var magnetometer: MagnetometerUnit?
        if hasMagnetometer {
            columns += present
            magnetometer = try csv.unit(ofColumns: present, given: magnetometerUnit)
        }
        self.csv = csv
        sensorColumnCount = columns.count
        var extras: [Int] = []
        var extraIndex: [Int?] = []
        for name in extraColumns {
            guard let column = try csv.column(named: name) else {
                extraIndex.append(nil)
                continue
            }
            extraIndex.append(columns.count + extras.count)
            extras.append(column)
        }
        self.extraIndex = extraIndex
        extraColumnsFound = extraIndex.map { $0 != nil }
        self.columns = columns + extras
        optional = (hasMagnetometer ? Set(present) : []).union(extras)
        multiRateOptional = Set(columns.dropFirst()).union(extras)
        units = Units(time: time, gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer)
        self.timeUnit = time
        gyroScale = gyroscope.toRadiansPerSecond
        accelScale = accelerometer.toMetersPerSecondSquared
        magScale = (magnetometer ?? .microtesla).toMicrotesla
        if checksUnits {
            unitCheck = RecordingUnitCheck(
                time: time, gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer)
        }
        unitSources = [
            .time: csv.unitSource(ofColumn: columns[0], given: timeUnit != nil),
            .gyroscope: csv.unitSource(ofColumn: columns[1], given: gyroscopeUnit != nil),
            .accelerometer: csv.unitSource(ofColumn: columns[4], given: accelerometerUnit != nil),
            .magnetometer: hasMagnetometer ? csv.unitSource(ofColumn: columns[7], given: magnetometerUnit != nil) : .library,
        ]
    }

    private let unitSources: [MeasuredQuantity: CSVError.UnitSource]
    /// For each extra column asked for, its index in `values`, or nil when the header lacks it.
    private let extraIndex: [Int?]

    /// The value of the `k`th extra column asked for (``init(path:timeUnit:gyroscopeUnit:accelerometerUnit:magnetometerUnit:useMagnetometer:checksUnits:extraColumns:)``)
    /// in the row last read: NaN when its cell is empty or the header lacks the column.
    public func extraValue(_ k: Int) -> Double {
        guard let index = extraIndex[k] else { return .nan }
        return values[index]
    }

    /// Feeds a row to the unit check and throws its verdict, if any.
    private func check(
        time: Double, gyroscope: SIMD3<Double>?, accelerometer: SIMD3<Double>?, magnetometer: SIMD3<Double>?,
        final: Bool = false
    ) throws(CSVError) {
        guard unitCheck != nil else { return }
        if !final {
            unitCheck!.add(timestamp: time)
            if let accelerometer { unitCheck!.add(accelerometer: accelerometer, at: time) }
            if let gyroscope { unitCheck!.add(gyroscope: gyroscope, at: time) }
            if let magnetometer { unitCheck!.add(magnetometer: magnetometer) }
        }
        guard let mismatch = unitCheck!.mismatch(final: final) else { return }
        let first: Int
        switch mismatch.quantity {
        case .time: first = columns[0]
        case .gyroscope: first = columns[1]
        case .accelerometer: first = columns[4]
        case .magnetometer: first = columns[7]
        }
        unitCheck = nil
        throw .implausibleUnit(
            line: csv.lineNumber, column: first + 1, name: csv.header[first], mismatch: mismatch,
            source: unitSources[mismatch.quantity] ?? .library)
    }

    /// The next record, or nil at the end of the file.
    public func next() throws(CSVError) -> IMURecord? {
        guard try csv.nextRow(columns: columns, into: &values, optional: optional) else {
            try check(time: 0, gyroscope: nil, accelerometer: nil, magnetometer: nil, final: true)
            return nil
        }
        var magnetometer: SIMD3<Double>?
        if hasMagnetometer {
            let m = SIMD3(values[7], values[8], values[9])
            // Empty fields read as NaN; three empty (or `nan`) fields mean no magnetometer this row.
            // A partly NaN field stays: the filters treat it as unusable for that step.
            if !(m.x.isNaN && m.y.isNaN && m.z.isNaN) {
                magnetometer = m * magScale
            }
        }
        let record = IMURecord(
            timestamp: timeUnit.seconds(values[0]),
            gyroscope: SIMD3(values[1], values[2], values[3]) * gyroScale,
            accelerometer: SIMD3(values[4], values[5], values[6]) * accelScale,
            magnetometer: magnetometer, line: csv.lineNumber)
        try check(
            time: record.timestamp, gyroscope: record.gyroscope, accelerometer: record.accelerometer,
            magnetometer: record.magnetometer)
        return record
    }

    /// The next row of a multi-rate recording, or nil at the end of the file: each sensor's reading,
    /// or nil when the row has none.
    ///
    /// A sensor has no reading in a row when its three cells are all empty, all `nan` (how
    /// ``MotionRecorder`` writes a sensor absent from a sample), or a mix of the two. Only some of
    /// its cells empty is an error naming the first empty one
    /// (``CSVError/notANumber(line:column:name:text:)`` with an empty text, as for an empty cell
    /// that must hold a number): a row cut or edited by hand, not a spelling. A reading with some
    /// `nan` components is passed on as it is (the filters then do not use it: see Bad Input).
    /// Rows with no reading at all are returned too. Reading a row allocates nothing.
    ///
    /// - Throws: ``CSVError`` naming line and column.
    public func nextReadings() throws(CSVError) -> IMUReadingRow? {
        guard try csv.nextRow(columns: columns, into: &values, optional: multiRateOptional) else {
            try check(time: 0, gyroscope: nil, accelerometer: nil, magnetometer: nil, final: true)
            return nil
        }
        let line = csv.lineNumber
        func reading(at first: Int, scale: Double) throws(CSVError) -> SIMD3<Double>? {
            let v = SIMD3(values[first], values[first + 1], values[first + 2])
            if v.x.isNaN || v.y.isNaN || v.z.isNaN {
                var empty = 0
                var firstEmpty = 0
                for k in first..<first + 3 where csv.fieldIsEmpty(columns[k]) {
                    if empty == 0 { firstEmpty = k }
                    empty += 1
                }
                if empty > 0 && !(v.x.isNaN && v.y.isNaN && v.z.isNaN) {
                    let column = columns[firstEmpty]
                    throw .notANumber(line: line, column: column + 1, name: csv.header[column], text: "")
                }
            }
            if v.x.isNaN && v.y.isNaN && v.z.isNaN { return nil }
            return v * scale
        }
        let gyroscope = try reading(at: 1, scale: gyroScale)
        let accelerometer = try reading(at: 4, scale: accelScale)
        let magnetometer = hasMagnetometer ? try reading(at: 7, scale: magScale) : nil
        let row = IMUReadingRow(
            timestamp: timeUnit.seconds(values[0]), gyroscope: gyroscope, accelerometer: accelerometer,
            magnetometer: magnetometer, line: line)
        try check(time: row.timestamp, gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer)
        return row
    }

    /// The sensor whose values are in `column` (1-based, as ``CSVError`` names columns), or nil for
    /// `t`, a column the reader does not read, or a magnetometer column it ignores.
    public func sensor(ofColumn column: Int) -> SensorReading.Sensor? {
        guard let index = columns.firstIndex(of: column - 1), index > 0, index < sensorColumnCount else { return nil }
        return index <= 3 ? .gyroscope : index <= 6 ? .accelerometer : .magnetometer
    }

}
