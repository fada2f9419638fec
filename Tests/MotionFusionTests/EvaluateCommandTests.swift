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

/// `motion evaluate`: rows that cannot be scored are counted and named, never scored as perfect,
/// and a 6D estimate's heading is not passed off as an error figure.
@Suite("motion evaluate: unusable rows and 6D estimates")
struct EvaluateCommandTests {
    static let twoDegrees = Quaternion<Double>(angle: 2 * .pi / 180, axis: SIMD3(0, 0, 1))

    static func row(_ q: Quaternion<Double>) -> String { "\(q.w),\(q.x),\(q.y),\(q.z)" }

    static func report(_ arguments: [String]) throws -> String {
        try EvaluateCommand.parse(arguments).report()
    }

    /// The report's line that starts with `prefix`, trimmed.
    static func line(_ prefix: String, in report: String) -> String? {
        report.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix(prefix) }
    }

    /// Files of different lengths are refused with both counts (the files are read side by side,
    /// so the longer one's rest is counted), and the streaming accumulator gives the same summary
    /// as the array form.
    @Test func differentLengthsAndTheStreamingSummary() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let header = "qw,qx,qy,qz\n"
        _ = try folder.write("e.csv", header + (0..<5).map { _ in Self.row(Self.twoDegrees) + "\n" }.joined())
        _ = try folder.write("t.csv", header + (0..<7).map { _ in Self.row(.identity) + "\n" }.joined())
        for (a, b, rowsA, rowsB) in [("e.csv", "t.csv", 5, 7), ("t.csv", "e.csv", 7, 5)] {
            do {
                _ = try Self.report([folder[a], folder[b]])
                Issue.record("\(a) \(b): no error")
            } catch {
                #expect("\(error)" == "\(folder[a]) has \(rowsA) rows, \(folder[b]) has \(rowsB)")
            }
        }
        var accumulator = OrientationErrorAccumulator()
        let estimates = (0..<50).map { Quaternion<Double>(angle: Double($0) * 0.01, axis: SIMD3(1, 2, 3) / 14.0.squareRoot()) }
        let references = (0..<50).map { Quaternion<Double>(angle: Double($0) * 0.013, axis: SIMD3(0, 0, 1)) }
        for i in 0..<50 { accumulator.add(estimate: estimates[i], reference: references[i], scored: i % 3 != 0) }
        #expect(accumulator.summary == OrientationErrors.summary(estimates: estimates, references: references, scored: (0..<50).map { $0 % 3 != 0 }))
    }

    @Test func zeroAndNonFiniteQuaternionsAreNotScoredAsPerfect() {
        let identity = Quaternion<Double>.identity
        let nan = Quaternion<Double>(w: .nan, x: .nan, y: .nan, z: .nan)
        let zero = Quaternion<Double>(w: 0, x: 0, y: 0, z: 0)
        let infinite = Quaternion<Double>(w: .infinity, x: 0, y: 0, z: 0)
        // Estimates: nan, zero, inf, then 2° off twice; truths: identity, and one zero truth.
        let summary = OrientationErrors.summary(
            estimates: [nan, zero, infinite, Self.twoDegrees, Self.twoDegrees, Self.twoDegrees],
            references: [identity, identity, identity, identity, identity, zero],
            scored: [true, true, true, true, true, true])
        #expect(summary.count == 2)
        #expect(abs(summary.total - 2) < 1e-12 && abs(summary.heading - 2) < 1e-12 && summary.inclination < 1e-6)
        #expect(summary.unusableEstimates == 3)
        #expect(summary.unusableReferences == 1)
        // Nothing to score: NaN, not a perfect 0.
        let none = OrientationErrors.summary(estimates: [nan, zero], references: [identity, identity], scored: [true, true])
        #expect(none.count == 0 && none.total.isNaN && none.heading.isNaN && none.inclination.isNaN)
        #expect(none.unusableEstimates == 2)
        // A huge but finite estimate still has a direction: it is scored.
        let huge = Quaternion<Double>(w: 1e300, x: 0, y: 0, z: 0)
        #expect(OrientationErrors.summary(estimates: [huge], references: [identity], scored: [true]).count == 1)
    }

    @Test func theCommandCountsAndNamesRowsItLeavesOut() throws {
        let q = Self.row(Self.twoDegrees)
        let estimate = CSVReaderTests.file("t,qw,qx,qy,qz\n0,nan,nan,nan,nan\n1,0,0,0,0\n2,\(q)\n3,\(q)\n4,\(q)\n5,0,0,0,0\n")
        let truth = CSVReaderTests.file("t,qw,qx,qy,qz,movement\n0,1,0,0,0,1\n1,1,0,0,0,1\n2,1,0,0,0,1\n3,nan,nan,nan,nan,1\n4,1,0,0,0,1\n5,1,0,0,0,0\n")
        let report = try Self.report([estimate, truth])
        // Row 5 is outside the movement phase; row 3's truth is an optical dropout; rows 0 and 1 have
        // no estimate: 2 scored, at 2°.
        #expect(Self.line("rows scored:", in: report) == "rows scored: 2 of 6", "\(report)")
        #expect(
            Self.line("left out:", in: report)?.hasPrefix("left out: 2 rows whose estimate is zero or not finite (first at line 2 of ") == true,
            "\(report)")
        #expect(report.contains("1 row whose truth is zero or not finite (first at line 5 of "), "\(report)")
        #expect(Self.line("total RMSE", in: report) == "total RMSE        2.000°", "\(report)")
        #expect(Self.line("inclination RMSE", in: report) == "inclination RMSE  0.000°", "\(report)")
        // Only unusable estimates: an error, not a perfect score.
        let broken = CSVReaderTests.file("t,qw,qx,qy,qz\n0,nan,nan,nan,nan\n1,0,0,0,0\n")
        let identity = CSVReaderTests.file("t,qw,qx,qy,qz\n0,1,0,0,0\n1,1,0,0,0\n")
        var message = ""
        do {
            Issue.record("scored: \(try Self.report([broken, identity]))")
        } catch {
            message = "\(error)"
        }
        #expect(message.hasPrefix("no row to score: 2 rows whose estimate is zero or not finite"), "\(message)")
    }

    @Test func aNineDReportSaysWhatTotalAndHeadingInclude() throws {
        let q = Self.row(Self.twoDegrees)
        let estimate = CSVReaderTests.file("t,qw,qx,qy,qz,flags\n0,\(q),3\n1,\(q),3\n")
        let truth = CSVReaderTests.file("t,qw,qx,qy,qz\n0,1,0,0,0\n1,1,0,0,0\n")
        let report = try Self.report([estimate, truth])
        let lines = report.split(separator: "\n").map(String.init)
        let total = try #require(lines.firstIndex { $0.hasPrefix("total RMSE") }, "\(report)")
        #expect(lines[total + 1].contains("total and heading include the heading error"), "\(report)")
        #expect(lines[total + 1].contains("--6d"), "\(report)")
        #expect(!report.contains("not meaningful"), "\(report)")
    }

    @Test func aSixDEstimateIsReportedByInclination() throws {
        let q = Self.row(Self.twoDegrees)
        let truth = CSVReaderTests.file("t,qw,qx,qy,qz\n0,1,0,0,0\n1,1,0,0,0\n")
        // Detected from motion fuse's flags column (1 = accelerometer used, no magnetometer), or
        // given with --6d.
        let detected = try Self.report([CSVReaderTests.file("t,qw,qx,qy,qz,flags\n0,\(q),1\n1,\(q),1\n"), truth])
        let given = try Self.report([CSVReaderTests.file("t,qw,qx,qy,qz\n0,\(q)\n1,\(q)\n"), truth, "--6d"])
        for report in [detected, given] {
            #expect(report.contains("heading is not observable without a magnetometer"), "\(report)")
            #expect(report.contains("inclination is the figure to read"), "\(report)")
            #expect(Self.line("total RMSE", in: report)?.contains("not meaningful") == true, "\(report)")
            #expect(Self.line("heading RMSE", in: report)?.contains("not meaningful") == true, "\(report)")
            #expect(Self.line("inclination RMSE", in: report) == "inclination RMSE  0.000°", "\(report)")
        }
        #expect(detected.contains("no scored row used the magnetometer"), "\(detected)")
        #expect(try EvaluateCommand.parse(["a", "b", "--no-heading"]).sixD)
    }

    @Test func motionFuseSixDThenEvaluate() throws {
        // A known rotation, fused 6D and 9D by `motion fuse`, evaluated against its truth.
        var input = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n", truthText = "t,qw,qx,qy,qz\n"
        var q = Quaternion<Double>(angle: 0.2, axis: SIMD3(0, 1, 0))
        let w = SIMD3<Double>(0.3, -0.2, 0.5)
        for k in 0..<1000 {
            if k > 0 { q = (q * Quaternion(rotationVector: w * 0.01)).normalized() }
            let a = q.inverseAct(on: SIMD3(0, 0, 9.80665)), m = q.inverseAct(on: SIMD3(0, 20, -45))
            input += "\(Double(k) * 0.01),\(w.x),\(w.y),\(w.z),\(a.x),\(a.y),\(a.z),\(m.x),\(m.y),\(m.z)\n"
            truthText += "\(Double(k) * 0.01),\(Self.row(q))\n"
        }
        let inputPath = CSVReaderTests.file(input), truth = CSVReaderTests.file(truthText)
        let six = FileManager.default.temporaryDirectory.appendingPathComponent("mf-6d-\(UUID()).csv").path
        let nine = FileManager.default.temporaryDirectory.appendingPathComponent("mf-9d-\(UUID()).csv").path
        defer {
            try? FileManager.default.removeItem(atPath: six)
            try? FileManager.default.removeItem(atPath: nine)
        }
        try FuseCommandTests.run(["fuse", inputPath, "-o", six, "--no-magnetometer"])
        try FuseCommandTests.run(["fuse", inputPath, "-o", nine])
        let sixReport = try Self.report([six, truth]), nineReport = try Self.report([nine, truth])
        #expect(sixReport.contains("heading is not observable without a magnetometer"), "\(sixReport)")
        #expect(!nineReport.contains("heading is not observable without a magnetometer"), "\(nineReport)")
        #expect(nineReport.contains("total and heading include the heading error"), "\(nineReport)")
    }
}
