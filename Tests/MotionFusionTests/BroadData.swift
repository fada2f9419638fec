import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Where the BROAD trials are (../shared/reference-data/broad) and whether the tests must find them.
enum BroadData {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/reference-data/broad")

    static let trials = [
        "01_undisturbed_slow_rotation_A", "06_undisturbed_fast_rotation_A",
        "10_undisturbed_slow_translation_A", "15_undisturbed_fast_translation_A",
        "21_undisturbed_fast_combined", "24_disturbed_tapping_A", "26_disturbed_phone_vibration_A",
        "29_disturbed_stationary_magnet_B", "32_disturbed_attached_magnet_1cm",
    ]

    static var available: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(trials[0] + ".csv").path)
    }

    /// True when the tests should run: the data is there, or CI=true (where its absence must fail,
    /// not skip).
    static var required: Bool { available || ProcessInfo.processInfo.environment["CI"] == "true" }

    /// A trial, read once per test process (``RecordingCache``).
    static func recording(_ name: String) throws -> IMURecording {
        try RecordingCache.recording("broad/" + name) { try read(name) }
    }

    /// A trial, read from its file now.
    static func read(_ name: String) throws -> IMURecording {
        try IMURecording.read(path: folder.appendingPathComponent(name + ".csv").path)
    }
}
