import ArgumentParser
import MotionFusion

/// `motion calibrate accelerometer`.
struct CalibrateAccelerometer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accelerometer",
        abstract: "Bias, sensitivity and misalignment from static orientations (LAPACK least squares, Gauss–Newton).",
        discussion: """
            Hold the sensor still in six or more different orientations (nine or more to estimate the \
            misalignment too), at least 1.5 s each; the static segments are found automatically. The \
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
