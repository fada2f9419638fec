import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusionCore

/// `motion activity`, run in-process on the known walk of ``StepsCommandTests`` (a second at rest,
/// 60 steps at 0.55 s, three seconds at rest).
@Suite("motion activity")
struct ActivityCommandTests {
    static let walk = StepsCommandTests.walk

    static func run(_ arguments: [String]) -> String? { CommandOutputSafetyTests.run(arguments) }

    /// The rows written: t, activity, confidence, start.
    static func rows(_ path: String) throws -> [(t: Double, kind: String, confidence: String, start: Double)] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "t,activity,confidence,start")
        return lines.dropFirst().map { line in
            let f = line.split(separator: ",")
            return (Double(f[0])!, String(f[1]), String(f[2]), Double(f[3])!)
        }
    }

    /// Unknown at the first reading, walking from the first step (reported 2 s later), high after
    /// 10 s, then stationary once the walk has ended; the same rows from the recording with a
    /// gyroscope, a multi-rate one and the accelerometer's own file.
    @Test func writesTheActivities() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("walk.csv", StepsCommandTests.csv())
        #expect(Self.run(["activity", input, "-o", folder["out.csv"]]) == nil)
        let rows = try Self.rows(folder["out.csv"])
        #expect(rows.map(\.kind) == ["unknown", "walking", "walking", "stationary"], "\(rows)")
        #expect(rows.map(\.confidence) == ["low", "medium", "high", "medium"])
        #expect(rows[0].t == Self.walk.timestamps[0] && rows[0].start == rows[0].t)
        #expect(abs(rows[1].start - Self.walk.steps[0]) < 0.1 && abs(rows[1].t - rows[1].start - 2) < 0.02)
        #expect(abs(rows[2].t - rows[2].start - 10) < 0.02 && rows[2].start == rows[1].start)
        #expect(rows[3].start > Self.walk.steps.last! && rows[3].t < Self.walk.steps.last! + 3)
        let expected = try folder.read("out.csv")
        let multi = try folder.write("multi.csv", StepsCommandTests.csv(gyroscope: true, emptyRowsEvery: 7))
        #expect(Self.run(["activity", multi, "-o", folder["multi.out"]]) == nil)
        #expect(try folder.read("multi.out") == expected)
        let own = try folder.write("accel.csv", StepsCommandTests.csv().replacingOccurrences(of: "t,ax,ay,az", with: "t,x,y,z"))
        #expect(Self.run(["activity", "--accelerometer", own, "-o", folder["own.out"]]) == nil)
        #expect(try folder.read("own.out") == expected)
    }

    /// Wrong units and malformed rows are errors naming the line and column, and nothing is written;
    /// `--set` edits the settings (a running cadence the walk reaches makes it a run: its jolts are
    /// 3 m/s², and with a running impact of 0 the cadence alone decides), and refuses unknown names.
    @Test func unitsRowsAndSettings() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let g = try folder.write("g.csv", StepsCommandTests.csv(inG: true))
        let message = try #require(Self.run(["activity", g, "-o", folder["out.csv"]]))
        #expect(message.contains("g.csv") && message.contains("line") && message.contains("ax"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: folder["out.csv"]))
        let bad = try folder.write("bad.csv", StepsCommandTests.csv() + "99,1,x,3\n")
        let malformed = try #require(Self.run(["activity", bad, "-o", folder["out.csv"]]))
        #expect(malformed.contains("column 3"), "\(malformed)")
        let input = try folder.write("walk.csv", StepsCommandTests.csv())
        #expect(Self.run(["activity", input, "-o", folder["run.csv"], "--set", "runningCadence=1.5", "--set", "runningImpact=0"]) == nil)
        #expect(try Self.rows(folder["run.csv"]).map(\.kind).contains("running"))
        // The step detector's settings by `steps.NAME`: a floor above the walk's jolts, no walk.
        #expect(Self.run(["activity", input, "-o", folder["floor.csv"], "--set", "steps.minimumPeak=5"]) == nil)
        #expect(!(try Self.rows(folder["floor.csv"]).map(\.kind).contains("walking")))
        let unknown = try #require(Self.run(["activity", input, "-o", folder["x.csv"], "--set", "speed=1"]))
        #expect(unknown.contains("runningCadence") && unknown.contains("steps.minimumPeak"), "\(unknown)")
        let outside = try #require(Self.run(["activity", input, "-o", folder["x.csv"], "--set", "steps.minimumMagnitudeShare=2"]))
        #expect(outside.contains("minimumMagnitudeShare"), "\(outside)")
        #expect(!FileManager.default.fileExists(atPath: folder["x.csv"]))
    }

    @Test func needsOneInput() {
        #expect(throws: (any Error).self) { try ActivityCommand.parse(["a.csv", "--accelerometer", "b.csv", "-o", "o.csv"]) }
        #expect(throws: (any Error).self) { try ActivityCommand.parse(["-o", "o.csv"]) }
    }
}
