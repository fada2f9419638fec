import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusionCore

/// `motion steps`, run in-process on files written here from a walk whose steps are known
/// (``SyntheticWalk``: 60 steps at 0.55 s).
@Suite("motion steps")
struct StepsCommandTests {
    static let walk = SyntheticWalk(rate: 100, seed: 21)

    /// The walk as CSV: `t` and the accelerometer, with a gyroscope (zero) or not, in m/s² or g.
    static func csv(gyroscope: Bool = false, inG: Bool = false, emptyRowsEvery: Int? = nil) -> String {
        var text = gyroscope ? "t,gx,gy,gz,ax,ay,az\n" : "t,ax,ay,az\n"
        let scale = inG ? 1 / 9.80665 : 1
        for (k, (t, a)) in zip(walk.timestamps, walk.readings).enumerated() {
            let g = gyroscope ? "0.01,-0.02,0.03," : ""
            if let n = emptyRowsEvery, k % n == 0 { text += "\(t + 0.001),\(g),,\n" }
            text += "\(t),\(g)\(a.x * scale),\(a.y * scale),\(a.z * scale)\n"
        }
        return text
    }

    static func run(_ arguments: [String]) -> String? { CommandOutputSafetyTests.run(arguments) }

    /// The rows written: t, steps, cadence.
    static func rows(_ path: String) throws -> [[Double]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "t,steps,cadence")
        return lines.dropFirst().map { $0.split(separator: ",").map { Double($0)! } }
    }

    /// An accelerometer-only CSV: one row per step, counted 1…60 in order, each within τ + one
    /// sample of its jolt, with the walk's cadence (1 / 0.55 s within 3 %).
    @Test func writesTheSteps() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("walk.csv", Self.csv())
        #expect(Self.run(["steps", input, "-o", folder["steps.csv"]]) == nil)
        let rows = try Self.rows(folder["steps.csv"])
        #expect(rows.count == 60)
        for (k, row) in rows.enumerated() {
            #expect(row[1] == Double(k + 1))
            #expect(abs(row[0] - Self.walk.steps[k]) < 0.055)
            #expect(abs(row[2] * 0.55 - 1) < 0.05, "cadence \(row[2])")
        }
    }

    /// A recording with a gyroscope, a multi-rate one with empty accelerometer rows, and the
    /// accelerometer's own `t,x,y,z` file (`--accelerometer`) give the same steps.
    @Test func readsEveryRecordingShape() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let plain = try folder.write("plain.csv", Self.csv())
        #expect(Self.run(["steps", plain, "-o", folder["plain.out"]]) == nil)
        let expected = try folder.read("plain.out")
        let full = try folder.write("full.csv", Self.csv(gyroscope: true))
        #expect(Self.run(["steps", full, "-o", folder["full.out"]]) == nil)
        #expect(try folder.read("full.out") == expected)
        let multi = try folder.write("multi.csv", Self.csv(gyroscope: true, emptyRowsEvery: 7))
        #expect(Self.run(["steps", multi, "-o", folder["multi.out"]]) == nil)
        #expect(try folder.read("multi.out") == expected)
        let own = try folder.write("accel.csv", Self.csv().replacingOccurrences(of: "t,ax,ay,az", with: "t,x,y,z"))
        #expect(Self.run(["steps", "--accelerometer", own, "-o", folder["own.out"]]) == nil)
        #expect(try folder.read("own.out") == expected)
    }

    /// An accelerometer in g read as m/s² is refused, naming the file, line and column (it would
    /// count nothing: its jolts are a tenth of a step's), and nothing is written; `--accel-unit g`
    /// reads it.
    @Test func refusesWrongUnits() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("g.csv", Self.csv(inG: true))
        let message = try #require(Self.run(["steps", input, "-o", folder["out.csv"]]))
        #expect(message.contains("g.csv") && message.contains("line") && message.contains("ax"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: folder["out.csv"]))
        #expect(Self.run(["steps", input, "-o", folder["out.csv"], "--accel-unit", "g"]) == nil)
        #expect(try Self.rows(folder["out.csv"]).count == 60)
    }

    /// A malformed row is an error naming its line and column; the output is not written.
    @Test func malformedRowsAreErrors() throws {
        let folder = try Folder()
        defer { folder.remove() }
        var text = Self.csv()
        text += "99,1,x,3\n"
        let input = try folder.write("bad.csv", text)
        let message = try #require(Self.run(["steps", input, "-o", folder["out.csv"]]))
        #expect(message.contains("line \(Self.walk.timestamps.count + 2)") && message.contains("column 3"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: folder["out.csv"]))
    }

    /// `--set` edits the detector's settings by their Swift names: a floor above the walk's 3 m/s²
    /// jolts counts nothing; an unknown name, or a value outside its range, is refused and lists
    /// or names the setting.
    @Test func setEditsTheSettings() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("walk.csv", Self.csv())
        #expect(Self.run(["steps", input, "-o", folder["a.csv"], "--set", "minimumPeak=5"]) == nil)
        #expect(try Self.rows(folder["a.csv"]).isEmpty)
        #expect(Self.run(["steps", input, "-o", folder["b.csv"], "--set", "stepsToStart=5", "--set", "minimumPeak=0.5"]) == nil)
        #expect(try Self.rows(folder["b.csv"]).count == 60)
        let unknown = try #require(Self.run(["steps", input, "-o", folder["c.csv"], "--set", "threshold=1"]))
        #expect(unknown.contains("relativeThreshold") && unknown.contains("minimumPeak"), "\(unknown)")
        let outside = try #require(Self.run(["steps", input, "-o", folder["c.csv"], "--set", "minimumMagnitudeShare=2"]))
        #expect(outside.contains("minimumMagnitudeShare"), "\(outside)")
        #expect(!FileManager.default.fileExists(atPath: folder["c.csv"]))
    }

    /// A multi-rate row with every accelerometer cell empty has no reading (no warning); a row with
    /// only some of them empty is an error naming its line and column.
    @Test func multiRateRows() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("multi.csv", Self.csv(gyroscope: true, emptyRowsEvery: 5))
        let result = try StandardOutputTests.run(["steps", "multi.csv", "-o", "-"], in: folder)
        #expect(result.status == 0 && result.error.isEmpty, "\(result.error)")
        #expect(String(decoding: result.output, as: UTF8.self).split(separator: "\n").count == 61)
        let partly = try folder.write("partly.csv", "t,ax,ay,az\n0,0,0,9.8\n0.01,0.1,,9.8\n")
        let message = try #require(Self.run(["steps", partly, "-o", folder["out.csv"]]))
        #expect(message.contains("line 3") && message.contains("column 3"), "\(message)")
        _ = input
    }

    /// INPUT and --accelerometer together, or neither, are refused.
    @Test func needsOneInput() {
        #expect(throws: (any Error).self) { try StepsCommand.parse(["a.csv", "--accelerometer", "b.csv", "-o", "o.csv"]) }
        #expect(throws: (any Error).self) { try StepsCommand.parse(["-o", "o.csv"]) }
    }
}
