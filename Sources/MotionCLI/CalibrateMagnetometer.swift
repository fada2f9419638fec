import ArgumentParser
import MotionFusion

/// `motion calibrate magnetometer`.
struct CalibrateMagnetometer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "magnetometer",
        abstract: "Hard- and soft-iron calibration by an ellipsoid fit (LAPACK).",
        discussion: """
            Reads the mx,my,mz columns of INPUT (rows with empty magnetometer fields are skipped). \
            Turn the sensor through as many directions as possible while recording. The calibrated \
            field is softIron · (raw − hardIron); its magnitude is --field-strength when given, \
            otherwise the fitted radius.
            """)

    @Argument(help: "The input CSV file with mx,my,mz columns.")
    var input: String

    @Option(name: .shortAndLong, help: "Write the calibration to this JSON file (- for standard output).")
    var output: String?

    @Option(help: "Magnetometer unit of the input: uT, nT, mT or gauss (default: the header's, else uT).")
    var magUnit: MagnetometerUnit?

    @Flag(help: "Fit the field in the unit given even when its magnitude says otherwise (a median outside 5–3000 µT).")
    var trustUnits = false

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
        let samples = try Self.readMagnetometer(input, unit: magUnit, checksUnit: !trustUnits)
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
    /// the header's, else µT); a `unit` that contradicts the header is an error naming both. The
    /// unit is checked against the data as every reader checks a magnetometer's
    /// (``RecordingUnitCheck``: the median magnitude of the first readings within 5–3000 µT)
    /// unless `checksUnit` is false (`--trust-units`).
    static func readMagnetometer(_ path: String, unit given: MagnetometerUnit?, checksUnit: Bool = true) throws -> [SIMD3<Double>] {
        do throws(CSVError) {
            let reader = try CSVReader(path: path)
            let columns = try RecordingColumns.magnetometer.map { name throws(CSVError) in
                try reader.requiredColumn(named: name)
            }
            let unit = try reader.unit(ofColumns: columns, given: given)
            // Only the magnetometer is fed: the check's other tests have no data and do not run.
            var check =
                checksUnit
                ? RecordingUnitCheck(
                    time: .seconds, gyroscope: .radiansPerSecond, accelerometer: .metersPerSecondSquared, magnetometer: unit)
                : nil
            func verdict(final: Bool) throws(CSVError) {
                guard let mismatch = check?.mismatch(final: final) else { return }
                check = nil
                throw .implausibleUnit(
                    line: reader.lineNumber, column: columns[0] + 1, name: reader.header[columns[0]], mismatch: mismatch,
                    source: reader.unitSource(ofColumn: columns[0], given: given != nil))
            }
            var values: [Double] = []
            var samples: [SIMD3<Double>] = []
            // Held in memory (the fit needs them all): at most what the memory available holds,
            // counting an array's growth by doubling.
            let limit = SystemMemory.samples(bytesEach: 2 * MemoryLayout<SIMD3<Double>>.stride)
            while try reader.nextRow(columns: columns, into: &values, optional: Set(columns)) {
                let m = SIMD3(values[0], values[1], values[2])
                if m.x.isNaN && m.y.isNaN && m.z.isNaN { continue }  // no magnetometer this row
                guard samples.count < limit else { throw CSVError.tooManySamples(line: reader.lineNumber, limit: limit) }
                let field = m * unit.toMicrotesla
                samples.append(field)
                if check != nil {
                    check!.add(magnetometer: field)
                    try verdict(final: false)
                }
            }
            try verdict(final: true)
            warnAboutCut(reader.partialLastLine, in: path)
            return samples
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }
}
