import ArgumentParser
import Foundation
import MotionFusion

/// `motion calibrate`: sensor calibration from a recording.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate a magnetometer, accelerometer or gyroscope from a CSV recording.",
        discussion: """
            Prints the parameters and residuals, and with -o writes a JSON file that `motion fuse \
            --calibration FILE` applies before the filter. The -o file is checked before the \
            recording is read and written only when the calibration succeeds.

            \(outputFileRules)
            """,
        subcommands: [CalibrateMagnetometer.self, CalibrateAccelerometer.self, CalibrateGyroscope.self])
}

/// Statistics of a set of vector magnitudes, for reporting calibration quality.
struct NormSpread {
    var mean = 0.0, standardDeviation = 0.0, minimum = 0.0, maximum = 0.0

    init(_ vectors: [SIMD3<Double>]) {
        let norms = vectors.map(\.lengthOfVector)
        guard !norms.isEmpty else { return }
        mean = norms.reduce(0, +) / Double(norms.count)
        standardDeviation = (norms.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(norms.count)).squareRoot()
        minimum = norms.min()!
        maximum = norms.max()!
    }

    var text: String {
        "mean \(format(mean, digits: 2)), std \(format(standardDeviation, digits: 3)), range "
            + "\(format(minimum, digits: 2))…\(format(maximum, digits: 2))"
    }
}

/// `motion calibrate magnetometer`.
struct CalibrateMagnetometer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "magnetometer",
        abstract: "Hard- and soft-iron calibration by an ellipsoid fit (LAPACK).",
        discussion: """
            Reads the mx,my,mz columns of INPUT (rows with empty magnetometer fields are skipped). \\
            Turn the sensor through as many directions as possible while recording. The calibrated \\
            field is softIron · (raw − hardIron); its magnitude is --field-strength when given, \\
            otherwise the fitted radius.
            """)

    @Argument(help: "The input CSV file with mx,my,mz columns.")
    var input: String

    @Option(name: .shortAndLong, help: "Write the calibration to this JSON file (- for standard output).")
    var output: String?

    @Option(help: "Magnetometer unit of the input: uT, nT, mT or gauss (default: the header's, else uT).")
    var magUnit: MagnetometerUnit?

    @Option(help: "The local field strength in µT (otherwise from --latitude/--longitude, or the fitted radius).")
    var fieldStrength: Double?

    @Option(help: "The model: ellipsoid (hard and soft iron), sphere (hard iron only) or automatic (ellipsoid when the data determine it).")
    var model: EllipsoidFit.Model = .automatic

    // `.unconditional`: the value may start with a minus sign (south, west, below the ellipsoid).
    @Option(
        parsing: .unconditional,
        help: "Geodetic latitude in degrees: the field strength then comes from the World Magnetic Model 2025.")
    var latitude: Double?

    @Option(parsing: .unconditional, help: "Longitude in degrees (east positive), with --latitude.")
    var longitude: Double?

    @Option(parsing: .unconditional, help: "Height above the WGS-84 ellipsoid in km, with --latitude.")
    var heightKm: Double = 0

    @Option(help: "Date YYYY-MM-DD for the World Magnetic Model (default: today).")
    var date: String?

    func validate() throws {
        if (latitude == nil) != (longitude == nil) {
            throw ValidationError("--latitude and --longitude go together")
        }
        if fieldStrength != nil && latitude != nil {
            throw ValidationError("give either --field-strength or a location, not both")
        }
    }

    /// The field strength to scale to, µT, and where it came from.
    func strength() throws -> (Double?, String) {
        if let fieldStrength { return (fieldStrength, "given") }
        guard let latitude, let longitude else { return (nil, "fitted radius") }
        let year = try decimalYear(date)
        do {
            let field = try WorldMagneticModel.wmm2025.field(
                latitude: latitude, longitude: longitude, heightKilometers: heightKm, decimalYear: year)
            return (field.totalIntensity / 1000, "WMM2025 at \(latitude)°, \(longitude)°, \(heightKm) km, \(year)")
        } catch {
            throw CommandFailure("World Magnetic Model: \(error)")
        }
    }

    func run() throws {
        // The output is checked (not an input, not a link) before the work, and written after it.
        let file = try output.map { try OutputFile(path: $0, inputs: [input]) }
        var report = Report(beside: file)
        let samples = try Self.readMagnetometer(input, unit: magUnit)
        let (field, source) = try strength()
        let calibration: MagnetometerCalibration
        let used: EllipsoidFit.Model
        do throws(CalibrationError) {
            (calibration, used) = try EllipsoidFit.magnetometer(samples, fieldStrength: field, model: model)
        } catch {
            throw CommandFailure("\(input): \(error)")
        }
        let h = calibration.hardIron
        let (r0, r1, r2) = calibration.softIron.rows
        print("magnetometer calibration from \(samples.count) samples of \(input)", to: &report)
        print("  model: \(used == .ellipsoid ? "ellipsoid (hard and soft iron)" : "sphere (hard iron only; the samples do not determine a full ellipsoid)")", to: &report)
        print("  hard iron (µT):  [\(h.x), \(h.y), \(h.z)]", to: &report)
        print("  soft iron:       [\(r0.x), \(r0.y), \(r0.z)]", to: &report)
        print("                   [\(r1.x), \(r1.y), \(r1.z)]", to: &report)
        print("                   [\(r2.x), \(r2.y), \(r2.z)]", to: &report)
        print("  field strength:  \(calibration.fieldStrength) µT (\(source))", to: &report)
        print("  residual (RMS of |m| − field strength): \(format(calibration.residual, digits: 4)) µT, accuracy \(calibration.accuracy.rawValue)", to: &report)
        print("  |m| before (µT): \(NormSpread(samples).text)", to: &report)
        print("  |m| after  (µT): \(NormSpread(samples.map { calibration.apply($0) }).text)", to: &report)
        if let file {
            try CalibrationFile.write(calibration, sensor: .magnetometer, to: file)
            print("  written to \(file.path)", to: &report)
        }
    }

    /// The mx,my,mz samples of `path` in µT, from the header's unit (`mx (nT)`) or `unit` (nil:
    /// the header's, else µT); a `unit` that contradicts the header is an error naming both.
    static func readMagnetometer(_ path: String, unit given: MagnetometerUnit?) throws -> [SIMD3<Double>] {
        do throws(CSVError) {
            let reader = try CSVReader(path: path)
            let columns = try ["mx", "my", "mz"].map { name throws(CSVError) in try reader.requiredColumn(named: name) }
            let unit = try reader.unit(ofColumns: columns, given: given)
            var values: [Double] = []
            var samples: [SIMD3<Double>] = []
            while try reader.nextRow(columns: columns, into: &values, optional: Set(columns)) {
                let m = SIMD3(values[0], values[1], values[2])
                if m.x.isNaN && m.y.isNaN && m.z.isNaN { continue }  // no magnetometer this row
                samples.append(m * unit.toMicrotesla)
            }
            warnAboutCut(reader.partialLastLine, in: path)
            return samples
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }
}

extension EllipsoidFit.Model: ExpressibleByArgument {}

extension GyroscopeCalibrator.Axis: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument.lowercased() {
        case "x": self = .x
        case "y": self = .y
        case "z": self = .z
        default: return nil
        }
    }
}

/// Options shared by the inertial calibrations: the recording and its units.
struct InertialInput: ParsableArguments {
    @Argument(help: "The input CSV file (t,gx,gy,gz,ax,ay,az; other columns ignored).")
    var input: String

    @Option(name: .shortAndLong, help: "Write the calibration to this JSON file (- for standard output).")
    var output: String?

    @Option(help: "Gyroscope unit of the input: rad/s or deg/s (default: the header's, else rad/s).")
    var gyroUnit: GyroscopeUnit?

    @Option(help: "Accelerometer unit of the input: m/s2 or g (default: the header's, else m/s2).")
    var accelUnit: AccelerometerUnit?

    /// The -o file, opened (and checked: not the input, not a link) before the recording is read.
    func outputFile() throws(OutputFileError) -> OutputFile? {
        try output.map { path throws(OutputFileError) in try OutputFile(path: path, inputs: [input]) }
    }

    func recording() throws -> IMURecording {
        do throws(CSVError) {
            let recording = try IMURecording.read(path: input, gyroscopeUnit: gyroUnit, accelerometerUnit: accelUnit)
            warnAboutCut(recording.partialLastLine, in: input)
            return recording
        } catch {
            throw CommandFailure("\(input): \(error)")
        }
    }
}

func describe(_ c: InertialCalibration, unit: String, to report: inout Report) {
    let m = c.misalignment.rows
    print("  bias (\(unit)):     [\(c.bias.x), \(c.bias.y), \(c.bias.z)]", to: &report)
    print("  sensitivity:     [\(c.sensitivity.x), \(c.sensitivity.y), \(c.sensitivity.z)]", to: &report)
    print("  misalignment:    [\(m.0.x), \(m.0.y), \(m.0.z)]", to: &report)
    print("                   [\(m.1.x), \(m.1.y), \(m.1.z)]", to: &report)
    print("                   [\(m.2.x), \(m.2.y), \(m.2.z)]", to: &report)
}

/// `motion calibrate accelerometer`.
struct CalibrateAccelerometer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accelerometer",
        abstract: "Bias, sensitivity and misalignment from static orientations (LAPACK least squares, Gauss–Newton).",
        discussion: """
            Hold the sensor still in six or more different orientations (nine or more to estimate the \\
            misalignment too), at least 1.5 s each; the static segments are found automatically. The \\
            result is in m/s²: calibrated = misalignment · sensitivity ⊙ (raw − bias).
            """)

    @OptionGroup var options: InertialInput

    func run() throws {
        let file = try options.outputFile()
        var report = Report(beside: file)
        let recording = try options.recording()
        let result: AccelerometerCalibrator.Result
        do throws(CalibrationError) {
            result = try AccelerometerCalibrator.calibrate(recording, settings: AccelerometerCalibrator.Settings())
        } catch {
            throw CommandFailure("\(options.input): \(error)")
        }
        print("accelerometer calibration from \(result.segments.count) static segments of \(options.input)", to: &report)
        describe(result.calibration, unit: "m/s²", to: &report)
        print("  model: \(result.estimatesMisalignment ? "bias, sensitivity and misalignment" : "bias and sensitivity")", to: &report)
        if let note = result.note { print("  note: \(note)", to: &report) }
        print("  residual (RMS of |a| − g over the orientations): \(format(result.residual, digits: 5)) m/s²", to: &report)
        print("  Gauss–Newton iterations: \(result.iterations), condition number \(format(result.conditionNumber, digits: 1))", to: &report)
        if let file {
            try CalibrationFile.write(result.calibration, sensor: .accelerometer, to: file)
            print("  written to \(file.path)", to: &report)
        }
    }
}

/// `motion calibrate gyroscope`.
struct CalibrateGyroscope: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gyroscope",
        abstract: "Bias from static segments; sensitivity from a known rotation when given.",
        discussion: """
            The bias is the duration-weighted mean rate over the static segments. With \\
            --known-rotation DEG, the recording must contain one rotation by that angle between two \\
            rests (a turntable turn, say): the axis that dominates it (or --axis) gets the sensitivity \\
            that makes the integrated angle match.
            """)

    @OptionGroup var options: InertialInput

    @Option(parsing: .unconditional, help: "The angle of a known rotation in the recording, degrees (its magnitude counts; -90 is a quarter turn too).")
    var knownRotation: Double?

    @Option(help: "The axis of the known rotation: x, y or z (default: the dominant one).")
    var axis: GyroscopeCalibrator.Axis?

    func validate() throws {
        if let knownRotation, !(knownRotation.isFinite && knownRotation != 0) {
            throw ValidationError("--known-rotation must be a finite, non-zero number of degrees, got \(knownRotation)")
        }
    }

    func run() throws {
        let file = try options.outputFile()
        var report = Report(beside: file)
        let recording = try options.recording()
        let known = knownRotation.map {
            GyroscopeCalibrator.KnownRotation(angle: $0 * .pi / 180, axis: axis)
        }
        let result: GyroscopeCalibrator.Result
        do throws(CalibrationError) {
            result = try GyroscopeCalibrator.calibrate(recording, knownRotation: known, settings: GyroscopeCalibrator.Settings())
        } catch {
            throw CommandFailure("\(options.input): \(error)")
        }
        print("gyroscope calibration from \(result.segments.count) static segments of \(options.input)", to: &report)
        describe(result.calibration, unit: "rad/s", to: &report)
        let se = result.biasStandardError
        print("  bias standard error (rad/s): [\(se.x), \(se.y), \(se.z)]", to: &report)
        if let rotation = result.rotation {
            let r = rotation.integratedRotation
            print("  known rotation: integrated [\(r.x), \(r.y), \(r.z)] rad between \(rotation.startTime) s and \(rotation.endTime) s, sensitivity \(rotation.sensitivity)", to: &report)
        }
        if let file {
            try CalibrationFile.write(result.calibration, sensor: .gyroscope, to: file)
            print("  written to \(file.path)", to: &report)
        }
    }
}

/// A decimal year from `YYYY-MM-DD` (or today when nil), as the World Magnetic Model counts time.
func decimalYear(_ text: String?) throws -> Double {
    let parts: [Int]
    if let text {
        parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { throw ValidationError("dates are YYYY-MM-DD, got \(text)") }
    } else {
        let now = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date())
        parts = [now.year!, now.month!, now.day!]
    }
    do {
        return try WorldMagneticModel.decimalYear(year: parts[0], month: parts[1], day: parts[2])
    } catch {
        throw CommandFailure("\(text ?? "today"): \(error)")
    }
}
