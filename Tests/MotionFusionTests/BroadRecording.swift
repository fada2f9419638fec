import Foundation
import Testing

@testable import MotionFusion

/// A BROAD trial from ../shared/reference-data/broad, read with the library's CSV reader.
struct BroadRecording {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/reference-data/broad")

    static let trials = [
        "01_undisturbed_slow_rotation_A", "06_undisturbed_fast_rotation_A",
        "10_undisturbed_slow_translation_A", "15_undisturbed_fast_translation_A",
        "21_undisturbed_fast_combined", "24_disturbed_tapping_A", "26_disturbed_phone_vibration_A",
        "29_disturbed_stationary_magnet_B", "32_disturbed_attached_magnet_1cm",
    ]

    /// True when the data is there. Under CI=true its absence must fail the tests, not skip them.
    static var available: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(trials[0] + ".csv").path)
    }
    static var required: Bool { available || ProcessInfo.processInfo.environment["CI"] == "true" }

    var t: [Double] = []
    var gyroscope: [SIMD3<Double>] = []
    var accelerometer: [SIMD3<Double>] = []
    var magnetometer: [SIMD3<Double>] = []
    var truth: [Quaternion<Double>] = []
    var movement: [Bool] = []

    init(_ name: String) throws {
        let reader = try CSVReader(path: Self.folder.appendingPathComponent(name + ".csv").path)
        let names = ["t", "gx", "gy", "gz", "ax", "ay", "az", "mx", "my", "mz", "qw", "qx", "qy", "qz", "movement"]
        let columns = try names.map { name throws(CSVError) in try reader.requiredColumn(named: name) }
        var v: [Double] = []
        while try reader.nextRow(columns: columns, into: &v) {
            t.append(v[0])
            gyroscope.append(SIMD3(v[1], v[2], v[3]))
            accelerometer.append(SIMD3(v[4], v[5], v[6]))
            magnetometer.append(SIMD3(v[7], v[8], v[9]))
            truth.append(Quaternion(w: v[10], x: v[11], y: v[12], z: v[13]))
            movement.append(v[14] == 1)
        }
    }

    /// Runs a filter through a FusionStream (ENU) and scores it as BROAD does.
    func score<F: AttitudeFilter>(_ filter: F, nineD: Bool) -> OrientationErrorSummary
    where F.Scalar == Double {
        var stream = FusionStream(filter: filter)
        let outputs = try! stream.process(
            timestamps: t, gyroscope: gyroscope, accelerometer: accelerometer,
            magnetometer: nineD ? magnetometer : nil)
        return OrientationErrors.summary(
            estimates: outputs.map(\.quaternion), references: truth, scored: movement)
    }
}
