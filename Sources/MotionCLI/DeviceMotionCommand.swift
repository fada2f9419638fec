import ArgumentParser
import Foundation
import MotionFusion

extension AttitudeReferenceFrame: ExpressibleByArgument {}

/// `motion device-motion`: Core Motion-style device motion for every sample of a recording.
struct DeviceMotionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device-motion",
        abstract: "Core Motion-style device motion (attitude, rotation rate, gravity, user acceleration, heading).",
        discussion: """
            Input as for `motion fuse`. Output columns: t,qw,qx,qy,qz,roll,pitch,yaw,rotation_x,\
            rotation_y,rotation_z,gravity_x,gravity_y,gravity_z,user_x,user_y,user_z,heading — q device → \
            reference frame (scalar first), angles in radians (Core Motion's roll about Y, pitch about \
            X, yaw about Z), rotation rate in rad/s with the bias removed, gravity and user \
            acceleration in g with Core Motion's signs, heading in degrees (−1 in the arbitrary frames). \
            xTrueNorthZVertical needs --latitude and --longitude (declination from WMM2025; south and \
            west are negative: --latitude -33.87). Rows are written as they are computed, so memory \
            stays flat however long the recording.

            A recording whose sensors have separate timestamps — rows that leave a sensor's three \
            cells empty (or all nan) when it has no reading at that row's time, as `motion record` \
            writes sensors at different rates — is read as `motion fuse` reads it: its rows through \
            MotionFusion's SampleAssembler (default rules), one sample per gyroscope reading with \
            the latest accelerometer reading no older than 0.1 s and magnetometer reading no older \
            than 0.5 s; a row is written for every sample with an accelerometer reading (as with \
            --live; `motion fuse` also fuses the others, without tilt correction). Such a file is \
            read twice, so it must be a regular file. A file with no empty gyroscope or \
            accelerometer cell is read row by row as above.

            --live reads the Linux IIO devices under --iio-root instead of a file, as `motion record \
            --iio` does (through their buffers when they have them, merged by timestamp when the \
            sensors are on several devices; else polled, with a notice), and writes a row for every \
            sample with a gyroscope and an accelerometer reading, until --duration seconds of sensor \
            time or --samples rows (else until the device ends). A device that fails ends the run \
            with status 1 after the rows it gave are written.

            \(outputFileRules)
            """)

    @Argument(help: "The input CSV file, - for standard input (not with --live).")
    var input: String?

    @Flag(help: "Read the Linux IIO devices live instead of a file.")
    var live = false

    @OptionGroup var capture: IIOCaptureOptions

    @Option(help: "--live: stop after this many seconds of sensor time.")
    var duration: Double?

    @Option(help: "--live: stop after this many rows.")
    var samples: Int?

    @Option(name: .shortAndLong, help: "The output CSV file (- for standard output).")
    var output: String

    @Option(help: "xArbitraryZVertical, xArbitraryCorrectedZVertical, xMagneticNorthZVertical or xTrueNorthZVertical.")
    var referenceFrame: AttitudeReferenceFrame = .xArbitraryCorrectedZVertical

    // Unconditional: the next argument is the value even when it starts with "-" (south, west).
    @Option(parsing: .unconditional, help: "Latitude in degrees (south negative), for true north.")
    var latitude: Double?

    @Option(parsing: .unconditional, help: "Longitude in degrees (west negative), for true north.")
    var longitude: Double?

    @Option(parsing: .unconditional, help: "Height above the WGS-84 ellipsoid in km, for true north (negative below it).")
    var heightKm: Double = 0

    @Option(help: "Date YYYY-MM-DD for the declination (default: today).")
    var date: String?

    @Option(
        name: .customLong("calibration"),
        help: "A calibration file from `motion calibrate` (repeat for several sensors); applied before the filter.")
    var calibrationFiles: [String] = []

    @OptionGroup var units: InputUnits

    func validate() throws {
        guard (input != nil) != live else { throw ValidationError("give either an input CSV file or --live") }
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
        guard let input else { return try runLive(&processor, calibrationFiles: calibrationFiles) }
        let recording = MultiRateRecording(path: input, units: units)
        let reader: IMUCSVReader
        do throws(CSVError) {
            reader = try recording.reader()
        } catch {
            throw CommandFailure("\(input): \(error)")
        }
        // Before a row is read: an output that is an input, a link or a folder is refused here.
        let file = try OutputFile(path: output, inputs: [input] + calibrationFiles)
        // Rows written through to standard output or a device cannot be taken back: there, a
        // regular input is first checked for rows without gyroscope or accelerometer.
        if file.mode == .writeThrough, reader.csv.fileSize != nil, recording.hasMissingReadings() {
            return try runMultiRate(recording, &processor, to: file)
        }
        let start = processor  // for a multi-rate recording, read again from the start
        file.write(Self.header)
        var magnetometer = MultiRateRecording.MagnetometerPresence()
        var reason: MultiRateRecording.Reason?
        do throws(CSVError) {
            // Row by row through the file's buffer: memory stays flat however long the recording.
            while let r = try reader.next() {
                if magnetometer.changes(r.magnetometer != nil) {
                    reason = .magnetometerChanges(line: reader.csv.lineNumber)
                    break
                }
                let m = processor.update(
                    timestamp: r.timestamp, gyroscope: r.gyroscope, accelerometer: r.accelerometer,
                    magnetometer: r.magnetometer)
                Self.write(m, at: r.timestamp, to: file)
            }
        } catch {
            guard MultiRateRecording.isMissingReading(error, in: reader) else {
                file.abandon()
                throw CommandFailure("\(input): \(error)")
            }
            reason = .missingReading(error)
        }
        if let reason {
            // The rows computed are dropped, and the file read again from the start, as `motion
            // fuse` does.
            processor = start
            return try recording.readAgain(because: reason, after: reader, dropOutput: file.abandon) {
                try runMultiRate(recording, &processor, to: try OutputFile(path: output, inputs: [input] + calibrationFiles))
            }
        }
        try file.commit()
    }

    /// A multi-rate recording: its samples as ``MultiRateRecording`` assembles them (those of
    /// `motion fuse`), each one with a gyroscope and an accelerometer reading through the
    /// processor, as `--live` does.
    private func runMultiRate(
        _ recording: MultiRateRecording, _ processor: inout DeviceMotionProcessor<InertialFrameFilter<Double>>,
        to file: OutputFile
    ) throws {
        file.write(Self.header)
        do {
            let reader = try recording.assemble { sample in
                guard let w = sample.gyroscope, let a = sample.accelerometer else { return }
                let m = processor.update(timestamp: sample.timestamp, gyroscope: w, accelerometer: a, magnetometer: sample.magnetometer)
                Self.write(m, at: sample.timestamp, to: file)
            }
            warnAboutCut(reader.csv.partialLastLine, in: recording.path)
        } catch {
            file.abandon()
            throw error
        }
        try file.commit()
    }

    static let header =
        "t,qw,qx,qy,qz,roll,pitch,yaw,rotation_x,rotation_y,rotation_z,gravity_x,gravity_y,gravity_z,user_x,user_y,user_z,heading\n"

    /// One output row.
    static func write(_ m: DeviceMotion, at t: Double, to file: OutputFile) {
        let q = m.attitude.quaternion
        let e = m.attitude.eulerAngles.angles
        let (w, g, u) = (m.rotationRate, m.gravity, m.userAcceleration)
        file.write("\(t),\(q.w),\(q.x),\(q.y),\(q.z),\(e[2]),\(e[1]),\(e[0]),")
        file.write("\(w.x),\(w.y),\(w.z),\(g.x),\(g.y),\(g.z),\(u.x),\(u.y),\(u.z),\(m.heading)\n")
    }

    /// `--live`: the IIO devices' samples, as `motion record --iio` reads them, through the
    /// processor. The rows given are kept when the source fails (then status 1).
    private func runLive(
        _ processor: inout DeviceMotionProcessor<InertialFrameFilter<Double>>, calibrationFiles: [String]
    ) throws {
        let source = try capture.openSource(rate: nil)
        defer { IIOCaptureOptions.stop(source) }  // buffered devices put back
        guard source.sensors.isSuperset(of: [.gyroscope, .accelerometer]) else {
            throw CommandFailure("device motion needs a gyroscope and an accelerometer; the IIO devices under \(capture.iioRoot) lack one")
        }
        let file = try OutputFile(path: output, inputs: calibrationFiles)
        file.write(Self.header)
        let limited = duration.map { LimitedSource(source, duration: $0) } ?? source
        var rows = 0
        var failure: (any Error)?
        do {
            while samples.map({ rows < $0 }) ?? true, let sample = try limited.next() {
                guard let w = sample.gyroscope, let a = sample.accelerometer else { continue }
                let m = processor.update(timestamp: sample.timestamp, gyroscope: w, accelerometer: a, magnetometer: sample.magnetometer)
                Self.write(m, at: sample.timestamp, to: file)
                rows += 1
            }
        } catch {
            failure = error
        }
        try file.commit()
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
