import Foundation
import Testing

@testable import MotionFusionCore
@testable import MotionFusionIO
import MotionFusionSimulation

/// `DeviceMotionCSVWriter` and `MotionEventCSVWriter`: Swift's text of every number, every NaN as
/// `nan`, over rows that cross the 256 KiB buffer, and nothing written when abandoned.
@Suite("CSV writing: device motion and events")
struct DeviceMotionCSVWriterTests {
    /// Random samples: the attitude a random unit quaternion, every other value any bit pattern
    /// (NaN of either sign, infinities, subnormals) or of the sizes device motion has.
    static func samples(count: Int, seed: UInt64) -> [DeviceMotion] {
        var random = TestRandom(seed: seed)
        func value() -> Double {
            FusionCSVWriterTests.randomValue(&random, Double.self, fromBits: { Double(bitPattern: $0) })
        }
        func vector() -> SIMD3<Double> { SIMD3(value(), value(), value()) }
        return (0..<count).map { _ in
            var q = Quaternion<Double>(w: value(), x: value(), y: value(), z: value())
            if !(q.lengthSquared.isFinite && q.lengthSquared > 1e-300) { q = Quaternion(w: 0.5, x: -0.5, y: 0.5, z: 0.5) }
            return DeviceMotion(
                timestamp: value(), attitude: try! Attitude(quaternion: q), rotationRate: vector(), gravity: vector(),
                userAcceleration: vector(),
                magneticField: CalibratedMagneticField(
                    field: vector(), accuracy: MagneticFieldAccuracy.allCases[Int(random.next() % 4)]),
                heading: value())
        }
    }

    @Test func everyNumberIsSwiftsTextAndNaNIsNan() throws {
        let rows = Self.samples(count: 12_000, seed: 31)
        let path = FusionCSVWriterTests.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = DeviceMotionCSVWriter(file: try OutputFile(path: path))
        for row in rows { writer.write(row) }
        try writer.finish()
        var expected = DeviceMotionCSVWriter.header + "\n"
        func text(_ x: Double) -> String { x.isNaN ? "nan" : "\(x)" }
        for m in rows {
            let q = m.attitude.quaternion
            let e = m.attitude.eulerAngles.angles
            let numbers = [m.timestamp, q.w, q.x, q.y, q.z, e[2], e[1], e[0]]
                + [m.rotationRate, m.gravity, m.userAcceleration].flatMap { [$0.x, $0.y, $0.z] } + [m.heading]
                + [m.magneticField.field.x, m.magneticField.field.y, m.magneticField.field.z]
            expected += numbers.map(text).joined(separator: ",") + ",\(m.magneticField.accuracy.rawValue)\n"
        }
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.utf8.count > 2 * 256 * 1024)
        #expect(written == expected)
        #expect(!written.contains("-nan") && !written.contains("snan"))
        #expect(rows.contains { $0.heading.isNaN && $0.heading.sign == .minus })
    }

    @Test func eventsAreTimeNameAndValue() throws {
        let events: [MotionEvent] = [
            .shakeBegan(timestamp: 0.25), .shakeEnded(timestamp: 1.5), .shakeCancelled(timestamp: -.nan),
            .orientationChanged(timestamp: 2, from: .faceUp, to: .landscapeLeft),
            .movement(timestamp: 1e-05, direction: .towardUser, peak: 0.4),
        ]
        let path = FusionCSVWriterTests.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = MotionEventCSVWriter(file: try OutputFile(path: path))
        for e in events { writer.write(e) }
        try writer.finish()
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == "t,event,value\n0.25,shakeBegan,\n1.5,shakeEnded,\nnan,shakeCancelled,\n2.0,orientation,landscapeLeft\n"
                + "1e-05,movement,towardUser\n")
    }

    @Test func anAbandonedWriterLeavesNoFile() throws {
        let path = FusionCSVWriterTests.temporaryPath()
        let writer = DeviceMotionCSVWriter(file: try OutputFile(path: path))
        for row in Self.samples(count: 30_000, seed: 32) { writer.write(row) }
        writer.abandon()
        writer.write(Self.samples(count: 1, seed: 33)[0])
        #expect(!FileManager.default.fileExists(atPath: path))
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.hasPrefix(name) })
    }
}
