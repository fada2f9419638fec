import Foundation
import MotionFusionTestSupport
import Testing

@testable import MotionFusionCore
@testable import MotionFusionDevices

/// The motion manager keeps the magnetometer's online calibration as Core Motion keeps the
/// device's: device motion learns it, the manager reports the latest, and a state saved from one
/// session starts the next one calibrated. The hard iron expected is the one the test put in.
@Suite("Motion manager's magnetometer calibration")
struct MotionManagerMagnetometerCalibrationTests {
    static let hardIron = SIMD3(120.0, -40.0, 300.0)

    /// A device lying flat whose raw field, 47 µT seen from directions over the whole sphere, carries
    /// `hardIron`.
    static func recording(count: Int) -> IMURecording {
        let field = OnlineMagnetometerCalibratorTests.distortedSphere(
            count: count, strength: 47, hardIron: hardIron, distortion: .identity, noise: 0.2, seed: 5)
        var recording = IMURecording()
        recording.timestamps = (0..<count).map { Double($0) * 0.01 }
        recording.gyroscope = Array(repeating: .zero, count: count)
        recording.accelerometer = Array(repeating: SIMD3(0, 0, 9.81), count: count)
        recording.magnetometer = field
        return recording
    }

    static func run(_ manager: MotionManager) async -> [DeviceMotion] {
        var motions: [DeviceMotion] = []
        for await motion in manager.deviceMotionUpdates(using: .xMagneticNorthZVertical) { motions.append(motion) }
        return motions
    }

    @Test func deviceMotionLearnsTheCalibrationAndTheNextSessionStartsFromIt() async throws {
        let first = MotionManager(source: RecordingSource(Self.recording(count: 600), pacing: .asFastAsPossible))
        #expect(first.magnetometerCalibrator?.calibration == nil, "a new manager starts uncalibrated")
        let learning = await Self.run(first)
        #expect(learning.first?.magneticField.accuracy == .uncalibrated)
        #expect(learning.last.map { $0.magneticField.accuracy != .uncalibrated } == true)
        let learned = try #require(first.magnetometerCalibrator)
        let c = try #require(learned.calibration, "sampled \(learned.sampleCount)")
        #expect(VectorCheck.length(c.hardIron - Self.hardIron) < 1, "\(c.hardIron)")

        // Saved and restored as a client would, then set before the next session's start.
        let saved = try JSONEncoder().encode(learned)
        let restored = try JSONDecoder().decode(OnlineMagnetometerCalibrator<Double>.self, from: saved)
        let second = MotionManager(source: RecordingSource(Self.recording(count: 3), pacing: .asFastAsPossible))
        second.magnetometerCalibrator = restored
        let resumed = await Self.run(second)
        let start = try #require(resumed.first)
        #expect(start.magneticField.accuracy == learned.accuracy)
        let raw = Self.recording(count: 3).magnetometer![0]
        #expect(VectorCheck.length(start.magneticField.field - c.softIron * (raw - c.hardIron)) < 1e-9, "\(start.magneticField.field)")
        #expect(abs(VectorCheck.length(start.magneticField.field) - 47) < 1.5)
    }

    @Test func nilTurnsTheOnlineCalibrationOff() async throws {
        let manager = MotionManager(source: RecordingSource(Self.recording(count: 600), pacing: .asFastAsPossible))
        manager.magnetometerCalibrator = nil
        let motions = await Self.run(manager)
        #expect(motions.count == 600 && motions.allSatisfy { $0.magneticField.accuracy == .uncalibrated })
        #expect(motions.last?.magneticField.field == Self.recording(count: 600).magnetometer!.last)
        #expect(manager.magnetometerCalibrator == nil)
    }

    /// A stop keeps what was learned, and the next start in the same manager continues from it.
    @Test func aStopKeepsTheCalibrationForTheNextStart() throws {
        let source = GatedSource(Self.recording(count: 600))
        let manager = MotionManager(source: source)
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        source.open()
        manager.waitUntilFinished()
        let learned = try #require(manager.magnetometerCalibrator?.calibration)
        manager.stopDeviceMotionUpdates()
        #expect(manager.magnetometerCalibrator?.calibration == learned)
        #expect(VectorCheck.length(learned.hardIron - Self.hardIron) < 1)
        // A new start (a fresh processor) begins from what was learned.
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        #expect(manager.magnetometerCalibrator?.calibration == learned)
        // Set while device motion is there: the running calibration is replaced at once.
        manager.magnetometerCalibrator = OnlineMagnetometerCalibrator()
        #expect(manager.magnetometerCalibrator?.calibration == nil)
        manager.magnetometerCalibrator = nil
        #expect(manager.magnetometerCalibrator == nil)
    }
}
