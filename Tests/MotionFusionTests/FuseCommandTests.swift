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

/// `motion fuse`, the CLI contract outside tools rely on.
@Suite("motion fuse")
struct FuseCommandTests {
    static func input(rows: Int = 500, degreesAndG: Bool = false, magnetometer: Bool = true) -> String {
        var text = magnetometer ? "gx,gy,gz,t,ax,ay,az,mx,my,mz,other\n" : "t,gx,gy,gz,ax,ay,az\n"
        var q = Quaternion<Double>(angle: 0.2, axis: SIMD3(0, 1, 0))
        for k in 0..<rows {
            let w = SIMD3<Double>(0.3, -0.2, 0.5)
            if k > 0 { q = (q * Quaternion(rotationVector: w * 0.01)).normalized() }
            let a = q.inverseAct(on: SIMD3(0, 0, 9.80665))
            let m = q.inverseAct(on: SIMD3(0, 20, -45))
            let gs = degreesAndG ? w * (180 / .pi) : w
            let acc = degreesAndG ? a / 9.80665 : a
            let t = Double(k) * 0.01
            text += magnetometer
                ? "\(gs.x),\(gs.y),\(gs.z),\(t),\(acc.x),\(acc.y),\(acc.z),\(m.x),\(m.y),\(m.z),7\n"
                : "\(t),\(gs.x),\(gs.y),\(gs.z),\(acc.x),\(acc.y),\(acc.z)\n"
        }
        return CSVReaderTests.file(text)
    }

    static func run(_ arguments: [String]) throws {
        var command = try MotionCommand.parseAsRoot(arguments)
        try command.run()
    }

    static func output(_ path: String) throws -> [[Double]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines[0].hasPrefix("t,qw,qx,qy,qz"))
        return lines.dropFirst().map { $0.split(separator: ",").map { Double($0)! } }
    }

    @Test func fusesEveryRowWithRoundTrippingNumbers() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mf-out-\(UUID()).csv").path
        let input = Self.input()
        try Self.run(["fuse", input, "-o", out, "--filter", "complementary"])
        let rows = try Self.output(out)
        #expect(rows.count == 500)
        // Same numbers as the library gives, to the last bit (the text round-trips).
        let reader = try IMUCSVReader(path: input)
        var stream = FusionStream(filter: ComplementaryFilter<Double>())
        var k = 0
        while let r = try reader.next() {
            let o = stream.update(timestamp: r.timestamp, gyroscope: r.gyroscope, accelerometer: r.accelerometer, magnetometer: r.magnetometer)
            #expect(rows[k][0] == r.timestamp)
            #expect(Array(rows[k][1...4]) == [o.quaternion.w, o.quaternion.x, o.quaternion.y, o.quaternion.z])
            k += 1
        }
    }

    @Test func unitFlagsGiveTheSameResult() throws {
        let dir = FileManager.default.temporaryDirectory
        let a = dir.appendingPathComponent("mf-a-\(UUID()).csv").path
        let b = dir.appendingPathComponent("mf-b-\(UUID()).csv").path
        try Self.run(["fuse", Self.input(), "-o", a])
        try Self.run(["fuse", Self.input(degreesAndG: true), "-o", b, "--gyro-unit", "deg/s", "--accel-unit", "g"])
        let x = try Self.output(a), y = try Self.output(b)
        for (r, s) in zip(x, y) {
            let qa = Quaternion(w: r[1], x: r[2], y: r[3], z: r[4]), qb = Quaternion(w: s[1], x: s[2], y: s[3], z: s[4])
            #expect(qa.angle(to: qb) < 1e-9)
        }
    }

    @Test func everyFilterFrameAndSixD() throws {
        for filter in FilterName.allCases {
            for frame in EarthFrame.allCases {
                let out = FileManager.default.temporaryDirectory.appendingPathComponent("mf-\(UUID()).csv").path
                try Self.run(["fuse", Self.input(magnetometer: false), "-o", out, "--filter", filter.rawValue, "--frame", frame.rawValue])
                let rows = try Self.output(out)
                let last = rows.last!
                // Gravity in the sensor frame agrees with the attitude: q maps it to "down".
                let q = Quaternion(w: last[1], x: last[2], y: last[3], z: last[4])
                let gravity = SIMD3(last[8], last[9], last[10])
                let down = q.act(on: gravity) / 9.80665
                #expect((down + frame.up(Double.self)).length < 1e-9, "\(filter) \(frame)")
                #expect(FusionFlags(rawValue: UInt16(last[17])).contains(.accelerometerUsed))
                #expect(!FusionFlags(rawValue: UInt16(last[17])).contains(.magnetometerUsed))
            }
        }
    }

    @Test func malformedInputFailsWithLineAndColumnAndLeavesNoOutput() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mf-bad-\(UUID()).csv").path
        let bad = CSVReaderTests.file("t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.8\n0.01,0,0,zero,0,0,9.8\n")
        do {
            try Self.run(["fuse", bad, "-o", out])
            Issue.record("malformed input must fail")
        } catch {
            #expect("\(error)".contains("line 3, column 4 (gz): 'zero' is not a number"))
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix(URL(fileURLWithPath: out).lastPathComponent) }
        #expect(leftovers.isEmpty)
        #expect(throws: (any Error).self) { try Self.run(["fuse", bad, "-o", out, "--beta", "-1"]) }
    }
}

@Suite("motion --help and version")
struct MotionCommandTests {
    @Test func helpListsTheCommands() throws {
        let help = MotionCommand.helpMessage()
        for command in ["fuse", "version", "demo"] { #expect(help.contains(command)) }
        let fuseHelp = MotionCommand.helpMessage(for: FuseCommand.self)
        for option in ["--filter", "--no-magnetometer", "--frame", "--beta", "--zeta", "--kp", "--ki", "--gyro-unit", "--accel-unit"] {
            #expect(fuseHelp.contains(option), "\(option)")
        }
        let version = try MotionCommand.parseAsRoot(["version"])
        #expect(version is VersionCommand)
    }
}

@Suite("motion evaluate and declination")
struct EvaluateAndDeclinationTests {
    @Test func evaluateReadsEstimateAndTruthWithMovement() throws {
        // Truth: identity; estimate: 2° about z (heading only) on rows 2 and 3; row 1 not scored.
        let truth = CSVReaderTests.file("t,qw,qx,qy,qz,movement\n0,1,0,0,0,0\n1,1,0,0,0,1\n2,1,0,0,0,1\n3,nan,nan,nan,nan,1\n")
        let q = Quaternion<Double>(angle: 2 * .pi / 180, axis: SIMD3(0, 0, 1))
        let estimate = CSVReaderTests.file(
            "t,qw,qx,qy,qz\n0,0,1,0,0\n1,\(q.w),\(q.x),\(q.y),\(q.z)\n2,\(q.w),\(q.x),\(q.y),\(q.z)\n3,1,0,0,0\n")
        let (e, _) = try EvaluateCommand.quaternions(estimate, movement: false)
        let (r, movement) = try EvaluateCommand.quaternions(truth, movement: true)
        let summary = OrientationErrors.summary(estimates: e, references: r, scored: movement!)
        #expect(summary.count == 2)
        #expect(abs(summary.total - 2) < 1e-12 && abs(summary.heading - 2) < 1e-12 && summary.inclination < 1e-6)
        try FuseCommandTests.run(["evaluate", estimate, truth])
        #expect(throws: (any Error).self) { try FuseCommandTests.run(["evaluate", estimate, CSVReaderTests.file("qw,qx\n1,0\n")]) }
    }

    @Test func declinationRunsAndRejectsBadInput() throws {
        try FuseCommandTests.run(["declination", "--latitude", "52.5", "--longitude", "13.4", "--date", "2026-11-22"])
        #expect(throws: (any Error).self) {
            try FuseCommandTests.run(["declination", "--latitude", "95", "--longitude", "0", "--date", "2026-01-01"])
        }
        #expect(throws: (any Error).self) {
            try FuseCommandTests.run(["declination", "--latitude", "10", "--longitude", "0", "--date", "2040-01-01"])
        }
    }
}
