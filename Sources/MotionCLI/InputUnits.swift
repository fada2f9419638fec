import ArgumentParser
import MotionFusion

/// The unit options of the commands that read a recording (`--gyro-unit`, `--accel-unit`,
/// `--mag-unit`), defined once.
struct InputUnits: ParsableArguments {
    @Option(help: "Gyroscope unit of the input: rad/s or deg/s.")
    var gyroUnit: GyroscopeUnit = .radiansPerSecond

    @Option(help: "Accelerometer unit of the input: m/s2 or g.")
    var accelUnit: AccelerometerUnit = .metersPerSecondSquared

    @Option(help: "Magnetometer unit of the input: uT, nT or gauss.")
    var magUnit: MagnetometerUnit = .microtesla
}
