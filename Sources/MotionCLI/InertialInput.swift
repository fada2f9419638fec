import ArgumentParser
import MotionFusion

/// Options shared by the inertial calibrations: the recording and its units.
struct InertialInput: ParsableArguments {
    @Argument(help: "The input CSV file, - for standard input (t,gx,gy,gz,ax,ay,az; other columns ignored).")
    var input: String

    @Option(name: .shortAndLong, help: "Write the calibration to this JSON file (- for standard output).")
    var output: String?

    @Option(help: "Gyroscope unit of the input: rad/s or deg/s (default: the header's, else rad/s).")
    var gyroUnit: GyroscopeUnit?

    @Option(help: "Accelerometer unit of the input: m/s2 or g (default: the header's, else m/s2).")
    var accelUnit: AccelerometerUnit?

    @Flag(help: "Read the values in the units given even when the data contradict them.")
    var trustUnits = false

    /// The -o file, opened (and checked: not the input, not a link) before the recording is read.
    func outputFile() throws(OutputFileError) -> OutputFile? {
        try output.map { path throws(OutputFileError) in try OutputFile(path: path, inputs: [input]) }
    }

    /// The recording, in memory (a calibration needs every sample); one larger than the memory
    /// available is refused at the first sample beyond it.
    func recording() throws -> IMURecording {
        do throws(RecordingFileError) {
            let recording = try IMURecording.read(
                path: input, gyroscopeUnit: gyroUnit, accelerometerUnit: accelUnit, checksUnits: !trustUnits,
                maximumSamples: SystemMemory.recordingSamples())
            warnAboutCut(recording.partialLastLine, in: input)
            return recording
        } catch {
            if case .tooManySamples = error.error {
                throw CommandFailure(
                    "\(error); a calibration holds the whole recording, \(IMURecording.bytesPerSample) bytes a sample, and "
                        + "\(SystemMemory.available() / 1_000_000) MB is available: calibrate from a shorter recording")
            }
            throw CommandFailure("\(error)")
        }
    }
}
