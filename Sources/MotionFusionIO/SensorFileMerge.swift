import MotionFusionCore

/// The readings of one file per sensor, merged into one stream by timestamp for
/// ``RecordingReader`` (which documents the order).
///
/// The units are checked against the data as the readings are merged (``RecordingUnitCheck``,
/// the gyroscope file's timestamps for the interval) when asked: a contradiction is an error
/// naming the file of that sensor, its line and first axis column.
struct SensorFileMerge {
    /// One file and its next reading.
    struct Source {
        let path: String
        let reader: SensorCSVReader
        var next: SensorReading?
        /// The line of `next`.
        var line = 0
        /// How many times the file's clock stepped back up to `next`.
        var timeline = 0
        /// The latest finite timestamp read from the file.
        var latest: Double?

        /// Reads the file's next reading, counting the steps back.
        mutating func advance() throws(CSVError) {
            next = try reader.next()
            line = reader.csv.lineNumber
            guard let t = next?.timestamp, t.isFinite else { return }
            if let latest, t < latest { timeline += 1 }
            latest = t
        }
    }

    private(set) var sources: [Source] = []
    private var unitCheck: RecordingUnitCheck?
    private let unitsGiven: RecordingReader.GivenUnits
    /// The units read in (the time unit: the gyroscope file's).
    let units: IMUCSVReader.Units

    /// Opens the files and reads each one's first reading.
    ///
    /// - Throws: ``RecordingFileError`` naming the file.
    init(
        files: [(file: RecordingReader.File, sensor: SensorReading.Sensor)], units given: RecordingReader.GivenUnits,
        checksUnits: Bool
    ) throws(RecordingFileError) {
        unitsGiven = given
        for (file, sensor) in files {
            let path = file.name
            do throws(CSVError) {
                let reader = try SensorCSVReader(
                    csv: file.open(), sensor: sensor, timeUnit: given.time, gyroscopeUnit: given.gyroscope,
                    accelerometerUnit: given.accelerometer, magnetometerUnit: given.magnetometer, emptyAxesAreNaN: false)
                var source = Source(path: path, reader: reader, next: nil)
                do throws(CSVError) {
                    try source.advance()
                } catch .noData where sensor != .gyroscope {
                    source.next = nil
                }
                sources.append(source)
            } catch {
                throw RecordingFileError(path: path, error: error)
            }
        }
        let gyroscope = sources[0].reader
        let accelerometer = sources[1].reader
        let magnetometer = sources.count > 2 ? sources[2].reader : nil
        units = IMUCSVReader.Units(
            time: gyroscope.timeUnit, gyroscope: GyroscopeUnit(rawValue: gyroscope.unit)!,
            accelerometer: AccelerometerUnit(rawValue: accelerometer.unit)!,
            magnetometer: magnetometer.flatMap { MagnetometerUnit(rawValue: $0.unit) })
        if checksUnits {
            unitCheck = RecordingUnitCheck(
                time: units.time, gyroscope: units.gyroscope, accelerometer: units.accelerometer,
                magnetometer: units.magnetometer)
        }
    }

    private func source(of sensor: SensorReading.Sensor) -> Int? {
        sources.firstIndex { $0.reader.sensor == sensor }
    }

    /// Feeds a reading (nil: the end) to the unit check and throws its verdict, naming the file and
    /// the line of the reading that completed the evidence (`line`; at the end, the file's last).
    private mutating func check(_ reading: SensorReading?, line: Int? = nil) throws(RecordingFileError) {
        guard unitCheck != nil else { return }
        if let reading {
            switch reading.sensor {
            case .gyroscope:
                unitCheck!.add(timestamp: reading.timestamp)
                unitCheck!.add(gyroscope: reading.value, at: reading.timestamp)
            case .accelerometer: unitCheck!.add(accelerometer: reading.value, at: reading.timestamp)
            case .magnetometer: unitCheck!.add(magnetometer: reading.value)
            }
        }
        guard let mismatch = unitCheck!.mismatch(final: reading == nil) else { return }
        unitCheck = nil
        let sensor: SensorReading.Sensor =
            switch mismatch.quantity {
            case .accelerometer: .accelerometer
            case .magnetometer: .magnetometer
            case .gyroscope, .time: .gyroscope
            }
        guard let k = source(of: sensor) else { return }
        let reader = sources[k].reader
        let column: Int
        do throws(CSVError) {
            column = mismatch.quantity == .time ? try reader.csv.requiredColumn(named: RecordingColumns.time) : reader.firstAxisColumn
        } catch {
            throw RecordingFileError(path: sources[k].path, error: error)
        }
        let given: Bool =
            switch mismatch.quantity {
            case .time: unitsGiven.time != nil
            case .gyroscope: unitsGiven.gyroscope != nil
            case .accelerometer: unitsGiven.accelerometer != nil
            case .magnetometer: unitsGiven.magnetometer != nil
            }
        let error = CSVError.implausibleUnit(
            line: reading?.sensor == sensor ? (line ?? reader.csv.lineNumber) : reader.csv.lineNumber, column: column + 1, name: reader.csv.header[column], mismatch: mismatch,
            source: reader.csv.unitSource(ofColumn: column, given: given))
        throw RecordingFileError(path: sources[k].path, error: error)
    }

    /// The order of sensors whose readings have the same timestamp.
    private static func rank(_ sensor: SensorReading.Sensor) -> Int {
        switch sensor {
        case .accelerometer: 0
        case .magnetometer: 1
        case .gyroscope: 2
        }
    }

    /// The next reading of all the files with its file's index and line, or nil when every file
    /// is read.
    ///
    /// - Throws: ``RecordingFileError`` naming the file, line and column of a malformed row.
    mutating func next() throws(RecordingFileError) -> (reading: SensorReading, file: Int, line: Int)? {
        var best: Int?
        for k in sources.indices {
            guard let reading = sources[k].next else { continue }
            if !reading.timestamp.isFinite {
                best = k
                break
            }
            if let b = best, let other = sources[b].next {
                let (x, y) = (sources[k].timeline, sources[b].timeline)
                if x < y
                    || (x == y
                        && (reading.timestamp < other.timestamp
                            || (reading.timestamp == other.timestamp && Self.rank(reading.sensor) < Self.rank(other.sensor))))
                {
                    best = k
                }
            } else {
                best = k
            }
        }
        guard let k = best, let reading = sources[k].next else {
            try check(nil)
            return nil
        }
        let line = sources[k].line
        do throws(CSVError) {
            try sources[k].advance()
        } catch {
            throw RecordingFileError(path: sources[k].path, error: error)
        }
        try check(reading, line: line)
        return (reading, k, line)
    }
}
