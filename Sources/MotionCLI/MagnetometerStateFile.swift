import Foundation
import MotionFusion

/// `motion fuse --magnetometer-calibration FILE`: the online magnetometer calibration's state
/// (``OnlineMagnetometerCalibrator``'s `Codable` form), read before the recording and written after
/// it, so that a series of recordings from one device is fused as the device lives through them.
enum MagnetometerStateFile {
    /// The state in `path`, or a fresh calibrator when there is no path or no file yet, and whether
    /// the file may be written at the end. A file that cannot be read or decoded is refused with a
    /// warning naming it and what is wrong; the fusion starts uncalibrated and the file is left as
    /// it is (it may be something else given by mistake: never overwritten).
    static func read<S: FusionScalar>(_ path: String?) -> (OnlineMagnetometerCalibrator<S>, writable: Bool) {
        guard let path, FileManager.default.fileExists(atPath: path) else { return (OnlineMagnetometerCalibrator(), true) }
        do {
            let data = try CalibrationFile.contents(of: path)
            return (try JSONDecoder().decode(OnlineMagnetometerCalibrator<S>.self, from: data), true)
        } catch {
            FileHandle.standardError.write(Data(
                ("fuse: warning: --magnetometer-calibration \(path) refused (\(describe(error))); "
                    + "starting uncalibrated, and the file is left unchanged\n").utf8))
            return (OnlineMagnetometerCalibrator(), false)
        }
    }

    /// Writes the state (replacing the file only once it is complete, as every output).
    static func write<S: FusionScalar>(_ state: OnlineMagnetometerCalibrator<S>, to path: String, inputs: [String]) throws {
        let file = try OutputFile(path: path, inputs: inputs)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(state)
        } catch {
            file.abandon()
            throw CommandFailure("--magnetometer-calibration \(path): \(error)")
        }
        data.withUnsafeBytes { file.write($0) }
        file.write("\n")
        try file.commit()
    }

    /// A decoding error's reason, without the coding path's noise.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
            DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : path + ": ") + context.debugDescription
        case CalibrationFile.ReadFailure.unreadable(let reason):
            return "cannot read it: \(reason)"
        case CalibrationFile.ReadFailure.tooLarge:
            return "larger than \(CalibrationFile.largestFile) bytes; a state is under 20 KB"
        default:
            return "\(error)"
        }
    }
}
