import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion

/// `motion evaluate` on a phone trial's truth (../shared/reference-data/tyrex-dev), as
/// score_tyrex.py scores: its `score` column selects the rows, and `--heading-offset remove` takes
/// out the constant heading offset. The estimate is the truth turned by a known angle about the
/// vertical, so the expected figures follow without the code under test: kept, every scored row
/// is off by exactly that angle in total and heading and by nothing in inclination; removed,
/// everything is zero; the rows scored are those whose score is 1 and whose truth is finite.
@Suite(
    "motion evaluate: the phone trials' scoring",
    .enabled(if: TyrexData.required, "tyrex-dev data not found at ../shared/reference-data/tyrex-dev"))
struct EvaluateHeadingOffsetTests {
    /// The angle on the report's line that starts with `label` (acos amplifies rounding near zero,
    /// so a perfect score reads about 1e-6°).
    static func degrees(_ label: String, in report: String) throws -> Double {
        let line = try #require(EvaluateCommandTests.line(label, in: report))
        let text = line.dropFirst(label.count).trimmingCharacters(in: .whitespaces).prefix { $0 != "°" }
        return try #require(Double(text), "\(line)")
    }

    @Test func theScoreColumnAndTheHeadingOffsetAreTheScorersOnes() throws {
        let rows = try TyrexData.rows("Guillaume_Nexus5_NoDist_Swinging.truth.csv.gz")
        let folder = FileManager.default.temporaryDirectory
        let truth = folder.appendingPathComponent("mf-truth-\(UUID()).csv").path
        let estimate = folder.appendingPathComponent("mf-estimate-\(UUID()).csv").path
        defer {
            try? FileManager.default.removeItem(atPath: truth)
            try? FileManager.default.removeItem(atPath: estimate)
        }
        let turn = Quaternion<Double>(angle: 40 * .pi / 180, axis: SIMD3(0, 0, 1))
        var truthText = "t,qw,qx,qy,qz,valid,score\n", estimateText = "t,qw,qx,qy,qz\n"
        var expectedScored = 0
        for r in rows {
            truthText += r.map { "\($0)" }.joined(separator: ",") + "\n"
            let q = Quaternion(w: r[1], x: r[2], y: r[3], z: r[4])
            let turned = q.w.isFinite ? turn * q : q
            estimateText += "\(r[0]),\(turned.w),\(turned.x),\(turned.y),\(turned.z)\n"
            if r[6] == 1 && r[1...4].allSatisfy(\.isFinite) { expectedScored += 1 }
        }
        try truthText.write(toFile: truth, atomically: true, encoding: .utf8)
        try estimateText.write(toFile: estimate, atomically: true, encoding: .utf8)
        #expect(expectedScored > 1000 && expectedScored < rows.count)

        let kept = try EvaluateCommand.parse([estimate, truth]).report()
        #expect(kept.contains("rows scored: \(expectedScored) of \(rows.count)"), "\(kept)")
        #expect(kept.contains("heading offset    40.000° (circular mean of the heading error), kept"), "\(kept)")
        #expect(kept.contains("total RMSE        40.000°"), "\(kept)")
        #expect(kept.contains("heading RMSE      40.000°"), "\(kept)")
        #expect(try Self.degrees("inclination RMSE", in: kept) < 1e-4, "\(kept)")

        let removed = try EvaluateCommand.parse([estimate, truth, "--heading-offset", "remove"]).report()
        #expect(removed.contains("40.000° (circular mean of the heading error), removed before scoring"), "\(removed)")
        #expect(try Self.degrees("total RMSE", in: removed) < 1e-4, "\(removed)")
        #expect(try Self.degrees("heading RMSE", in: removed) < 1e-4, "\(removed)")
    }
}
