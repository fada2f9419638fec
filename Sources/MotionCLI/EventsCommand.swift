import ArgumentParser
import MotionFusion

/// `motion events`: shakes, orientation changes and movements in a recording.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Detect shakes, device-orientation changes and movements in a recording.",
        discussion: """
            INPUT as for `motion fuse`; it runs through device motion and MotionEventDetector. \
            OUTPUT: one row per event, t,event,value with event shakeBegan, shakeEnded, \
            shakeCancelled (value empty), orientation (value: portrait, portraitUpsideDown, \
            landscapeLeft, landscapeRight, faceUp, faceDown) or movement (value: right, left, up, \
            down, towardUser, awayFromUser).

            Unit options (--time-unit, --gyro-unit, --accel-unit, --mag-unit, --trust-units): \
            `motion events --help-hidden`. They and every detail: the DocC article "The motion \
            Command-Line Tool", section "Motion events".

            \(outputFileRules)
            """)

    @OptionGroup var recording: RecordingInput

    @Option(name: .shortAndLong, help: "The output CSV file (- for standard output).")
    var output: String

    @OptionGroup var units: InputUnits

    @Option(help: "Shake threshold, g.")
    var shakeThreshold: Double = ShakeDetector.Settings().threshold

    @Option(help: "Movement threshold, g.")
    var movementThreshold: Double = MovementDetector.Settings().threshold

    func validate() throws {
        if !recording.isGiven { throw ValidationError("missing INPUT (or --gyroscope and --accelerometer files)") }
        guard shakeThreshold > 0, shakeThreshold.isFinite, movementThreshold > 0, movementThreshold.isFinite else {
            throw ValidationError("thresholds must be positive numbers")
        }
    }

    func run() throws {
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xArbitraryCorrectedZVertical)
        var detector = MotionEventDetector(
            shake: .init(threshold: shakeThreshold), movement: .init(threshold: movementThreshold))
        var events: [MotionEvent] = []
        var last = 0.0
        let input = recording.recording!
        let reader = try units.open(input)
        let writer = MotionEventCSVWriter(file: try OutputFile(path: output, inputs: input.paths))
        if writer.file.mode == .writeThrough { reader.whenWaiting = { writer.flush() } }
        func write(_ events: inout [MotionEvent]) {
            for e in events { writer.write(e) }
            events.removeAll(keepingCapacity: true)
        }
        try forEachDeviceMotion(in: reader, of: input, through: &processor, abandon: writer.abandon, written: "no events written") {
            motion, timestamp in
            detector.update(motion, into: &events)
            if !events.isEmpty { write(&events) }
            last = timestamp
        }
        detector.finish(at: last, into: &events)
        write(&events)
        try writer.finish()
    }
}
