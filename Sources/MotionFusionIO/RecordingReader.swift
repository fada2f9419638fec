import MotionFusionCore

/// The one streaming reader of IMU recordings: one CSV file or one file per sensor, gzip-compressed
/// or not, a path, standard input (`-`) or a file's contents in memory, made into the samples a
/// filter takes, one per gyroscope reading, in bounded memory (apart from contents the caller holds).
///
/// Every layout is read the same way, so the same readings give the same samples however they are
/// spelled:
///
/// - **One file** (``Input/file(_:)``): the format of ``IMUCSVReader`` (``RecordingColumns``,
///   units from the header or given). A row may hold every sensor's reading (a single-rate
///   recording) or only some: a sensor whose three cells are empty or `nan` (how
///   ``MotionRecorder`` writes an absent sensor), in any mix, has no reading in that row (a
///   multi-rate recording). Only some of a sensor's cells empty is an error; a reading with some
///   `nan` cells is passed on as it is.
/// - **One file per sensor** (``Input/sensorFiles(gyroscope:accelerometer:magnetometer:)``): the
///   format of ``SensorCSVReader``. The files' readings are merged by timestamp, each file keeping
///   its own order; at equal timestamps the accelerometer and magnetometer come first, as in a
///   scan. A clock that steps back starts a new timeline in its file: every file's first timeline
///   comes before any second one. An accelerometer or magnetometer file with a header and no rows
///   has no readings; a gyroscope file without rows is an error.
///
/// The readings, in that order, go through a ``SampleAssembler`` (its ``SampleAssembler/Rules``):
/// one ``SensorSample`` per gyroscope reading with the latest accelerometer and magnetometer
/// readings that are not too old. A row of every sensor is one scan, so a single-rate recording
/// gives one sample per row with that row's values. A gyroscope reading with a NaN or infinite
/// timestamp cannot be placed in time: it is passed on as a sample of its own at its place in the
/// file (with its row's other readings), so that the filter's ``SampleClock`` flags it and the
/// output keeps one row per gyroscope reading (at most ``passedOnCapacity`` of them wait behind a
/// sample the assembler holds; beyond, they are dropped and counted in
/// ``discardedInvalidGyroscope``); another sensor's reading with such a timestamp is discarded and
/// counted (``SampleAssembler/Statistics-swift.struct/invalidReadings`` in
/// ``statistics``). Clocks that jump start new timelines, as the assembler documents.
///
/// The units are checked against the data as the readings are read (``RecordingUnitCheck``) unless
/// `checksUnits` is false. Errors are ``RecordingFileError`` values: the file, then the
/// ``CSVError`` with its line and column. ``location`` says where the last sample's gyroscope
/// reading was.
public final class RecordingReader {
    /// What to read.
    public enum Input: Sendable, Hashable {
        /// One CSV file (`-`: standard input).
        case file(String)
        /// One CSV file's contents, already in memory (plain, or gzip-compressed where the build
        /// has zlib), read as ``file(_:)`` reads a file; `name` stands for its path in errors.
        case contents(name: String, bytes: [UInt8])
        /// One CSV file per sensor, each a ``File`` (contents in memory, or a path), read as
        /// ``sensorFiles(gyroscope:accelerometer:magnetometer:)`` reads the files; each file's
        /// name stands for its path in errors.
        case sensorContents(gyroscope: File, accelerometer: File, magnetometer: File?)
        /// One CSV file per sensor; the magnetometer's is optional.
        case sensorFiles(gyroscope: String, accelerometer: String, magnetometer: String?)

        /// The files, gyroscope's first (of contents in memory, their name).
        public var paths: [String] {
            switch self {
            case .file(let path): [path]
            case .contents(let name, _): [name]
            case .sensorContents(let g, let a, let m): [g.name, a.name] + (m.map { [$0.name] } ?? [])
            case .sensorFiles(let g, let a, let m): [g, a] + (m.map { [$0] } ?? [])
            }
        }
    }

    /// A file to read: by path, or its contents in memory under a name.
    public enum File: Sendable, Hashable {
        /// A file by path (`-`: standard input).
        case path(String)
        /// A file's bytes, with the name that stands for its path in errors.
        case contents(name: String, bytes: [UInt8])

        /// The path, or the name of the contents.
        public var name: String {
            switch self {
            case .path(let path): path
            case .contents(let name, _): name
            }
        }

        /// Opens the file and reads its header.
        func open() throws(CSVError) -> CSVReader {
            switch self {
            case .path(let path): try CSVReader(path: path)
            case .contents(let name, let bytes): try CSVReader(name: name, contents: bytes)
            }
        }
    }

    /// The units the data are in, where the header does not say (nil: the header's, else the
    /// library's s, rad/s, m/s² and µT). A unit given here that contradicts the header is an error.
    public struct GivenUnits: Sendable, Hashable {
        public var time: TimeUnit?
        public var gyroscope: GyroscopeUnit?
        public var accelerometer: AccelerometerUnit?
        public var magnetometer: MagnetometerUnit?

        public init(
            time: TimeUnit? = nil, gyroscope: GyroscopeUnit? = nil, accelerometer: AccelerometerUnit? = nil,
            magnetometer: MagnetometerUnit? = nil
        ) {
            self.time = time
            self.gyroscope = gyroscope
            self.accelerometer = accelerometer
            self.magnetometer = magnetometer
        }
    }

    /// A place in a recording: a file and a line (the file's first line is 1; the header is line 1 unless blank lines precede it).
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var line: Int

        public init(path: String, line: Int) {
            self.path = path
            self.line = line
        }

        /// `path:line`.
        public var description: String { "\(path):\(line)" }
    }

    /// What is read.
    public let input: Input
    /// The sensors the recording has columns or files for (the magnetometer only when it is read).
    public let sensors: SensorSet
    /// The units the values are converted from (the time unit: the gyroscope file's, for one file
    /// per sensor).
    public let units: IMUCSVReader.Units
    /// Where the gyroscope reading of the sample last returned by ``next()`` was.
    public var location: Location? {
        lastEntry.map { Location(path: paths[$0.file], line: $0.line) }
    }
    /// The files, gyroscope's first (``Input/paths``).
    private let paths: [String]
    /// The place of the sample last returned.
    @exclusivity(unchecked) private var lastEntry: LineQueue.Entry?

    @exclusivity(unchecked) private var assembler: SampleAssembler
    private let rows: IMUCSVReader?
    @exclusivity(unchecked) private var merge: SensorFileMerge?
    /// The lines of the gyroscope readings given to the assembler and not yet made into samples,
    /// oldest first (the assembler makes one sample per reading, in order).
    @exclusivity(unchecked) private var lines: LineQueue
    /// Samples passed on without the assembler (a gyroscope reading with a non-finite timestamp),
    /// in the order of their places in `lines`.
    @exclusivity(unchecked) private var passedOn: [SensorSample]
    @exclusivity(unchecked) private var passedOnHead = 0
    @exclusivity(unchecked) private var passedOnCount = 0
    /// Gyroscope readings with a non-finite timestamp discarded because too many waited.
    public private(set) var discardedInvalidGyroscope = 0
    private let extraCount: Int
    @exclusivity(unchecked) private var currentExtras: [Double]

    /// Opens a recording and reads its header (each file's, for one file per sensor).
    ///
    /// - Parameters:
    ///   - input: the file, or the files per sensor.
    ///   - units: the units of the data where the header does not say.
    ///   - useMagnetometer: false ignores the magnetometer's columns or file (a 6D run).
    ///   - checksUnits: true (the default) checks the units against the data: ``next()`` throws
    ///     ``CSVError/implausibleUnit(line:column:name:mismatch:source:)`` naming the sensor's file
    ///     and first column. False reads data that are really that strange.
    ///   - rules: the assembler's rules.
    ///   - extraColumns: for one file, other numeric columns to carry with each sample (its
    ///     gyroscope reading's row): ``extraValue(_:)``. Ignored for one file per sensor.
    /// - Throws: ``RecordingFileError`` naming the file: unreadable, empty, a missing or duplicated
    ///   column, a header unit that is unknown or contradicts `units`, a gyroscope file without rows.
    public init(
        _ input: Input, units: GivenUnits = GivenUnits(), useMagnetometer: Bool = true, checksUnits: Bool = true,
        rules: SampleAssembler.Rules = SampleAssembler.Rules(), extraColumns: [String] = []
    ) throws(RecordingFileError) {
        self.input = input
        paths = input.paths
        assembler = SampleAssembler(rules: rules)
        let extraCount: Int
        switch input {
        case .file, .contents: extraCount = extraColumns.count
        case .sensorFiles, .sensorContents: extraCount = 0
        }
        self.extraCount = extraCount
        lines = LineQueue(capacity: 2 * SampleAssembler.heldSamples + Self.passedOnCapacity + 2, extraCount: extraCount)
        switch input {
        case .file, .contents:
            let path = input.paths[0]
            do throws(CSVError) {
                let csv: CSVReader
                if case .contents(let name, let bytes) = input {
                    csv = try CSVReader(name: name, contents: bytes)
                } else {
                    csv = try CSVReader(path: path)
                }
                let reader = try IMUCSVReader(
                    csv: csv, timeUnit: units.time, gyroscopeUnit: units.gyroscope,
                    accelerometerUnit: units.accelerometer, magnetometerUnit: units.magnetometer,
                    useMagnetometer: useMagnetometer, checksUnits: checksUnits, extraColumns: extraColumns)
                rows = reader
                self.units = reader.units
                sensors = reader.hasMagnetometer ? .all : [.gyroscope, .accelerometer]
            } catch {
                throw RecordingFileError(path: path, error: error)
            }
        case .sensorFiles, .sensorContents:
            let (gyroscope, accelerometer, magnetometer): (File, File, File?)
            if case .sensorContents(let g, let a, let m) = input {
                (gyroscope, accelerometer, magnetometer) = (g, a, m)
            } else if case .sensorFiles(let g, let a, let m) = input {
                (gyroscope, accelerometer, magnetometer) = (.path(g), .path(a), m.map { .path($0) })
            } else {
                preconditionFailure("one file per sensor")
            }
            var files: [(file: File, sensor: SensorReading.Sensor)] = [(gyroscope, .gyroscope), (accelerometer, .accelerometer)]
            if let magnetometer, useMagnetometer { files.append((magnetometer, .magnetometer)) }
            let merge = try SensorFileMerge(files: files, units: units, checksUnits: checksUnits)
            self.merge = merge
            rows = nil
            self.units = merge.units
            sensors = files.count == 3 ? .all : [.gyroscope, .accelerometer]
        }
        passedOn = [SensorSample](repeating: SensorSample(timestamp: 0, gyroscope: nil, accelerometer: nil, magnetometer: nil), count: Self.passedOnCapacity)
        currentExtras = [Double](repeating: .nan, count: extraCount)
    }

    /// The header of the file (for one file per sensor, the gyroscope's).
    public var header: [String] { rows?.csv.header ?? merge!.sources[0].reader.csv.header }
    /// The header's line in that file (1 unless blank lines precede it).
    public var headerLine: Int { rows?.csv.headerLine ?? merge!.sources[0].reader.csv.headerLine }

    /// For one file: whether its header has the `k`th extra column asked for.
    public func hasExtraColumn(_ k: Int) -> Bool {
        rows?.extraColumnsFound[k] ?? false
    }

    /// The value of the `k`th extra column asked for in the row of the last sample's gyroscope
    /// reading: NaN when the cell is empty or the header lacks the column.
    public func extraValue(_ k: Int) -> Double { currentExtras[k] }

    /// The next sample, or nil at the end of the recording.
    ///
    /// - Throws: ``RecordingFileError``: the file, line and column of a malformed row, or of the
    ///   row that showed the data contradict their units.
    public func next() throws(RecordingFileError) -> SensorSample? {
        while true {
            if lines.first?.passedOn == true {
                let sample = passedOn[passedOnHead]
                passedOnHead = (passedOnHead + 1) % Self.passedOnCapacity
                passedOnCount -= 1
                takePlace()
                return sample
            }
            if let sample = assembler.next() {
                takePlace()
                return sample
            }
            if assembler.isFinished { return nil }
            try readMore()
        }
    }

    /// Makes the oldest place queued (if any) the place of the sample being returned.
    private func takePlace() {
        guard let entry = lines.first else { return }
        lines.copyFirstExtras(into: &currentExtras)
        lines.pop()
        lastEntry = entry
    }

    /// The most gyroscope readings with a non-finite timestamp held at once.
    public static let passedOnCapacity = 256

    /// Queues a gyroscope reading with a non-finite timestamp as a sample of its own, at its place
    /// with its row's extra values; when too many wait it is discarded and counted.
    private func passOn(_ sample: SensorSample, file: Int, line: Int, extra: (Int) -> Double = { _ in .nan }) {
        guard passedOnCount < Self.passedOnCapacity else {
            discardedInvalidGyroscope += 1
            return
        }
        passedOn[(passedOnHead + passedOnCount) % Self.passedOnCapacity] = sample
        passedOnCount += 1
        lines.push(file: file, line: line, passedOn: true, extra: extra)
    }

    /// Reads the next row (one file) or reading (one file per sensor) into the assembler, or
    /// finishes it at the end.
    private func readMore() throws(RecordingFileError) {
        if let rows {
            let row: IMUReadingRow?
            do throws(CSVError) {
                row = try rows.nextReadings()
            } catch {
                throw RecordingFileError(path: paths[0], error: error)
            }
            guard let row else { return assembler.finish() }
            if row.gyroscope != nil {
                if row.timestamp.isFinite {
                    lines.push(file: 0, line: row.line) { rows.extraValue($0) }
                } else {
                    // Its row's readings go with it: they cannot be placed in time either.
                    passOn(row.sample, file: 0, line: row.line) { rows.extraValue($0) }
                }
            }
            if row.timestamp.isFinite || row.gyroscope == nil { assembler.add(row.sample) }
        } else {
            guard let (reading, file, line) = try merge!.next() else { return assembler.finish() }
            if reading.sensor == .gyroscope {
                guard reading.timestamp.isFinite else {
                    passOn(SensorSample(timestamp: reading.timestamp, gyroscope: reading.value, accelerometer: nil, magnetometer: nil), file: file, line: line)
                    return
                }
                lines.push(file: file, line: line)
            }
            assembler.add(reading)
        }
    }

    /// What the assembler did so far (readings discarded for their timestamps, clock jumps, …).
    public var statistics: SampleAssembler.Statistics { assembler.statistics }

    /// Bytes read so far (of every file), for progress against ``totalBytes``.
    public var bytesRead: Int {
        rows?.csv.bytesRead ?? merge!.sources.reduce(0) { $0 + $1.reader.csv.bytesRead }
    }

    /// The size of the files, when every one is a regular file.
    public var totalBytes: Int? {
        if let rows { return rows.csv.fileSize }
        var total: Int? = 0
        for source in merge!.sources { total = total.flatMap { t in source.reader.csv.fileSize.map { t + $0 } } }
        return total
    }

    /// The files that ended inside a line that was not read (a write cut short), once read to
    /// their end.
    public var partialLastLines: [(path: String, line: CSVPartialLine)] {
        if let rows { return rows.csv.partialLastLine.map { [(path: paths[0], line: $0)] } ?? [] }
        return merge!.sources.compactMap { source in source.reader.csv.partialLastLine.map { (path: source.path, line: $0) } }
    }

    /// What the reader passed over, once read to the end, one sentence each (a command prints them
    /// after `warning: `): a file that ended inside a line that was not read, and readings
    /// discarded for a NaN or infinite timestamp.
    public var warnings: [String] {
        var warnings = partialLastLines.map { $0.path + ": " + $0.line.description }
        let invalid = statistics.invalidReadings + discardedInvalidGyroscope
        if invalid > 0 {
            warnings.append(
                paths.joined(separator: ", ") + ": \(invalid) reading" + (invalid == 1 ? "" : "s")
                    + " with a NaN or infinite timestamp discarded")
        }
        return warnings
    }

    /// Called when reading is about to wait for a pipe, FIFO or terminal that has nothing to give
    /// yet (``CSVReader/whenWaiting``; never for a regular file). A command that writes as it
    /// reads flushes its output there, so that a live pipeline's results follow its input.
    public var whenWaiting: (() -> Void)? {
        didSet {
            if let rows { rows.csv.whenWaiting = whenWaiting }
            for source in merge?.sources ?? [] { source.reader.csv.whenWaiting = whenWaiting }
        }
    }
}

/// Why a recording could not be read: the file and what was wrong in it.
public struct RecordingFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file (`-`: standard input).
    public var path: String
    /// What was wrong, with its line and column where there is one.
    public var error: CSVError

    public init(path: String, error: CSVError) {
        self.path = path
        self.error = error
    }

    /// `path: error`.
    public var description: String { "\(path): \(error.description)" }
}

/// A queue of gyroscope readings' places, each with its row's extra values (``extraCount`` of
/// them) and whether its sample is passed on without the assembler. Its storage starts small and
/// doubles, up to the capacity, only when more places wait than ever before (as
/// ``SampleAssembler``'s queues do), so that opening a reader costs little.
struct LineQueue {
    struct Entry {
        var file: Int
        var line: Int
        var passedOn: Bool
    }

    let capacity: Int
    let extraCount: Int
    private var entries: [Entry]
    /// `extraCount` values per entry, at the entry's index × `extraCount`.
    private var extras: [Double]
    private var head = 0
    private var count = 0

    init(capacity: Int, extraCount: Int) {
        self.capacity = max(capacity, 1)
        self.extraCount = extraCount
        let initial = min(self.capacity, 16)
        entries = [Entry](repeating: Entry(file: 0, line: 0, passedOn: false), count: initial)
        extras = [Double](repeating: .nan, count: initial * extraCount)
    }

    /// The storage index of the entry `offset` places after the oldest (`offset` ≤ `count`).
    @inline(__always)
    private func index(_ offset: Int) -> Int {
        let i = head + offset
        return i < entries.count ? i : i - entries.count
    }

    /// Adds a place with its extra values (`extra(k)`, k < ``extraCount``). The oldest is dropped
    /// when the queue is full (the assembler and the passed-on queue hold fewer readings than the
    /// capacity, so it never is).
    mutating func push(file: Int, line: Int, passedOn: Bool = false, extra: (Int) -> Double = { _ in .nan }) {
        if count == capacity {
            pop()
        } else if count == entries.count {
            grow()
        }
        let i = index(count)
        entries[i] = Entry(file: file, line: line, passedOn: passedOn)
        for k in 0..<extraCount { extras[i * extraCount + k] = extra(k) }
        count += 1
    }

    /// Doubles the storage (up to the capacity), the entries moved to its front in order.
    private mutating func grow() {
        let larger = min(entries.count * 2, capacity)
        var movedEntries: [Entry] = []
        var movedExtras: [Double] = []
        movedEntries.reserveCapacity(larger)
        movedExtras.reserveCapacity(larger * extraCount)
        for k in 0..<count {
            let i = index(k)
            movedEntries.append(entries[i])
            movedExtras.append(contentsOf: extras[(i * extraCount)..<((i + 1) * extraCount)])
        }
        movedEntries.append(contentsOf: repeatElement(Entry(file: 0, line: 0, passedOn: false), count: larger - count))
        movedExtras.append(contentsOf: repeatElement(.nan, count: (larger - count) * extraCount))
        entries = movedEntries
        extras = movedExtras
        head = 0
    }

    var first: Entry? { count > 0 ? entries[head] : nil }

    /// Copies the oldest entry's extra values into `values` (``extraCount`` of them).
    func copyFirstExtras(into values: inout [Double]) {
        guard count > 0 else { return }
        for k in 0..<extraCount { values[k] = extras[head * extraCount + k] }
    }

    @discardableResult
    mutating func pop() -> Entry? {
        guard count > 0 else { return nil }
        let entry = entries[head]
        head = index(1)
        count -= 1
        return entry
    }
}
