import MotionFusion

/// A recording whose sensors have separate timestamps, in one CSV file: rows that leave a sensor's
/// three cells empty (or all `nan`) when it has no reading at that row's time, as `motion record`
/// writes readings taken at other times than the gyroscope's. `motion fuse` and `motion
/// device-motion` read it the same way: its rows, in file order, through a ``SampleAssembler``
/// with its default rules, which makes one sample per gyroscope reading (the readings of a row
/// added as one scan: accelerometer and magnetometer before the gyroscope).
///
/// A command reads an input row by row as an ordinary recording; the first row with an empty
/// gyroscope or accelerometer cell (``isMissingReading(_:in:)``), or whose magnetometer is there
/// when the first row's is not or the other way round (``MagnetometerPresence``), is the
/// ``Reason`` for ``readAgain(because:after:dropOutput:_:)``: drop what was computed and read the
/// file again from the start with ``assemble(progress:_:)``, so such a file must be a regular file. Output that cannot be taken back (standard output, a device) is written only
/// after ``hasMissingReadings()`` has said which way to read.
struct MultiRateRecording {
    let path: String
    let units: InputUnits
    /// False ignores the magnetometer columns (a 6D run).
    var useMagnetometer = true

    /// A reader of the file from its start.
    ///
    /// - Throws: ``CSVError`` (a missing file or column, a bad header).
    func reader() throws(CSVError) -> IMUCSVReader {
        try IMUCSVReader(
            path: path, timeUnit: units.timeUnit, gyroscopeUnit: units.gyroUnit, accelerometerUnit: units.accelUnit,
            magnetometerUnit: units.magUnit, useMagnetometer: useMagnetometer, checksUnits: !units.trustUnits)
    }

    /// Whether `error` is what ``IMUCSVReader/next()`` throws for an empty gyroscope or
    /// accelerometer cell: the recording is then read as a multi-rate one.
    static func isMissingReading(_ error: CSVError, in reader: IMUCSVReader) -> Bool {
        guard case .notANumber(_, let column, _, let text) = error, text.isEmpty,
            let sensor = reader.sensor(ofColumn: column)
        else { return false }
        return sensor != .magnetometer
    }

    /// Whether a row has a magnetometer reading where the first row has none, or none where the
    /// first row has one: a slower magnetometer, so the file is a multi-rate recording (read
    /// through the assembler, which holds the latest reading for up to 0.5 s, as live capture
    /// does). Feed it each row's magnetometer in turn.
    struct MagnetometerPresence {
        private var first: Bool?

        /// True when `present` differs from the first row's.
        mutating func changes(_ present: Bool) -> Bool {
            guard let first else {
                first = present
                return false
            }
            return present != first
        }
    }

    /// Why a file read row by row turned out to be a multi-rate recording, to be read again from
    /// the start through the assembler.
    enum Reason {
        /// A row with an empty gyroscope or accelerometer cell: the reader's error
        /// (``isMissingReading(_:in:)``).
        case missingReading(CSVError)
        /// The row at `line` has a magnetometer where the first row has none, or none where it has
        /// one (``MagnetometerPresence``).
        case magnetometerChanges(line: Int)

        /// Why the file must be a regular one (after `path: `).
        var regularFileNeeded: String {
            switch self {
            case .missingReading(let error):
                "\(error); a recording with rows without gyroscope or accelerometer is read twice, "
                    + "so it must be a regular file"
            case .magnetometerChanges(let line):
                "line \(line): the magnetometer is in some rows and not in others; "
                    + "such a multi-rate recording is read twice, so it must be a regular file"
            }
        }
    }

    /// Reads the file again as a multi-rate recording, for `reason`, after `reader` read part of
    /// it row by row: `dropOutput` drops what was computed from those rows, a file that is not
    /// regular (a pipe, a device: it cannot be read twice) is refused, and `readAgain` reads it
    /// through the assembler (``assemble(progress:_:)``) into a fresh output.
    ///
    /// - Throws: ``CommandFailure`` naming the file and the reason; what `readAgain` throws.
    func readAgain(
        because reason: Reason, after reader: IMUCSVReader, dropOutput: () -> Void, _ readAgain: () throws -> Void
    ) throws {
        dropOutput()
        guard reader.csv.fileSize != nil else { throw CommandFailure("\(path): \(reason.regularFileNeeded)") }
        try readAgain()
    }

    /// Whether the recording has a row with empty gyroscope or accelerometer cells, or a
    /// magnetometer in some rows and not in others (a scan to the first such row that reads no
    /// numbers; any error is left to the run that reads the numbers, which reports it).
    func hasMissingReadings() -> Bool {
        do throws(CSVError) {
            return try reader().firstMissingReading() != nil
        } catch {
            return false
        }
    }

    /// Reads the whole file through a ``SampleAssembler`` (default rules): `body` gets every
    /// sample as soon as it is made, so memory stays flat; `progress` is called after each row.
    ///
    /// - Returns: the reader, at the end of the file (bytes read, a cut last line).
    /// - Throws: ``CommandFailure`` naming the file, line and column.
    @discardableResult
    func assemble(progress: (IMUCSVReader) -> Void = { _ in }, _ body: (SensorSample) -> Void) throws -> IMUCSVReader {
        var assembler = SampleAssembler()
        do throws(CSVError) {
            let reader = try reader()
            while let row = try reader.nextReadings() {
                assembler.add(row.sample)
                while let sample = assembler.next() { body(sample) }
                progress(reader)
            }
            assembler.finish()
            while let sample = assembler.next() { body(sample) }
            return reader
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }
}
