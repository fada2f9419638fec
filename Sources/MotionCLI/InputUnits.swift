import ArgumentParser
import Foundation
import MotionFusion

/// The unit options of the commands that read a recording (`--time-unit`, `--gyro-unit`,
/// `--accel-unit`, `--mag-unit`, `--trust-units`), defined once.
///
/// Each is nil when not given: the unit then comes from the file's header (`Gyroscope X (deg/s)`,
/// `gx[deg/s]`), else it is the library's (rad/s, m/s², µT). An option that contradicts the header
/// is an error naming both (``IMUCSVReader`` checks it). The units are then checked against the
/// data (``RecordingUnitCheck``) unless `--trust-units` is given.
///
/// Hidden from `--help` (each command's discussion names them; `--help-hidden` and the DocC article
/// The motion Command-Line Tool list them): a header that names its units needs none of them.
struct InputUnits: ParsableArguments {
    /// `--time-unit`, `--accel-unit` and `--trust-units`, shared with `motion steps`.
    @OptionGroup var common: AccelerometerUnits

    @Option(help: ArgumentHelp("Gyroscope unit of the input: rad/s or deg/s (default: the header's, else rad/s).", visibility: .hidden))
    var gyroUnit: GyroscopeUnit?

    @Option(help: ArgumentHelp("Magnetometer unit of the input: uT, nT, mT or gauss (default: the header's, else uT).", visibility: .hidden))
    var magUnit: MagnetometerUnit?

    var timeUnit: TimeUnit? { common.timeUnit }
    var accelUnit: AccelerometerUnit? { common.accelUnit }
    var trustUnits: Bool { common.trustUnits }
}

extension InputUnits {
    /// The units given, for ``RecordingReader``.
    var given: RecordingReader.GivenUnits {
        RecordingReader.GivenUnits(time: timeUnit, gyroscope: gyroUnit, accelerometer: accelUnit, magnetometer: magUnit)
    }

    /// Opens `input` with these units (checked against the data unless `--trust-units`).
    ///
    /// - Throws: ``CommandFailure`` naming the file.
    func open(_ input: RecordingReader.Input, useMagnetometer: Bool = true) throws -> RecordingReader {
        do throws(RecordingFileError) {
            return try RecordingReader(input, units: given, useMagnetometer: useMagnetometer, checksUnits: !trustUnits)
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}

/// Tells the user, on standard error, what a recording's reader passed over
/// (``RecordingReader/warnings``): lines cut short at the end of a file and readings discarded for
/// a NaN or infinite timestamp.
func warnAboutSkipped(by reader: RecordingReader) {
    for warning in reader.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
}
