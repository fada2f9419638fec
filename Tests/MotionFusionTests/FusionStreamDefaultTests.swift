import Foundation
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionIO

/// `FusionStream()`, the entry point of the README's first example, is what `motion fuse` runs
/// without options.
@Suite("Fusion stream, the default")
struct FusionStreamDefaultTests {
    @Test("FusionStream() gives motion fuse's output without options, bit for bit, 9D and 6D")
    func defaultIsWhatFuseRuns() throws {
        for magnetometer in [true, false] {
            let input = FuseCommandTests.input(magnetometer: magnetometer)
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("mf-default-\(UUID()).csv").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            try FuseCommandTests.run(["fuse", input, "-o", out])
            let rows = try FuseCommandTests.output(out)
            let reader = try IMUCSVReader(path: input)
            var stream = FusionStream()
            var k = 0
            while let r = try reader.next() {
                let o = stream.update(
                    timestamp: r.timestamp, gyroscope: r.gyroscope, accelerometer: r.accelerometer,
                    magnetometer: r.magnetometer)
                #expect(Array(rows[k][1...4]) == [o.quaternion.w, o.quaternion.x, o.quaternion.y, o.quaternion.z], "row \(k)")
                k += 1
            }
            #expect(k == rows.count && k == 500)
        }
    }

    @Test("FusionStream() is the inertial filter with its defaults in the ENU frame, nothing in front")
    func defaultParts() {
        let stream = FusionStream()
        #expect(stream.filter.settings == InertialFrameFilter<Double>.Settings())
        #expect(stream.filter.frame == .enu)
        #expect(stream.biasEstimator == nil)
        #expect(stream.clock.maximumGap == 1)
        #expect(stream.settings == FusionStream<InertialFrameFilter<Double>>.Settings())
    }
}
