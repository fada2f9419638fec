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

    /// Opens the files and reads each one's first reading. An accelerometer or magnetometer file
    /// with a header and no rows has no readings (the sensor never reported); a gyroscope file
    /// without rows is an error, as an empty recording is.
    ///
    /// - Throws: ``CommandFailure`` naming the file.
    init(files: [(path: String, sensor: SensorReading.Sensor)], units: InputUnits) throws {
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
        guard let k = best, let reading = sources[k].next else { return nil }
        do throws(CSVError) {
            try sources[k].advance()
        } catch {
            throw CommandFailure("\(sources[k].path): \(error)")
        }
        return reading
    }

    /// Bytes read and the total size of the files, for progress.
    var progress: (bytes: Int, of: Int?) {
        var total: Int? = 0
        for source in sources { total = total.flatMap { t in source.reader.csv.fileSize.map { t + $0 } } }
        return (sources.reduce(0) { $0 + $1.reader.csv.bytesRead }, total)
    }
}
