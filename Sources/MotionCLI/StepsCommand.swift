import ArgumentParser
import Foundation
import MotionFusion

/// `motion steps`: the steps in a recording, from its accelerometer.
struct StepsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steps",
        abstract: "Count the steps in a recording, from its accelerometer alone.",
        discussion: """
            INPUT: any recording `motion fuse` reads (its t,ax,ay,az columns are used; others are \
            ignored, and an empty ax,ay,az row of a multi-rate recording has no reading), or a CSV \
            with only t,ax,ay,az; or --accelerometer with the accelerometer's own t,x,y,z file. \
            OUTPUT: one row per step, t,steps,cadence: the step's time (s), the count so far and \
            the cadence (steps/s; nan when the walk has just ended). It runs StepDetector in \
            constant memory; each step is written about 0.5 s after it happened, the first steps of \
            a walk once their rhythm confirms it.

            Unit options (--time-unit, --accel-unit, --trust-units): `motion steps --help-hidden`. \
            They and every detail: the DocC article "The motion Command-Line Tool", section "Steps".

            \(outputFileRules)
            """)

    @OptionGroup var files: AccelerometerInput

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Set a setting of the step detector (StepDetector.Settings), in SI units (--set minimumPeak=0.5); repeatable.",
            valueName: "name=value"))
    var settingOverrides: [String] = []

    func run() throws {
        let path = files.path
        let settings = try SettingsOverrides.apply(settingOverrides, to: StepDetector<Double>.Settings(), filter: "steps")
        let writer = StepCSVWriter(file: try OutputFile(path: files.output, inputs: [path]))
        var readings = try files.readings()
        if writer.file.mode == .writeThrough { readings.reader.csv.whenWaiting = { writer.flush() } }
        var detector = StepDetector<Double>(settings: settings)
        func write() {
            let cadence = detector.cadence ?? .nan
            let times = detector.newStepTimes
            for (k, t) in times.enumerated() {
                writer.write(time: t, count: detector.stepCount - times.count + k + 1, cadence: cadence)
            }
        }
        do {
            while let reading = try readings.next() {
                if detector.update(timestamp: reading.timestamp, acceleration: reading.value) > 0 { write() }
            }
        } catch {
            writer.abandon()
            throw error
        }
        if detector.finish() > 0 { write() }
        try writer.finish()
        warnAboutCut(readings.reader.csv.partialLastLine, in: path)
        let ignored = detector.ignoredReadings
        if ignored > 0 {
            FileHandle.standardError.write(
                Data("warning: \(path): \(ignored) reading\(ignored == 1 ? "" : "s") ignored (a NaN or infinite value, or a timestamp not after the previous one)\n".utf8))
        }
    }
}
