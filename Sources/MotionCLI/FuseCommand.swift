import ArgumentParser
import Foundation
import MotionFusion

extension EarthFrame: ExpressibleByArgument {}
extension GyroscopeUnit: ExpressibleByArgument {}
extension AccelerometerUnit: ExpressibleByArgument {}
extension MagnetometerUnit: ExpressibleByArgument {}
extension TimeUnit: ExpressibleByArgument {}

/// `motion fuse`: runs a filter over a CSV recording and writes the attitude per row.
struct FuseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuse",
        abstract: "Fuse a CSV recording into attitude (one output row per gyroscope reading).",
        discussion: """
            INPUT: a CSV file (- for standard input) whose header names t,gx,gy,gz,ax,ay,az and \
            optionally mx,my,mz in any order (x-io's names too), in the header's units ("gx (deg/s)"), \
            else the unit options', else s, rad/s, m/s² (specific force) and µT; the units are checked \
            against the data. Rows with empty cells, or one file per sensor (--gyroscope, \
            --accelerometer, --magnetometer), are a multi-rate recording: one output row per gyroscope \
            reading.

            OUTPUT: t,qw,qx,qy,qz (sensor → earth, scalar first), bias_x..z (rad/s), gravity_x..z, \
            linear_x..z, earth_linear_x..z (m/s²), flags. A file is replaced only when the whole input \
            was read; an error names the line and column and exits with status 1.

            Everything in detail: the DocC article "The motion Command-Line Tool" \
            (Sources/MotionFusion/MotionFusion.docc/CommandLineTool.md).
            """)

    @Argument(help: "The input CSV file, - for standard input (absent when the sensors come in files of their own).")
    var input: String?

    @Option(
        name: .customLong("gyroscope"),
        help: ArgumentHelp(
            "Instead of INPUT: the gyroscope's readings, a CSV file with t,x,y,z (with --accelerometer).",
            valueName: "file"))
    var gyroscope: String?

    @Option(
        name: .customLong("accelerometer"),
        help: ArgumentHelp("Instead of INPUT: the accelerometer's readings, t,x,y,z (with --gyroscope).", valueName: "file"))
    var accelerometer: String?

    @Option(
        name: .customLong("magnetometer"),
        help: ArgumentHelp("Instead of INPUT, optional: the magnetometer's readings, t,x,y,z.", valueName: "file"))
    var magnetometer: String?

    @Option(name: .shortAndLong, help: "The output CSV file (- for standard output).")
    var output: String

    @Option(
        help: ArgumentHelp(
            "The filter: " + FilterName.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ") + ".",
            valueName: "name"))
    var filter: FilterName = .inertial

    @Flag(help: "Ignore magnetometer columns (6D).")
    var noMagnetometer = false

    @Option(help: "Earth frame of the output: enu, nwu or ned.")
    var frame: EarthFrame = .enu

    @Option(parsing: .unconditional, help: "Madgwick β, rad/s (default 0.1).")
    var beta: Double?

    @Option(parsing: .unconditional, help: "Madgwick ζ (gyroscope bias drift gain), rad/s²; 0 (the default) turns it off.")
    var zeta: Double?

    @Option(parsing: .unconditional, help: "Mahony proportional gain Kp, 1/s (default 1).")
    var kp: Double?

    @Option(parsing: .unconditional, help: "Mahony integral gain Ki, 1/s² (default 0.01); the integral is the bias estimate.")
    var ki: Double?

    @Option(parsing: .unconditional, help: "Mahony: largest bias the integral may reach, rad/s (default 0.1).")
    var maximumBias: Double?

    @Option(
        parsing: .unconditional,
        help: "Inertial and complementary filters: tilt correction time constant, s (defaults 4 and 1).")
    var accelerometerTimeConstant: Double?

    @Option(
        parsing: .unconditional,
        help: "Inertial and complementary filters: heading correction time constant, s (defaults 30 and 2).")
    var magnetometerTimeConstant: Double?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Set any field of the chosen filter's Settings (InertialFrameFilter, MadgwickFilter, MahonyFilter or ComplementaryFilter), after the flags, e.g. --set biasRestSigma=0.001 or --filter madgwick --set beta=0.05 (SI units: s, rad/s, rad, m/s²; true/false for switches; enu/nwu/ned for frame). An unknown name lists the filter's settings.",
            valueName: "name=value"))
    var settingOverrides: [String] = []

    @Flag(
        inversion: .prefixedNo,
        help: "Estimate gyroscope bias at rest (GyroscopeBiasEstimator) in front of the filter.")
    var restBias = false

    @OptionGroup var units: InputUnits

    @Option(parsing: .unconditional, help: "Steps longer than this many seconds are gaps (not integrated over).")
    var maximumGap: Double = 1

    @Option(help: "Compute in double or float.")
    var precision: Precision = .double

    @Option(
        name: .customLong("calibration"),
        help: "A calibration file from `motion calibrate` (repeat for several sensors); applied before the filter.")
    var calibrationFiles: [String] = []

    /// How far a run goes. Hidden: for measuring the stages separately (`scripts/measure_io`).
    enum Stage: String, CaseIterable, ExpressibleByArgument {
        /// Read and check the whole input, nothing more.
        case parse
        /// Also run the filter on every row.
        case filter
        /// Also write the output (a normal run).
        case write
    }

    @Option(
        help: ArgumentHelp(
            "For measuring: stop after parse (read and check the input) or filter (also fuse); neither writes OUTPUT.",
            visibility: .hidden))
    var stopAfter: Stage = .write

    func validate() throws {
        let sensorFiles = [gyroscope, accelerometer, magnetometer].contains { $0 != nil }
        if input != nil && sensorFiles {
            throw ValidationError("give INPUT or the sensors' files (--gyroscope, --accelerometer, --magnetometer), not both")
        }
        if input == nil && (gyroscope == nil || accelerometer == nil) {
            throw ValidationError(
                sensorFiles
                    ? "the sensors' files need both --gyroscope and --accelerometer (--magnetometer is optional)"
                    : "missing INPUT (or --gyroscope and --accelerometer files)")
        }
        // An option of another filter would be ignored: refuse it, naming the filters it belongs to.
        for option in filterOptions.keys.sorted(by: { $0.rawValue < $1.rawValue }) where !filter.options.contains(option) {
            throw ValidationError(
                "\(option.flag) is a setting of --filter "
                    + FilterName.owners(of: option).map(\.rawValue).joined(separator: " and ")
                    + ", not of the \(filter.rawValue) filter, which would ignore it; "
                    + "its own settings are set with --set NAME=VALUE (an unknown NAME lists them)")
        }
        for (name, value) in filterOptions.map({ ($0.key.flag, $0.value) }) + [("--maximum-gap", maximumGap)]
        where !(value.isFinite && value >= 0) {
            throw ValidationError("\(name) must be a finite number ≥ 0, got \(value)")
        }
        if accelerometerTimeConstant == 0 || magnetometerTimeConstant == 0 || maximumGap == 0 {
            throw ValidationError("time constants and --maximum-gap must be greater than 0")
        }
    }

    /// The filter options given, by option.
    var filterOptions: [FilterOption: Double] {
        let values: [FilterOption: Double?] = [
            .beta: beta, .zeta: zeta, .kp: kp, .ki: ki, .maximumBias: maximumBias,
            .accelerometerTimeConstant: accelerometerTimeConstant, .magnetometerTimeConstant: magnetometerTimeConstant,
        ]
        return values.compactMapValues { $0 }
    }

    func run() throws {
        switch precision {
        case .double: try run(Double.self)
        case .float: try run(Float.self)
        }
    }

    func run<S: FusionScalar>(_: S.Type) throws {
        try filter.build(
            options: filterOptions, overrides: settingOverrides, frame: frame, for: FuseConsumer<S>(command: self))
    }

    func fuse<F: AttitudeFilter>(_ filter: F) throws {
        let calibration = try CalibrationFile.read(calibrationFiles)
        func newStream() -> FusionStream<F> {
            FusionStream(
                filter: filter, clock: SampleClock(maximumGap: maximumGap),
                biasEstimator: restBias ? GyroscopeBiasEstimator() : nil, calibration: calibration)
        }
        guard let input else {
            try fuseSensorFiles(newStream())
            return
        }
        let reader: IMUCSVReader
        do throws(CSVError) {
            reader = try multiRate(input).reader()
        } catch {
            throw CommandFailure("\(input): \(error)")
        }
        // Before a row is read: an output that is an input, a link or a folder is refused here.
        var writer = stopAfter == .write ? try FusionCSVWriter(path: output, inputs: [input] + calibrationFiles) : nil
        // Rows written through to standard output or a device cannot be taken back: there, a
        // regular input is first checked for rows without gyroscope or accelerometer.
        if let writer, writer.file.mode == .writeThrough, reader.csv.fileSize != nil, multiRate(input).hasMissingReadings() {
            try fuseMultiRate(input, newStream(), writer: writer)
            return
        }
        let progress = Progress(label: "fuse")
        var stream = newStream()
        var rows = 0
        var lastW = F.Scalar.zero  // printed in a measuring run, so the filter's work is kept
        var magnetometer = MultiRateRecording.MagnetometerPresence()
        var reason: MultiRateRecording.Reason?
        do throws(CSVError) {
            // Row by row: memory stays flat however long the recording, and no row allocates.
            while let record = try reader.next() {
                if magnetometer.changes(record.magnetometer != nil) {
                    reason = .magnetometerChanges(line: reader.csv.lineNumber)
                    break
                }
                if stopAfter != .parse {
                    let result = stream.update(
                        timestamp: record.timestamp, gyroscope: SIMD3<F.Scalar>(record.gyroscope),
                        accelerometer: SIMD3<F.Scalar>(record.accelerometer),
                        magnetometer: record.magnetometer.map(SIMD3<F.Scalar>.init))
                    writer?.write(result)
                    lastW = result.quaternion.w
                }
                rows += 1
                if rows & 0xFFF == 0 {
                    progress.report(rows: rows, bytes: reader.csv.bytesRead, of: reader.csv.fileSize)
                }
            }
        } catch {
            guard MultiRateRecording.isMissingReading(error, in: reader) else {
                writer?.abandon()
                throw CommandFailure("\(input): \(error)")
            }
            reason = .missingReading(error)
        }
        if let reason {
            // What was fused row by row is dropped, and the file read again from the start.
            try multiRate(input).readAgain(because: reason, after: reader, dropOutput: { writer?.abandon() }) {
                if stopAfter == .write { writer = try FusionCSVWriter(path: output, inputs: [input] + calibrationFiles) }
                try fuseMultiRate(input, newStream(), writer: writer)
            }
            return
        }
        try writer?.finish()
        progress.finish(rows: rows)
        warnAboutCut(reader.csv.partialLastLine, in: input)
        reportStop(rows: rows, bytes: reader.csv.bytesRead, lastW: lastW)
    }

    /// The measuring run's last line (`--stop-after`).
    private func reportStop<S: FusionScalar>(rows: Int, bytes: Int, lastW: S) {
        guard stopAfter != .write else { return }
        let detail = stopAfter == .filter ? ", last qw \(lastW)" : ""
        FileHandle.standardError.write(
            Data("fuse: stopped after \(stopAfter.rawValue), \(rows) rows, \(bytes) bytes\(detail)\n".utf8))
    }

    /// The input as a multi-rate recording (read through a ``SampleAssembler``).
    func multiRate(_ input: String) -> MultiRateRecording {
        MultiRateRecording(path: input, units: units, useMagnetometer: !noMagnetometer)
    }

    /// Fuses a multi-rate recording: each row's readings, in file order, go through a
    /// ``SampleAssembler`` (default rules), which makes one sample per gyroscope reading.
    func fuseMultiRate<F: AttitudeFilter>(_ input: String, _ stream: FusionStream<F>, writer: FusionCSVWriter?) throws {
        var run = AssembledRun(stream: stream, writer: writer, stopAfter: stopAfter)
        let reader: IMUCSVReader
        do {
            reader = try multiRate(input).assemble(
                progress: { run.report(bytes: $0.csv.bytesRead, of: $0.csv.fileSize) }, { run.fuse($0) })
        } catch {
            writer?.abandon()
            throw error
        }
        try run.finish()
        warnAboutCut(reader.csv.partialLastLine, in: input)
        reportStop(rows: run.rows, bytes: reader.csv.bytesRead, lastW: run.lastW)
    }

    /// Fuses one file per sensor (`--gyroscope`, `--accelerometer`, `--magnetometer`): their
    /// readings, merged by timestamp, go through a ``SampleAssembler`` (default rules).
    func fuseSensorFiles<F: AttitudeFilter>(_ stream: FusionStream<F>) throws {
        var files: [(path: String, sensor: SensorReading.Sensor)] = [
            (gyroscope!, .gyroscope), (accelerometer!, .accelerometer),
        ]
        if let magnetometer, !noMagnetometer { files.append((magnetometer, .magnetometer)) }
        var merge = try SensorFileMerge(files: files, units: units)
        let inputs = [gyroscope, accelerometer, magnetometer].compactMap { $0 } + calibrationFiles
        // Before a row is fused: an output that is an input, a link or a folder is refused here.
        let writer = stopAfter == .write ? try FusionCSVWriter(path: output, inputs: inputs) : nil
        var run = AssembledRun(stream: stream, writer: writer, stopAfter: stopAfter)
        do {
            while let reading = try merge.next() {
                run.add(reading)
                let (bytes, total) = merge.progress
                run.report(bytes: bytes, of: total)
            }
        } catch {
            writer?.abandon()
            throw error
        }
        try run.finish()
        for source in merge.sources { warnAboutCut(source.reader.csv.partialLastLine, in: source.path) }
        reportStop(rows: run.rows, bytes: merge.progress.bytes, lastW: run.lastW)
    }
}

/// What every command does with the files it writes (-o, --schedule), for the commands' help.
/// ``OutputFile`` (in MotionFusion) does it; the DocC article Bad Input says the same.
let outputFileRules = """
    OUTPUT - (or /dev/stdout) is standard output. A regular file is written to a temporary file \
    in its folder, which replaces it only when the command succeeds and keeps its permission bits \
    (and, run as root, its owner). Devices and FIFOs (/dev/null, a named pipe, or a symbolic link \
    to one) are written through. Refused before anything is written: an output that is one of \
    the command's inputs (by any name, hard link or symbolic link); a symbolic link to a file \
    (give the file's own path: the link is neither replaced nor followed); a file with other hard \
    links (replacing it would break them); a directory.
    """

/// `motion fuse` run with the filter the registry builds.
private struct FuseConsumer<Scalar: FusionScalar>: FilterConsumer {
    let command: FuseCommand
    func consume<F: AttitudeFilter>(_ filter: F) throws where F.Scalar == Scalar { try command.fuse(filter) }
}
