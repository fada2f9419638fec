import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore

/// Readings no sensor gives, and options given twice, are said, not silently used or dropped.
@Suite("Implausible readings and repeated calibrations")
struct ImplausibleInputTests {
    /// A gyroscope reading of 1000 rad/s or more (no gyroscope measures that) is flagged
    /// gyroscopeInvalid and integrated by no filter: the attitude after it is the one before. The
    /// inertial filter skipped it without a flag; Madgwick, Mahony and the complementary filter
    /// integrated it.
    @Test(arguments: [false, true])
    func aCorruptRateIsFlaggedAndSkippedByEveryFilter(float: Bool) throws {
        func check<F: AttitudeFilter>(_ filter: F) where F.Scalar: FusionScalar {
            var stream = FusionStream(filter: filter)
            var last = Quaternion<F.Scalar>.identity
            for k in 0..<200 {
                let corrupt = k == 150
                let rate: SIMD3<F.Scalar> = corrupt ? SIMD3(1500, 0, 0) : SIMD3(0.1, -0.2, 0.3)
                let out = stream.update(timestamp: Double(k) * 0.01, gyroscope: rate, accelerometer: SIMD3(0, 0, 9.81), magnetometer: nil)
                if corrupt {
                    #expect(out.flags.contains(.gyroscopeInvalid), "\(F.self)")
                    #expect(out.quaternion == last, "\(F.self): the attitude moved on a corrupt rate")
                } else {
                    #expect(!out.flags.contains(.gyroscopeInvalid), "\(F.self) at \(k)")
                }
                last = out.quaternion
            }
            // Just under the limit is a rate like any other.
            let out = stream.update(timestamp: 2, gyroscope: SIMD3(999, 0, 0), accelerometer: SIMD3(0, 0, 9.81), magnetometer: nil)
            #expect(!out.flags.contains(.gyroscopeInvalid), "\(F.self): 999 rad/s")
        }
        if float {
            check(InertialFrameFilter<Float>())
            check(MadgwickFilter<Float>())
            check(MahonyFilter<Float>())
            check(ComplementaryFilter<Float>())
        } else {
            check(InertialFrameFilter<Double>())
            check(MadgwickFilter<Double>())
            check(MahonyFilter<Double>())
            check(ComplementaryFilter<Double>())
        }
    }

    /// Two `--calibration` files for one sensor are refused, naming both (the last was silently
    /// kept); a file far larger than a calibration is refused before it is read (a 3 GB file took
    /// 4.7 GB and 18 s before "not a calibration file").
    @Test func repeatedAndHugeCalibrationFilesAreRefused() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", "t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.81\n0.01,0,0,0,0,0,9.81\n")
        let bias = #"{"bias": [0.01, 0, 0], "misalignment": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "residual": 0, "sensitivity": [1, 1, 1], "sensor": "gyroscope"}"#
        let first = try folder.write("first.json", bias)
        let second = try folder.write("second.json", bias)
        for command in ["fuse", "device-motion"] {
            let message = FuseMultiRateTests.run(
                [command, input, "-o", folder["out.csv"], "--calibration", first, "--calibration", second, "--trust-units"])
            #expect(
                message?.contains("--calibration \(second): a second gyroscope calibration (the first is \(first))") == true,
                "\(command): \(message ?? "exit 0")")
        }
        // /dev/zero never ends: refused after the first MiB.
        let huge = FuseMultiRateTests.run(["fuse", input, "-o", folder["out.csv"], "--calibration", "/dev/zero", "--trust-units"])
        #expect(huge?.contains("/dev/zero: not a calibration file (larger than 1048576 bytes") == true, "\(huge ?? "exit 0")")
        #expect(!FileManager.default.fileExists(atPath: folder["out.csv"]))
    }
}
