import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Every public error of the library describes itself: `localizedDescription` (what Foundation and
/// most callers print) is the error's own `description`, not "The operation could not be
/// completed".
@Suite("Error descriptions")
struct ErrorDescriptionTests {
    /// At least one value of every public error type in MotionFusion (`grep ': Error'`).
    static let samples: [any Error & CustomStringConvertible] = [
        CSVError.notANumber(line: 3, column: 4, name: "gz", text: "abc"),
        CSVError.empty,
        CSVError.unknownUnit(line: 1, quantity: .gyroscope, column: 2, name: "gx (furlongs/s)", unit: "furlongs/s"),
        IIOError.missingFile(path: "/sys/bus/iio/devices/iio:device0/in_accel_x_raw"),
        IIOError.noSuchChannel(device: "/sys/bus/iio/devices/iio:device1", type: .magnetometer),
        CalibrationError.tooFewSamples(needed: 9, found: 3),
        CalibrationError.estimation(.lapackFailure(routine: "dgesvd", info: 2)),
        WorldMagneticModelError.latitudeOutOfRange(degrees: 91),
        WorldMagneticModelError.notFinite(parameter: "longitude"),
        RotationError.notARotation,
        EstimationError.tooFewInputs(needed: 2, found: 1),
        RecorderError.cannotOpen(path: "/nonexistent/recording.csv", reason: "No such file or directory"),
        FusionError.lengthMismatch(expected: 10, found: 9, what: "gyroscope"),
        IIOBufferError.noBuffer(device: "/sys/bus/iio/devices/iio:device0"),
        IIODeviceGroupError.missingTimestampOrigin(device: "/sys/bus/iio/devices/iio:device1"),
        SettingsError.outOfRange(setting: "biasLimit", value: -1, range: "> 0, finite"),
        MotionManagerError.trueNorthNotAvailable,
        DeviceMotionError.trueNorthNotAvailable,
    ]

    @Test func localizedDescriptionIsTheDescription() {
        for error in Self.samples {
            #expect(error.localizedDescription == error.description, "\(type(of: error))")
            #expect(!error.localizedDescription.contains("could not be completed"), "\(type(of: error))")
        }
        // Through `any Error` too, as a `catch` sees it.
        let caught: any Error = CSVError.notANumber(line: 3, column: 4, name: "gz", text: "abc")
        #expect(caught.localizedDescription == "line 3, column 4 (gz): 'abc' is not a number")
    }

    @Test func recordIIOSaysIIOOnce() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mf-no-iio-\(UUID())").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("mf-rec-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var message = ""
        do {
            try RecordCommand.parse(["--iio", "--iio-root", root, "-o", output]).run()
            Issue.record("record succeeded without an IIO folder")
        } catch {
            message = "\(error)"
        }
        #expect(message == "IIO: missing file \(root)")
    }
}
