import ArgumentParser
import Foundation
import MotionFusion

/// `motion activity`: what the person carrying the device did, over a recording, from its
/// accelerometer.
struct ActivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "Tell stationary, walking, running and unknown apart in a recording, from its accelerometer.",
        discussion: """
            INPUT: what `motion steps` reads (any recording `motion fuse` reads, a t,ax,ay,az CSV, \
            or --accelerometer with the accelerometer's own t,x,y,z file). OUTPUT: one row per \
            change of the activity or of its confidence, t,activity,confidence,start: when it was \
            reported (s), the activity (unknown, stationary, walking, running), the confidence \
            (low, medium, high) and when the activity began (s). It runs ActivityClassifier in \
            constant memory; the first row is the first reading's (unknown, low).

            Unit options (--time-unit, --accel-unit, --trust-units): `motion activity --help-hidden`. \
            They and every detail: the DocC article "The motion Command-Line Tool", section "Activity".

            \(outputFileRules)
            """)

    @OptionGroup var files: AccelerometerInput

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Set a setting of the classifier (ActivityClassifier.Settings: runningCadence, runningImpact, stillDuration, minimumWalk, …; steps.NAME for the step detector's), in SI units; repeatable.",
            valueName: "name=value"))
    var settingOverrides: [String] = []

    func run() throws {
        let path = files.path
        let settings = try SettingsOverrides.apply(
            settingOverrides, to: ActivityClassifier<Double>.Settings(), filter: "activity")
        let writer = ActivityCSVWriter(file: try OutputFile(path: files.output, inputs: [path]))
        var readings = try files.readings()
        if writer.file.mode == .writeThrough { readings.reader.csv.whenWaiting = { writer.flush() } }
        var classifier = ActivityClassifier<Double>(settings: settings)
        do {
            while let reading = try readings.next() {
                if classifier.update(timestamp: reading.timestamp, acceleration: reading.value) {
                    writer.write(classifier.current)
                }
            }
        } catch {
            writer.abandon()
            throw error
        }
        try writer.finish()
        warnAboutCut(readings.reader.csv.partialLastLine, in: path)
        let ignored = classifier.steps.ignoredReadings
        if ignored > 0 {
            FileHandle.standardError.write(
                Data("warning: \(path): \(ignored) reading\(ignored == 1 ? "" : "s") ignored (a NaN or infinite value, or a timestamp not after the previous one)\n".utf8))
        }
    }
}
