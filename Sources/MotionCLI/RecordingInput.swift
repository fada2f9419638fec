import ArgumentParser
import MotionFusion

/// The recording a command reads, defined once for `fuse`, `device-motion` and `events`: INPUT (one
/// CSV, `-` for standard input), or one file per sensor (`--gyroscope`, `--accelerometer`,
/// optionally `--magnetometer`). ``RecordingReader`` reads either.
struct RecordingInput: ParsableArguments {
    @Argument(help: "The input CSV file (- for standard input).")
    var input: String?

    @Option(
        name: .customLong("gyroscope"),
        help: ArgumentHelp("Instead of INPUT: the gyroscope's t,x,y,z CSV file.", valueName: "file"))
    var gyroscope: String?

    @Option(
        name: .customLong("accelerometer"),
        help: ArgumentHelp("Instead of INPUT: the accelerometer's t,x,y,z CSV.", valueName: "file"))
    var accelerometer: String?

    @Option(
        name: .customLong("magnetometer"),
        help: ArgumentHelp("Optionally with them: the magnetometer's t,x,y,z CSV.", valueName: "file"))
    var magnetometer: String?

    /// Whether the sensors' files are given.
    private var sensorFiles: Bool { [gyroscope, accelerometer, magnetometer].contains { $0 != nil } }

    /// Whether a recording is given at all.
    var isGiven: Bool { input != nil || sensorFiles }

    /// Refuses INPUT with the sensors' files, and sensors' files without both the gyroscope's and
    /// the accelerometer's. (Whether a recording is needed at all is the command's to say.)
    func validate() throws {
        if input != nil && sensorFiles {
            throw ValidationError("give INPUT or the sensors' files (--gyroscope, --accelerometer, --magnetometer), not both")
        }
        if input == nil && sensorFiles && (gyroscope == nil || accelerometer == nil) {
            throw ValidationError("the sensors' files need both --gyroscope and --accelerometer (--magnetometer is optional)")
        }
    }

    /// What to read; nil when nothing is given.
    var recording: RecordingReader.Input? {
        if let input { return .file(input) }
        guard let gyroscope, let accelerometer else { return nil }
        return .sensorFiles(gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer)
    }

    /// Every file given (none of them may be the output).
    var paths: [String] { recording?.paths ?? [] }
}
