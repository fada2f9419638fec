import MotionFusion

/// The accelerometer readings of a recording, for the commands that need nothing else
/// (`motion steps`): its `t,ax,ay,az` columns (or a `t,x,y,z` accelerometer file), converted to
/// s and m/s² and checked against their units (``RecordingUnitCheck``) unless `--trust-units`.
struct AccelerometerReadings {
    let reader: SensorCSVReader
    private let path: String
    private var check: RecordingUnitCheck?
    private let unitSources: (time: CSVError.UnitSource, accelerometer: CSVError.UnitSource)
    private let timeColumn: Int

    /// Opens `path`.
    ///
    /// - Throws: ``CommandFailure`` naming the file (unreadable, no `t` or `ax,ay,az`, a unit the
    ///   header and the options disagree on).
    init(path: String, units: AccelerometerUnits) throws {
        self.path = path
        do throws(CSVError) {
            reader = try SensorCSVReader(
                path: path, sensor: .accelerometer, timeUnit: units.timeUnit, accelerometerUnit: units.accelUnit,
                emptyAxesAreNaN: true)
            timeColumn = try reader.csv.requiredColumn(named: RecordingColumns.time)
        } catch {
            throw CommandFailure("\(RecordingFileError(path: path, error: error))")
        }
        let accelerometer = AccelerometerUnit(rawValue: reader.unit) ?? .metersPerSecondSquared
        if !units.trustUnits {
            check = RecordingUnitCheck(
                time: reader.timeUnit, gyroscope: .radiansPerSecond, accelerometer: accelerometer, magnetometer: nil)
        }
        unitSources = (
            reader.csv.unitSource(ofColumn: timeColumn, given: units.timeUnit != nil),
            reader.csv.unitSource(ofColumn: reader.firstAxisColumn, given: units.accelUnit != nil)
        )
    }

    /// The next reading, nil at the end. A row whose three axis cells are all empty or `nan` has no
    /// reading (a multi-rate recording's row of another sensor) and is passed over, as
    /// ``IMUCSVReader/nextReadings()`` does; only some of them empty is an error naming the first
    /// empty one; a reading with some `nan` components is returned as it is (the detector ignores
    /// it and counts it).
    ///
    /// - Throws: ``CommandFailure`` naming file, line and column.
    mutating func next() throws -> SensorReading? {
        do throws(CSVError) {
            var next = try reader.next()
            while let r = next, r.value.x.isNaN || r.value.y.isNaN || r.value.z.isNaN {
                let empty = reader.axisColumns.filter { reader.csv.fieldIsEmpty($0) }
                if let first = empty.first, empty.count < 3, !(r.value.x.isNaN && r.value.y.isNaN && r.value.z.isNaN) {
                    throw .notANumber(line: reader.csv.lineNumber, column: first + 1, name: reader.csv.header[first], text: "")
                }
                guard r.value.x.isNaN && r.value.y.isNaN && r.value.z.isNaN else { break }
                next = try reader.next()
            }
            guard let reading = next else {
                try judge(final: true)
                return nil
            }
            if check != nil {
                check!.add(timestamp: reading.timestamp)
                let v = reading.value
                if v.x.isFinite && v.y.isFinite && v.z.isFinite { check!.add(accelerometer: v, at: reading.timestamp) }
                try judge(final: false)
            }
            return reading
        } catch {
            throw CommandFailure("\(RecordingFileError(path: path, error: error))")
        }
    }

    private mutating func judge(final: Bool) throws(CSVError) {
        guard check != nil, let mismatch = check!.mismatch(final: final) else { return }
        check = nil
        let column = mismatch.quantity == .time ? timeColumn : reader.firstAxisColumn
        throw .implausibleUnit(
            line: reader.csv.lineNumber, column: column + 1, name: reader.csv.header[column], mismatch: mismatch,
            source: mismatch.quantity == .time ? unitSources.time : unitSources.accelerometer)
    }
}
