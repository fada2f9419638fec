import ArgumentParser
import Foundation
import MotionFusion

extension AttitudeReferenceFrame: ExpressibleByArgument {}

/// `motion device-motion`: Core Motion-style device motion for every sample of a recording.
struct DeviceMotionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device-motion",
        abstract: "Core Motion-style device motion of a recording or of live IIO sensors.",
        discussion: """
            INPUT as for `motion fuse`, or with --live the Linux IIO sensors. OUTPUT: t,qw,qx,qy,qz \
            (device → reference frame), roll,pitch,yaw (rad), rotation_x..z (rad/s, bias removed), \
            gravity_x..z and user_x..z (g), heading (degrees; −1 in the arbitrary frames), as Core \
            Motion gives them.

            Unit options (--time-unit, --gyro-unit, --accel-unit, --mag-unit, --trust-units): \
            `motion device-motion --help-hidden`. They and every detail: the DocC article "The \
            motion Command-Line Tool", section "Device motion".

            \(outputFileRules)
            """)

    @OptionGroup var recording: RecordingInput

    @Flag(help: "Read the Linux IIO devices live instead of a file.")
    var live = false

    @OptionGroup var capture: IIOCaptureOptions

    @Option(help: "--live: stop after this many seconds of sensor time.")
    var duration: Double?

    @Option(help: "--live: stop after this many rows.")
    var samples: Int?

    @Option(name: .shortAndLong, help: "The output CSV file (- for standard output).")
    var output: String

    @Option(help: "The reference frame.")
    var referenceFrame: AttitudeReferenceFrame = .xArbitraryCorrectedZVertical

    // Unconditional: the next argument is the value even when it starts with "-" (south, west).
    @Option(parsing: .unconditional, help: "Latitude in degrees (south negative), for true north.")
    var latitude: Double?

    @Option(parsing: .unconditional, help: "Longitude in degrees (west negative), for true north.")
    var longitude: Double?

    @Option(parsing: .unconditional, help: "Ellipsoidal height, km, for true north.")
    var heightKm: Double = 0

    @Option(help: "Date YYYY-MM-DD for the declination (default: today).")
    var date: String?

    @Option(
        name: .customLong("calibration"),
        help: "A `motion calibrate` file (repeatable), applied first.")
    var calibrationFiles: [String] = []

    @OptionGroup var units: InputUnits

    func validate() throws {
        guard recording.isGiven != live else { throw ValidationError("give either a recording (INPUT, or --gyroscope and --accelerometer) or --live") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive, got \(duration)") }
        if let samples, samples < 1 { throw ValidationError("--samples must be at least 1, got \(samples)") }
        if !live, duration != nil || samples != nil { throw ValidationError("--duration and --samples go with --live") }
        if referenceFrame == .xTrueNorthZVertical && (latitude == nil || longitude == nil) {
            throw ValidationError("xTrueNorthZVertical needs --latitude and --longitude")
        }
    }

    func run() throws {
        var declinationDegrees: Double?
        if referenceFrame == .xTrueNorthZVertical, let latitude, let longitude {
            let place = MagneticDeclination.location(
                latitude: latitude, longitude: longitude, heightKilometers: heightKm, date: try utcDay(date))
            do throws(MotionManagerError) {
                declinationDegrees = try place.degreesEast()
            } catch {
                guard case .declinationNotAvailable(let reason) = error else { throw CommandFailure("\(error)") }
                throw CommandFailure("World Magnetic Model: \(reason)")
            }
        }
        let calibration = try CalibrationFile.read(calibrationFiles)
        var processor: DeviceMotionProcessor<InertialFrameFilter<Double>>
        do throws(DeviceMotionError) {
            processor = try DeviceMotionProcessor(
                referenceFrame: referenceFrame, declinationDegrees: declinationDegrees, calibration: calibration)
        } catch {
            throw CommandFailure("\(error)")
        }
        guard let input = recording.recording else { return try runLive(&processor, calibrationFiles: calibrationFiles) }
        let reader = try units.open(input)
        // Before a sample is read: an output that is an input, a link or a folder is refused here.
        let writer = DeviceMotionCSVWriter(file: try OutputFile(path: output, inputs: input.paths + calibrationFiles))
        if writer.file.mode == .writeThrough { reader.whenWaiting = { writer.flush() } }
        try forEachDeviceMotion(in: reader, of: input, through: &processor, abandon: writer.abandon, written: "no device motion written") {
            motion, _ in writer.write(motion)
        }
        try writer.finish()
    }

    /// `--live`: the IIO devices' samples, as `motion record --iio` reads them, through the
    /// processor. The rows given are kept when the source fails (then status 1). Written through
    /// (standard output, a pipe), each row is flushed as it is made: the source waits for the
    /// devices between scans, and a reader of the pipe should not wait for a buffer to fill.
    private func runLive(
        _ processor: inout DeviceMotionProcessor<InertialFrameFilter<Double>>, calibrationFiles: [String]
    ) throws {
        let source = try capture.openSource(rate: nil)
        defer { IIOCaptureOptions.stop(source) }  // buffered devices put back
        guard source.sensors.isSuperset(of: [.gyroscope, .accelerometer]) else {
            throw CommandFailure("device motion needs a gyroscope and an accelerometer; the IIO devices under \(capture.iioRoot) lack one")
        }
        let writer = DeviceMotionCSVWriter(file: try OutputFile(path: output, inputs: calibrationFiles))
        let limited = duration.map { LimitedSource(source, duration: $0) } ?? source
        let flushesEachRow = writer.file.mode == .writeThrough
        var rows = 0
        var failure: (any Error)?
        do {
            while samples.map({ rows < $0 }) ?? true, let sample = try limited.next() {
                guard let w = sample.gyroscope, let a = sample.accelerometer else { continue }
                let m = processor.update(timestamp: sample.timestamp, gyroscope: w, accelerometer: a, magnetometer: sample.magnetometer)
                writer.write(m)
                if flushesEachRow { writer.flush() }
                rows += 1
            }
        } catch {
            failure = error
        }
        try writer.finish()
        if let failure { throw CommandFailure("source: \(failure)") }
    }
}

/// Noon UTC of the day `YYYY-MM-DD` (nil: today, as ``MagneticDeclination`` takes nil), checked as
/// `decimalYear(_:)` checks it; ``MagneticDeclination/location(latitude:longitude:heightKilometers:date:)``
/// counts only the UTC calendar day.
func utcDay(_ text: String?) throws -> Date? {
    guard let text else { return nil }
    _ = try decimalYear(text)
    let parts = text.split(separator: "-").compactMap { Int($0) }
    let components = DateComponents(
        timeZone: TimeZone(identifier: "UTC"), year: parts[0], month: parts[1], day: parts[2], hour: 12)
    guard let day = Calendar(identifier: .gregorian).date(from: components) else {
        throw CommandFailure("\(text): not a date")
    }
    return day
}
