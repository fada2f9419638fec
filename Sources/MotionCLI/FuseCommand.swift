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
        abstract: "Fuse a CSV recording into attitude, one row per gyroscope reading.",
        discussion: """
            INPUT: a CSV file (- for standard input; gzip-compressed or not) with t,gx,gy,gz,ax,ay,az and optionally \
            mx,my,mz, in s, rad/s, m/s² and µT unless its header says otherwise ("gx (deg/s)"), \
            checked against the data; or one file per sensor. OUTPUT: t,qw,qx,qy,qz (sensor → earth, scalar first), bias, \
            gravity, linear and earth-frame linear acceleration, flags; a file is replaced only when \
            the whole input was read.

            Unit options (--time-unit, --gyro-unit, --accel-unit, --mag-unit, --trust-units), each \
            filter's own options (--beta, --zeta, --kp, --ki, --maximum-bias, the two time \
            constants) and --jobs: --help-hidden. Details: the DocC article "The motion Command-Line \
            Tool" (CommandLineTool.md).
            """)

    @OptionGroup var recording: RecordingInput

    @Argument(help: "With -O: more inputs.")
    var moreInputs: [String] = []

    @Option(name: .shortAndLong, help: "The output CSV file (- for standard output).")
    var output: String?

    @Option(
        name: [.customShort("O"), .customLong("output-directory")],
        help: ArgumentHelp(
            "Instead of -o: one output here per INPUT (files, folders of .csv[.gz]), on all cores.",
            valueName: "folder"))
    var outputDirectory: String?

    @Option(help: ArgumentHelp("With --output-directory: files fused at once (default: the processor count).", visibility: .hidden))
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "The filter; inertial (InertialFrameFilter) is the default and the most accurate.",
            valueName: "name"))
    var filter: FilterName = .inertial

    @Flag(help: "Ignore magnetometer columns (6D).")
    var noMagnetometer = false

    @Option(help: "The output's earth frame.")
    var frame: EarthFrame = .enu

    // Each filter's own options: hidden from --help (the discussion names them), in --help-hidden.
    @Option(parsing: .unconditional, help: ArgumentHelp("Madgwick β, rad/s (default 0.1).", visibility: .hidden))
    var beta: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Madgwick ζ (gyroscope bias drift gain), rad/s²; 0 (the default) turns it off.", visibility: .hidden))
    var zeta: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Mahony proportional gain Kp, 1/s (default 1).", visibility: .hidden))
    var kp: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Mahony integral gain Ki, 1/s² (default 0.01); the integral is the bias estimate.", visibility: .hidden))
    var ki: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Mahony: largest bias the integral may reach, rad/s (default 0.1).", visibility: .hidden))
    var maximumBias: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Inertial and complementary filters: tilt correction time constant, s (defaults 4 and 1).",
            visibility: .hidden))
    var accelerometerTimeConstant: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Inertial and complementary filters: heading correction time constant, s (defaults 30 and 2).",
            visibility: .hidden))
    var magnetometerTimeConstant: Double?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Set a setting of the chosen filter, in SI units (--filter madgwick --set beta=0.05); repeatable.",
            valueName: "name=value"))
    var settingOverrides: [String] = []

    @Flag(inversion: .prefixedNo, help: "Estimate the gyroscope bias at rest, before the filter.")
    var restBias = false

    @Flag(help: "Do not learn the magnetometer's hard/soft iron online.")
    var noLearnMagnetometer = false

    @Option(help: ArgumentHelp("State of the online calibration: read, then written.", valueName: "file"))
    var magnetometerCalibration: String?

    @OptionGroup var units: InputUnits

    @Option(parsing: .unconditional, help: "Longest step integrated over, s.")
    var maximumGap: Double = 1

    @Option(help: "Arithmetic.")
    var precision: Precision = .double

    @Option(
        name: .customLong("calibration"),
        help: "A `motion calibrate` file (repeatable), applied first.")
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
        if !recording.isGiven { throw ValidationError("missing INPUT (or --gyroscope and --accelerometer files)") }
        switch (output, outputDirectory) {
        case (nil, nil): throw ValidationError("missing -o OUTPUT (or --output-directory FOLDER for many inputs)")
        case (.some, .some): throw ValidationError("give -o OUTPUT or --output-directory FOLDER, not both")
        case (.some, nil):
            if !moreInputs.isEmpty {
                throw ValidationError("several inputs need --output-directory FOLDER (-o takes one recording)")
            }
            if jobs != nil { throw ValidationError("--jobs goes with --output-directory") }
        case (nil, .some):
            if recording.input == nil {
                throw ValidationError("--output-directory takes INPUT files or folders, not the sensors' files (--gyroscope …)")
            }
            if magnetometerCalibration != nil {
                throw ValidationError("--magnetometer-calibration keeps one recording's state; it cannot go with --output-directory")
            }
            if let jobs, !(1...FuseFleetPlan.maximumJobs).contains(jobs) {
                throw ValidationError("--jobs must be 1 to \(FuseFleetPlan.maximumJobs), got \(jobs)")
            }
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
        if magnetometerCalibration != nil && noLearnMagnetometer {
            throw ValidationError("--magnetometer-calibration keeps the online calibration's state; --no-learn-magnetometer turns it off")
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

    /// What is read: INPUT, or the sensors' files (validated: one of them).
    var recordingInput: RecordingReader.Input { recording.recording! }

    /// Fuses the recording sample by sample as ``RecordingReader`` makes them (one per gyroscope
    /// reading, whatever the layout), writing each row as it is made: memory stays flat however
    /// long the recording, and no sample allocates. A sample without accelerometer reading (none
    /// yet, or the latest older than the assembler's age limit) is fused with a NaN
    /// accelerometer: the gyroscope is integrated, there is no tilt correction and the row's flags
    /// lack accelerometerUsed.
    func fuse<F: AttitudeFilter>(_ filter: F) throws {
        let calibration = try CalibrationFile.read(calibrationFiles)
        guard let outputDirectory, let first = recording.input else {
            try fuse(
                filter, input: recordingInput, output: output ?? "-", calibration: calibration,
                protecting: recordingInput.paths + calibrationFiles)
            return
        }
        let plan = try FuseFleetPlan(inputs: [first] + moreInputs, directory: outputDirectory)
        if stopAfter == .write { try FuseFleetPlan.prepare(directory: outputDirectory) }
        let cores = min(ProcessInfo.processInfo.activeProcessorCount, FuseFleetPlan.maximumJobs)
        let workers = min(jobs ?? cores, plan.jobs.count)
        try fuseFleet(filter, plan: plan, workers: max(workers, 1), calibration: calibration)
    }

    /// Fuses one recording into `output` (see ``fuse(_:)``) with the `--calibration` files' `calibration`
    /// (read once per run); `protecting` are the files the output may not be. With a `tally` (many
    /// recordings at once) the progress goes to it and what is said of the recording on standard
    /// error begins with `label`.
    func fuse<F: AttitudeFilter>(
        _ filter: F, input recordingInput: RecordingReader.Input, output: String, calibration: SensorCalibration,
        protecting: [String], label: String? = nil, tally: FuseFleetMeter.Tally? = nil
    ) throws {
        let (restored, stateWritable): (OnlineMagnetometerCalibrator<F.Scalar>, Bool) =
            MagnetometerStateFile.read(magnetometerCalibration)  // validate() refuses it with --no-learn-magnetometer
        var stream = FusionStream(
            filter: filter, clock: SampleClock(maximumGap: maximumGap),
            biasEstimator: restBias ? GyroscopeBiasEstimator() : nil, calibration: calibration,
            magnetometerCalibrator: noLearnMagnetometer ? nil : restored)
        let reader = try units.open(recordingInput, useMagnetometer: !noMagnetometer)
        // Before a sample is read: an output that is an input, a link or a folder is refused here.
        let writer =
            stopAfter == .write ? try FusionCSVWriter(path: output, inputs: protecting) : nil
        // Rows written through to a pipe or terminal go out whenever the input makes us wait.
        if let writer, writer.file.mode == .writeThrough { reader.whenWaiting = { writer.flush() } }
        let progress = tally == nil ? Progress(label: "fuse") : nil
        var rows = 0
        func tellMeter() {
            tally?.report(bytesIn: reader.bytesRead, bytesOut: writer?.file.bytesWritten ?? 0, rows: rows)
        }
        var lastW = F.Scalar.zero  // printed in a measuring run, so the filter's work is kept
        var accelerometer = AccelerometerPresence()
        do throws(RecordingFileError) {
            while let sample = try reader.next() {
                rows += 1
                accelerometer.see(sample.accelerometer)
                if stopAfter != .parse, let g = sample.gyroscope {
                    let a = sample.accelerometer ?? SIMD3(repeating: .nan)
                    let result = stream.update(
                        timestamp: sample.timestamp, gyroscope: SIMD3<F.Scalar>(g), accelerometer: SIMD3<F.Scalar>(a),
                        magnetometer: sample.magnetometer.map(SIMD3<F.Scalar>.init))
                    writer?.write(result)
                    lastW = result.quaternion.w
                }
                if rows & 0xFFF == 0 {
                    progress?.report(rows: rows, bytes: reader.bytesRead, of: reader.totalBytes)
                    tellMeter()
                }
            }
        } catch {
            writer?.abandon()
            throw CommandFailure("\(error)")
        }
        do {
            try accelerometer.check(
                recordingInput.paths,
                written: writer?.file.mode == .writeThrough ? "the rows written are gyroscope integration alone" : "no output written")
        } catch {
            writer?.abandon()
            throw error
        }
        try writer?.finish()
        tellMeter()
        if let path = magnetometerCalibration, stateWritable, let learned = stream.magnetometerCalibrator, stopAfter == .write {
            try MagnetometerStateFile.write(learned, to: path, inputs: protecting + [output])
        }
        progress?.finish(rows: rows)
        warnAboutSkipped(by: reader)
        if let learned = stream.magnetometerCalibrator, tally == nil { report(learned) }
        reportStop(rows: rows, bytes: reader.bytesRead, lastW: lastW, label: label)
    }

    /// What the magnetometer's online calibration learned, on standard error.
    private func report<S: FusionScalar>(_ learned: OnlineMagnetometerCalibrator<S>) {
        let line: String
        if let c = learned.calibration {
            let h = c.hardIron, s = c.softIron
            let rows = (0..<3).map { r in "(" + (0..<3).map { format(s[r, $0], digits: 2) }.joined(separator: " ") + ")" }
            line = "fuse: magnetometer calibration \(learned.accuracy.rawValue) (\(learned.acceptedFits) fits accepted): "
                + "hard iron (\(format(h.x, digits: 2)), \(format(h.y, digits: 2)), \(format(h.z, digits: 2))) µT, "
                + "field \(format(c.fieldStrength, digits: 2)) µT, residual \(format(c.residual, digits: 2)) µT"
                + (learned.hasSoftIron ? ", soft iron rows " + rows.joined(separator: " ") : "")
        } else if learned.sampleCount > 0 {
            line = "fuse: magnetometer not calibrated (\(learned.sampleCount) directions sampled, no fit accepted)"
        } else {
            return
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The measuring run's last line (`--stop-after`).
    private func reportStop<S: FusionScalar>(rows: Int, bytes: Int, lastW: S, label: String?) {
        guard stopAfter != .write else { return }
        let detail = stopAfter == .filter ? ", last qw \(lastW)" : ""
        let fuse = label.map { "fuse: \($0):" } ?? "fuse:"
        FileHandle.standardError.write(
            Data("\(fuse) stopped after \(stopAfter.rawValue), \(rows) rows, \(bytes) bytes\(detail)\n".utf8))
    }
}

/// What every command does with the files it writes (-o, --schedule), in short for the commands'
/// help. ``OutputFile`` (in MotionFusion) does it; the DocC articles The motion Command-Line Tool
/// (Output files) and Bad Input say it in full.
let outputFileRules = """
    -o - is standard output. A file is replaced only when the command succeeds; an output that is \
    an input, a symbolic link, a hard-linked file or a directory is refused (the article's \
    "Output files").
    """

/// `motion fuse` run with the filter the registry builds.
private struct FuseConsumer<Scalar: FusionScalar>: FilterConsumer {
    let command: FuseCommand
    func consume<F: AttitudeFilter>(_ filter: F) throws where F.Scalar == Scalar { try command.fuse(filter) }
}
