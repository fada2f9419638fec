import MotionFusion

/// The readings of one file per sensor (`motion fuse --gyroscope G --accelerometer A
/// [--magnetometer M]`), merged into one stream by timestamp for a ``SampleAssembler``.
///
/// Each file keeps its own order. The next reading is the earliest of the files' next ones; at
/// equal timestamps the accelerometer and the magnetometer come before the gyroscope, as in a scan
/// (``SampleAssembler/add(_:)-(SensorSample)``), so that a gyroscope reading finds the other
/// sensors' readings taken at its time. A clock that steps back starts a new timeline in its file:
/// the readings of every file's first timeline come before those of any second one, and so on (a
/// device restarted with its clock, say, gives its readings from before the restart, then those
/// after, each part merged by time). A reading with a NaN timestamp is taken as soon as it is its
/// file's next (the assembler discards it). Errors name the file, then the line and column.
///
/// The units are checked against the data as the readings are merged (``RecordingUnitCheck``,
/// the gyroscope file's timestamps for the interval) unless `--trust-units` is given: a
/// contradiction is an error naming the file of that sensor, its line and first axis column.
struct SensorFileMerge {
    /// One file and its next reading.
    struct Source {
        let path: String
        let reader: SensorCSVReader
        var next: SensorReading?
        /// How many times the file's clock stepped back up to `next`.
        var timeline = 0
        /// The latest finite timestamp read from the file.
        var latest: Double?

        /// Reads the file's next reading, counting the steps back.
        mutating func advance() throws(CSVError) {
            next = try reader.next()
            guard let t = next?.timestamp, t.isFinite else { return }
            if let latest, t < latest { timeline += 1 }
            latest = t
        }
    }

    private(set) var sources: [Source] = []
    private var unitCheck: RecordingUnitCheck?
    private var unitsGiven: InputUnits

    /// Opens the files and reads each one's first reading. An accelerometer or magnetometer file
    /// with a header and no rows has no readings (the sensor never reported); a gyroscope file
    /// without rows is an error, as an empty recording is.
    ///
    /// - Throws: ``CommandFailure`` naming the file.
    init(files: [(path: String, sensor: SensorReading.Sensor)], units: InputUnits) throws {
        unitsGiven = units
        for (path, sensor) in files {
            do throws(CSVError) {
                let reader = try SensorCSVReader(
                    path: path, sensor: sensor, timeUnit: units.timeUnit, gyroscopeUnit: units.gyroUnit, accelerometerUnit: units.accelUnit,
                    magnetometerUnit: units.magUnit)
                var source = Source(path: path, reader: reader, next: nil)
                do {
                    try source.advance()
                } catch .noData where sensor != .gyroscope {
                    source.next = nil
                }
                sources.append(source)
            } catch {
                throw CommandFailure("\(path): \(error)")
            }
        }
        guard !units.trustUnits, let gyroscope = source(of: .gyroscope), let accelerometer = source(of: .accelerometer),
            let gyroscopeUnit = GyroscopeUnit(rawValue: gyroscope.reader.unit),
            let accelerometerUnit = AccelerometerUnit(rawValue: accelerometer.reader.unit)
        else { return }
        unitCheck = RecordingUnitCheck(
            time: gyroscope.reader.timeUnit, gyroscope: gyroscopeUnit, accelerometer: accelerometerUnit,
            magnetometer: source(of: .magnetometer).flatMap { MagnetometerUnit(rawValue: $0.reader.unit) })
    }

    private func source(of sensor: SensorReading.Sensor) -> Source? {
        sources.first { $0.reader.sensor == sensor }
    }

    /// Feeds a reading (nil: the end) to the unit check and throws its verdict, naming the file.
    private mutating func check(_ reading: SensorReading?) throws {
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
        let sensor: SensorReading.Sensor = mismatch.quantity == .accelerometer ? .accelerometer : mismatch.quantity == .magnetometer ? .magnetometer : .gyroscope
        guard let source = source(of: sensor) else { return }
        let column = mismatch.quantity == .time ? try source.reader.csv.requiredColumn(named: "t") : source.reader.firstAxisColumn
        let given: Bool =
            switch mismatch.quantity {
            case .time: unitsGiven.timeUnit != nil
            case .gyroscope: unitsGiven.gyroUnit != nil
            case .accelerometer: unitsGiven.accelUnit != nil
            case .magnetometer: unitsGiven.magUnit != nil
            }
        let error = CSVError.implausibleUnit(
            line: source.reader.csv.lineNumber, column: column + 1, name: source.reader.csv.header[column],
            mismatch: mismatch,
            source: source.reader.csv.unitSource(ofColumn: column, given: given))
        throw CommandFailure("\(source.path): \(error)")
    }

    /// The order of sensors whose readings have the same timestamp.
    private static func rank(_ sensor: SensorReading.Sensor) -> Int {
        switch sensor {
        case .accelerometer: 0
        case .magnetometer: 1
        case .gyroscope: 2
        }
    }

    /// The next reading of all the files, or nil when every file is read.
    ///
    /// - Throws: ``CommandFailure`` naming the file, line and column of a malformed row.
    mutating func next() throws -> SensorReading? {
        var best: Int?
        for k in sources.indices {
            guard let reading = sources[k].next else { continue }
            if reading.timestamp.isNaN {
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
        do throws(CSVError) {
            try sources[k].advance()
        } catch {
            throw CommandFailure("\(sources[k].path): \(error)")
        }
        try check(reading)
        return reading
    }

    /// Bytes read and the total size of the files, for progress.
    var progress: (bytes: Int, of: Int?) {
        var total: Int? = 0
        for source in sources { total = total.flatMap { t in source.reader.csv.fileSize.map { t + $0 } } }
        return (sources.reduce(0) { $0 + $1.reader.csv.bytesRead }, total)
    }
}
