import ArgumentParser
import Foundation
import MotionFusion

/// `motion events`: shakes, orientation changes and movements in a recording.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Detect shakes, device-orientation changes and movements in a recording.",
        discussion: """
            Input as for `motion fuse`. The recording runs through device motion (InertialFrameFilter, \\
            x-arbitrary-corrected-Z-vertical frame) and MotionEventDetector. Output: one row per event, \\
            t,event,value with event shakeBegan, shakeEnded, shakeCancelled (value empty), orientation \\
            (value: portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, faceDown) or \\
            movement (value: right, left, up, down, towardUser, awayFromUser). A shake still going at \\
            the end of the input is cancelled at the last timestamp. The output file appears only when \\
            the whole input was read.
            """)

    @Argument(help: "The input CSV file.")
    var input: String

    @Option(name: .shortAndLong, help: "The output CSV file.")
    var output: String

    @OptionGroup var units: InputUnits

    @Option(help: "Shake threshold, g.")
    var shakeThreshold: Double = ShakeDetector.Settings().threshold

    @Option(help: "Movement threshold, g.")
    var movementThreshold: Double = MovementDetector.Settings().threshold

    func validate() throws {
        guard shakeThreshold > 0, shakeThreshold.isFinite, movementThreshold > 0, movementThreshold.isFinite else {
            throw ValidationError("thresholds must be positive numbers")
        }
    }

    func run() throws {
        var processor = DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xArbitraryCorrectedZVertical)
        var detector = MotionEventDetector(
            shake: .init(threshold: shakeThreshold), movement: .init(threshold: movementThreshold))
        var events: [MotionEvent] = []
        var last = 0.0
        do throws(CSVError) {
            let reader = try IMUCSVReader(
                path: input, gyroscopeUnit: units.gyroUnit, accelerometerUnit: units.accelUnit, magnetometerUnit: units.magUnit)
            while let r = try reader.next() {
                let motion = processor.update(
                    timestamp: r.timestamp, gyroscope: r.gyroscope, accelerometer: r.accelerometer,
                    magnetometer: r.magnetometer)
                detector.update(motion, into: &events)
                last = r.timestamp
            }
        } catch {
            throw CommandFailure("\(input): \(error)")
        }
        detector.finish(at: last, into: &events)
        var text = "t,event,value\n"
        for e in events { text += "\(e.timestamp),\(e.name),\(e.value)\n" }
        try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    }
}
