import ArgumentParser
import MotionFusion

/// What the accelerometer-only commands (`motion steps`, `motion activity`) read and write, defined
/// once: INPUT (any recording `motion fuse` reads, or `t,ax,ay,az`) or `--accelerometer` (the
/// sensor's own `t,x,y,z` file), `-o` OUTPUT, and the unit options (``AccelerometerUnits``).
struct AccelerometerInput: ParsableArguments {
    @Argument(help: "The input CSV file (- for standard input).")
    var input: String?

    @Option(
        name: .customLong("accelerometer"),
        help: ArgumentHelp("Instead of INPUT: the accelerometer's t,x,y,z CSV file.", valueName: "file"))
    var accelerometer: String?

    @Option(name: .shortAndLong, help: "The output CSV file (- for standard output).")
    var output: String

    @OptionGroup var units: AccelerometerUnits

    func validate() throws {
        if input != nil && accelerometer != nil { throw ValidationError("give INPUT or --accelerometer, not both") }
        if input == nil && accelerometer == nil { throw ValidationError("missing INPUT (or --accelerometer)") }
    }

    /// The file read: INPUT or the `--accelerometer` file (``validate()`` makes sure there is one).
    var path: String { input ?? accelerometer ?? "-" }

    /// Opens the readings (``AccelerometerReadings``).
    func readings() throws -> AccelerometerReadings { try AccelerometerReadings(path: path, units: units) }
}
