import ArgumentParser
import MotionFusion

/// `motion calibrate gyroscope`.
struct CalibrateGyroscope: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gyroscope",
        abstract: "Bias from static segments; sensitivity from a known rotation when given.",
        discussion: """
            The bias is the duration-weighted mean rate over the static segments. With \
            --known-rotation DEG, the recording must contain one rotation by that angle between two \
            rests (a turntable turn, say): the axis that dominates it (or --axis) gets the sensitivity \
            that makes the integrated angle match.
            """)

    @OptionGroup var options: InertialInput

    @Option(parsing: .unconditional, help: "The angle of a known rotation in the recording, degrees (its magnitude counts; -90 is a quarter turn too).")
    var knownRotation: Double?

    @Option(help: "The axis of the known rotation: x, y or z (default: the dominant one).")
    var axis: GyroscopeCalibrator.Axis?

    /// The largest known rotation taken, degrees: 10,000 turns (1e308 degrees turned into an
    /// infinite angle, refused as "not finite").
    static let largestKnownRotation = 3_600_000.0

    func validate() throws {
        if let knownRotation, !(knownRotation.isFinite && knownRotation != 0 && abs(knownRotation) <= Self.largestKnownRotation) {
            throw ValidationError(
                "--known-rotation must be a non-zero number of degrees, at most \(Int(Self.largestKnownRotation)) (10,000 turns) in size, got \(knownRotation)")
        }
    }

    func run() throws {
        let file = try options.outputFile()
        var report = Report(beside: file)
        let recording = try options.recording()
        let known = knownRotation.map {
            GyroscopeCalibrator.KnownRotation(angle: $0 / 180 * .pi, axis: axis)
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
