import ArgumentParser
import MotionFusion

/// The unit options of the commands that read a recording (`--time-unit`, `--gyro-unit`,
/// `--accel-unit`, `--mag-unit`, `--trust-units`), defined once.
///
/// Each is nil when not given: the unit then comes from the file's header (`Gyroscope X (deg/s)`,
/// `gx[deg/s]`), else it is the library's (rad/s, m/s², µT). An option that contradicts the header
/// is an error naming both (``IMUCSVReader`` checks it). The units are then checked against the
/// data (``RecordingUnitCheck``) unless `--trust-units` is given.
struct InputUnits: ParsableArguments {
    @Option(help: "Timestamp unit of the input: s, ms, us or ns (default: the header's, else s).")
    var timeUnit: TimeUnit?

    @Option(help: "Gyroscope unit of the input: rad/s or deg/s (default: the header's, else rad/s).")
    var gyroUnit: GyroscopeUnit?

    @Option(help: "Accelerometer unit of the input: m/s2 or g (default: the header's, else m/s2).")
    var accelUnit: AccelerometerUnit?

    @Option(help: "Magnetometer unit of the input: uT, nT, mT or gauss (default: the header's, else uT).")
    var magUnit: MagnetometerUnit?

    @Flag(help: "Read the values in the units given even when the data contradict them (gravity not 9.81 m/s², a gyroscope that disagrees with the accelerometer's tilt, …).")
    var trustUnits = false
}
