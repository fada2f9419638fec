import ArgumentParser
import MotionFusion

/// The unit options of the time and the accelerometer, `--time-unit`, `--accel-unit` and
/// `--trust-units`, defined once: `motion steps` and `motion activity` take these alone (in
/// ``AccelerometerInput``), the commands that read every
/// sensor take them inside ``InputUnits`` (nil takes the header's unit, else s and m/s²; the data
/// are checked against them unless `--trust-units`). Hidden from `--help`.
struct AccelerometerUnits: ParsableArguments {
    @Option(help: ArgumentHelp("Timestamp unit of the input: s, ms, us or ns (default: the header's, else s).", visibility: .hidden))
    var timeUnit: TimeUnit?

    @Option(help: ArgumentHelp("Accelerometer unit of the input: m/s2 or g (default: the header's, else m/s2).", visibility: .hidden))
    var accelUnit: AccelerometerUnit?

    @Flag(
        help: ArgumentHelp(
            "Read the values in the units given even when the data contradict them (gravity not 9.81 m/s², a gyroscope that disagrees with the accelerometer's tilt, …).",
            visibility: .hidden))
    var trustUnits = false
}
