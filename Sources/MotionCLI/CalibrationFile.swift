import Foundation
import MotionFusion

/// Reads and writes the JSON files of `motion calibrate`: one sensor's calibration per file, the
/// calibration's own members plus `"sensor": "magnetometer" | "accelerometer" | "gyroscope"`.
/// For the magnetometer that is the stable contract: `hardIron` (3 numbers, µT) and `softIron` (3 × 3,
/// row-major), calibrated = softIron · (raw − hardIron).
enum CalibrationFile {
    enum Sensor: String, CaseIterable {
        case magnetometer, accelerometer, gyroscope
    }

    /// Writes the calibration to `path` (see ``OutputFile``; `-` is standard output), which may
    /// not be one of `inputs`.
    static func write(_ value: some Encodable, sensor: Sensor, to path: String, inputs: [String] = []) throws {
        try write(value, sensor: sensor, to: OutputFile(path: path, inputs: inputs))
    }

    /// Writes the calibration to an open output and commits it; abandons it when encoding fails.
    static func write(_ value: some Encodable, sensor: Sensor, to file: OutputFile) throws {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            var object = try JSONSerialization.jsonObject(with: encoder.encode(value)) as! [String: Any]
            object["sensor"] = sensor.rawValue
            data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        } catch {
            file.abandon()
            throw error
        }
        data.withUnsafeBytes { file.write($0) }
        try file.commit()
    }

    /// The largest calibration file read, in bytes (one is under 2 KB): checked before reading, so
    /// a wrong file given by mistake (a recording, a disk image) is refused at once.
    static let largestFile = 1 << 20

    /// Why ``contents(of:)`` read nothing.
    enum ReadFailure: Error {
        /// The file cannot be opened or read (the system's reason).
        case unreadable(String)
        /// The file is larger than ``largestFile``.
        case tooLarge
    }

    /// The bytes of a calibration or state file, at most ``largestFile`` of them: a larger file
    /// is refused before it is read whole. Shared by `--calibration` and
    /// `--magnetometer-calibration`.
    static func contents(of path: String) throws(ReadFailure) -> Data {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            data = try handle.read(upToCount: largestFile + 1) ?? Data()
        } catch {
            throw .unreadable(error.localizedDescription)
        }
        guard data.count <= largestFile else { throw .tooLarge }
        return data
    }

    /// Reads any number of files into one calibration, at most one per sensor: a second file for a
    /// sensor is refused, naming both (one of them would be silently ignored).
    static func read(_ paths: [String]) throws -> SensorCalibration {
        var calibration = SensorCalibration()
        var given: [Sensor: String] = [:]
        for path in paths {
            let data: Data
            do {
                data = try contents(of: path)
            } catch .unreadable(let reason) {
                throw CommandFailure("\(path): cannot read the calibration file (\(reason))")
            } catch .tooLarge {
                throw CommandFailure("\(path): not a calibration file (larger than \(largestFile) bytes; one is under 2 KB)")
            }
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let name = object["sensor"] as? String, let sensor = Sensor(rawValue: name)
            else {
                throw CommandFailure(
                    "\(path): not a calibration file (a JSON object with \"sensor\": magnetometer, accelerometer or gyroscope)")
            }
            if let first = given[sensor] {
                throw CommandFailure("--calibration \(path): a second \(sensor.rawValue) calibration (the first is \(first)); give one per sensor")
            }
            given[sensor] = path
            do {
                switch sensor {
                case .magnetometer:
                    calibration.magnetometer = try JSONDecoder().decode(MagnetometerCalibration.self, from: data)
                case .accelerometer:
                    calibration.accelerometer = try JSONDecoder().decode(InertialCalibration.self, from: data)
                case .gyroscope:
                    calibration.gyroscope = try JSONDecoder().decode(InertialCalibration.self, from: data)
                }
            } catch {
                throw CommandFailure("\(path): \(error)")
            }
        }
        return calibration
    }
}
