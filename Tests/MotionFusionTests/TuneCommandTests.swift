import ArgumentParser
import Foundation
import RealModule
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore

/// `motion tune`: the grid its `--set` ranges make, the leave-one-recording-out choice, and scores
/// that are `motion fuse` followed by `motion evaluate`'s computation, candidate by candidate.
@Suite("motion tune")
struct TuneCommandTests {
    @Test func rangesListsAndTheirCombinations() throws {
        let grid = try TuneGrid(["a=1...100:3:log", "b=true,false", "c=0...1"], steps: 3)
        #expect(grid.axes.map(\.name) == ["a", "b", "c"])
        let a = grid.axes[0].values.map { Double($0)! }
        #expect(a.count == 3 && a[0] == 1 && abs(a[1] - 10) < 1e-12 && a[2] == 100)
        #expect(grid.axes[1].values == ["true", "false"])
        #expect(grid.axes[2].values.map { Double($0)! } == [0, 0.5, 1])
        #expect(grid.count == 18)
        // Mixed radix, the last axis fastest.
        #expect(grid.overrides(0) == ["a=1.0", "b=true", "c=0.0"])
        #expect(grid.overrides(4) == ["a=1.0", "b=false", "c=0.5"])
        #expect(grid.overrides(17) == ["a=100.0", "b=false", "c=1.0"])
        #expect(try TuneGrid(["x=2...4"], steps: 5).axes[0].values.map { Double($0)! } == [2, 2.5, 3, 3.5, 4])
        #expect(try TuneGrid([], steps: 10).count == 1)
    }

    @Test func malformedRangesAreRefusedWithTheirText() throws {
        let bad: [(String, String)] = [
            ("a=2...1", "a...b needs a below b"),
            ("a=1...2:1", "N in a...b:N must be a whole number from 2 to 10000"),
            ("a=0...1:3:log", "a...b:N:log needs a above 0"),
            ("a=1...2:3:lin", "expected log after a...b:N, got 'lin'"),
            ("a=1,1", "a value is listed twice"),
            ("a=1,,2", "value 2 is empty"),
            ("a", "expected name=a...b, name=a...b:N, name=a...b:N:log or name=v1,v2,…"),
            ("a=x...2", "the ends of a...b must be finite numbers"),
        ]
        for (text, why) in bad {
            #expect(throws: (any Error).self) { try TuneGrid([text], steps: 10) }
            do {
                _ = try TuneGrid([text], steps: 10)
            } catch {
                #expect("\(error)" == "tune: --set '\(text)': \(why)")
            }
        }
        for (texts, message) in [
            (["a=1", "a=2"], "tune: --set a is given twice"),
            (["a=1...2:10000", "b=1...2:10000"], "tune: the --set ranges make 10000 × 10000 candidates, more than 1000000"),
        ] {
            do {
                _ = try TuneGrid(texts, steps: 10)
                Issue.record("\(texts): no error")
            } catch {
                #expect("\(error)" == message)
            }
        }
        #expect(throws: (any Error).self) { try TuneGrid(["a=1...2"], steps: 10_001) }
        // A range across zero gives 0, not a rounding residue.
        #expect(try TuneGrid(["a=-0.3...0.6:4"], steps: 10).axes[0].values == ["-0.3", "0.0", "0.3", "0.6"])
    }

    /// A score matrix worked by hand: candidate 2 is best overall but worst on recording 0; candidate
    /// 3 diverged on recording 0; candidate 4 ties candidate 0.
    @Test func leaveOneOutChoosesOnTheOthersAndScoresTheOneLeftOut() {
        let nan = Double.nan
        let scores: [Double] = [
            1, 1, 1,  // 0: mean 1
            0.5, 0.5, 3,  // 1: mean 1.333
            2, 0.2, 0.2,  // 2: mean 0.8
            nan, 0, 0,  // 3: diverged on recording 0
            1, 1, 1,  // 4: ties 0
        ]
        let folds = TuneReport.leaveOneOut(scores: scores, candidates: 5, recordings: 3)
        // Out 0: means on 1 and 2 are 1, 1.75, 0.2, 0, 1: candidate 3, which diverged there.
        #expect(folds[0].chosen == 3 && folds[0].error.isNaN)
        // Out 1: on 0 and 2: 1, 1.75, 1.1, NaN, 1: candidate 0 (ties to the lower index).
        #expect(folds[1].chosen == 0 && folds[1].error == 1)
        // Out 2: on 0 and 1: 1, 0.5, 1.1, NaN, 1: candidate 1, 3° there.
        #expect(folds[2].chosen == 1 && folds[2].error == 3)
        let report = TuneReport(
            axes: ["x"], values: [[], ["1"], ["2"], ["3"], ["4"]], names: ["a", "b", "c"], scores: scores,
            metric: .total, filter: .inertial, sixD: false, samples: 30, readSeconds: 0, searchSeconds: 0, threads: 1,
            top: 10)
        #expect(report.ranking == [2, 0, 4, 1, 3])
        #expect(TuneReport.leaveOneOut(scores: [1, 2], candidates: 2, recordings: 1).isEmpty)
        let csv = report.csv.split(separator: "\n")
        let mean: Double = (0 + 2 + 0.2 + 0.2) / 3  // candidate 2: its mean over the three recordings
        #expect(csv[0] == "rank,x,mean,a,b,c")
        #expect(csv[1] == "1,2,\(mean),2.0,0.2,0.2")
        #expect(csv[2] == "2,default,1.0,1.0,1.0,1.0")
        #expect(csv[5] == "5,3,nan,nan,0.0,0.0")
    }

    @Test func optionsThatCannotWorkAreRefused() {
        for arguments in [
            ["a.csv", "b.csv", "--truth", "t.csv"],
            ["a.csv", "--no-magnetometer", "--metric", "total"],
            ["-"],
            ["a.csv", "--jobs", "0"],
            [],
        ] {
            #expect(throws: (any Error).self, "\(arguments)") { try TuneCommand.parse(arguments) }
        }
    }

    /// Each candidate's score on each trial is what `motion fuse` with its `--set` values writes,
    /// scored by ``OrientationErrors`` against the trial's truth (the computation of `motion
    /// evaluate`), in 9D (total, to 1e-9°) and in 6D in Float (inclination); one thread or two give
    /// the same bits.
    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func scoresAreThoseOfFuseThenEvaluate() throws {
        let trials = ["01_undisturbed_slow_rotation_A", "24_disturbed_tapping_A"].map {
            BroadData.folder.appendingPathComponent($0 + ".csv").path
        }
        let folder = try Folder()
        defer { folder.remove() }
        for sixD in [false, true] {
            let mode = sixD ? ["--no-magnetometer", "--precision", "float"] : []
            let arguments = trials + ["--set", "accelerometerTimeConstant=2,7", "--jobs", "1"] + mode
            let report = try TuneCommand.parse(arguments).report()
            #expect(report.candidates == 3 && report.names == trials)
            let twoThreads = try TuneCommand.parse(trials + ["--set", "accelerometerTimeConstant=2,7", "--jobs", "2"] + mode).report()
            #expect(twoThreads.scores == report.scores)
            for (c, set) in [[], ["--set", "accelerometerTimeConstant=2.0"], ["--set", "accelerometerTimeConstant=7.0"]].enumerated() {
                for (r, trial) in trials.enumerated() {
                    let out = folder["\(c)-\(r)-\(sixD).csv"]
                    try FuseCommandTests.run(["fuse", trial, "-o", out] + set + mode)
                    let (estimates, _) = try EvaluateCommand.quaternions(out, movement: false)
                    let (truth, movement) = try EvaluateCommand.quaternions(trial, movement: true)
                    let summary = OrientationErrors.summary(estimates: estimates, references: truth, scored: movement!)
                    let expected = sixD ? summary.inclination : summary.total
                    let score = report.scores[c * trials.count + r]
                    // `motion fuse` prints a Float as its shortest decimal, which read back as a Double is
                    // not the Float's value (up to half a Float ulp, 6e-8 relative, away): 1e-6° there.
                    let tolerance = sixD ? 1e-6 : 1e-9
                    #expect(abs(score - expected) < tolerance, "candidate \(c) on \(trial): \(score) against \(expected)")
                }
            }
        }
    }

    /// A raw magnetometer (300 µT of hard iron) at half the rate, with NaN and zero readings, on a
    /// turning device: the online calibration that ``TuneRecording`` runs once and replays must give
    /// each candidate `motion fuse`'s attitude. The replay's branches are all taken here (the field
    /// withheld before the first fit, then seen; a major change of calibration), and the scores
    /// agree with `motion fuse` then ``OrientationErrors`` in Double (total) and in Float (heading).
    @Test func theMagnetometerCalibrationReplayedIsFusesOwn() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("turning.csv", Self.turningRecording())
        let recording = try TuneRecording<Double>(
            input: .file(input), truth: input, units: try InputUnits.parse([]), useMagnetometer: true,
            learnsMagnetometer: true)
        #expect(recording.samples.contains { $0.calibrationChanged })
        // Withheld before the first fit (field nil although the row has a reading), seen after it.
        #expect(recording.samples.contains { $0.field == nil } && recording.samples.contains { $0.field != nil })
        for (metric, precision) in [("total", "double"), ("heading", "float")] {
            let report = try TuneCommand.parse(
                [input, "--set", "magnetometerTimeConstant=10,40", "--metric", metric, "--precision", precision, "--jobs", "1"]
            ).report()
            for (c, set) in [[], ["--set", "magnetometerTimeConstant=10.0"], ["--set", "magnetometerTimeConstant=40.0"]].enumerated() {
                let out = folder["\(c)-\(metric).csv"]
                try FuseCommandTests.run(["fuse", input, "-o", out, "--precision", precision] + set)
                let (estimates, _) = try EvaluateCommand.quaternions(out, movement: false)
                let (truth, _) = try EvaluateCommand.quaternions(input, movement: false)
                let summary = OrientationErrors.summary(
                    estimates: estimates, references: truth, scored: [Bool](repeating: true, count: truth.count))
                let expected = metric == "total" ? summary.total : summary.heading
                let tolerance = precision == "float" ? 1e-6 : 1e-9
                #expect(abs(report.scores[c] - expected) < tolerance, "\(metric) candidate \(c): \(report.scores[c]) against \(expected)")
                #expect(expected > 0.01, "\(metric) candidate \(c): \(expected)° is no test")
            }
        }
    }

    /// A raw magnetometer (300 µT of hard iron) at half the rate, with NaN and zero readings, on a
    /// device turning about all axes for 60 s at 100 Hz, with its truth: CSV text.
    static func turningRecording() -> String {
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz,qw,qx,qy,qz\n"
        var q = Quaternion<Double>.identity
        let hardIron = SIMD3<Double>(300, -120, 80)
        for k in 0..<6000 {
            let t = Double(k) * 0.01
            let w = SIMD3<Double>(0.9 * Double.sin(0.21 * t), 0.8 * Double.cos(0.13 * t), 0.6)
            if k > 0 { q = (q * Quaternion(rotationVector: w * 0.01)).normalized() }
            let a = q.inverseAct(on: SIMD3(0, 0, 9.80665))
            let m = q.inverseAct(on: SIMD3(0, 20, -45)) + hardIron
            let field: String
            if k % 2 == 1 { field = ",," }  // half the rate: held by the reader
            else if k % 250 == 0 { field = "nan,nan,nan" }
            else if k % 333 == 0 { field = "0,0,0" }
            else { field = "\(m.x),\(m.y),\(m.z)" }
            text += "\(t),\(w.x),\(w.y),\(w.z),\(a.x),\(a.y),\(a.z),\(field),\(q.w),\(q.x),\(q.y),\(q.z)\n"
        }
        return text
    }

    /// The default filter's candidates run as lanes score exactly what they score as scalar states
    /// (the scores' bits): 29 candidates, so groups of 8 Double or 16 Float lanes with the last one
    /// padded, with the magnetometer's lag estimated or not, on BROAD's trial 24 and on the turning
    /// recording whose online calibration changes (told to every lane), on two threads.
    @Test(
        .enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"),
        arguments: ["double", "float"])
    func lanesScoreExactlyAsScalarStates(precision: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let turning = try folder.write("turning.csv", Self.turningRecording())
        let trial = BroadData.folder.appendingPathComponent("24_disturbed_tapping_A.csv").path
        let command = try TuneCommand.parse([
            trial, turning, "--set", "accelerometerTimeConstant=1...8:7:log", "--set", "magnetometerTimeConstant=10,40",
            "--set", "estimatesMagnetometerLatency=true,false", "--precision", precision, "--jobs", "2",
        ])
        let recording = try TuneRecording<Double>(
            input: .file(turning), truth: turning, units: try InputUnits.parse([]), useMagnetometer: true,
            learnsMagnetometer: true)
        #expect(recording.samples.contains { $0.calibrationChanged })  // told to every lane
        let lanes = try command.report(), scalar = try command.report(lanes: false)
        #expect(lanes.candidates == 29 && lanes.scores.count == 58)
        #expect(lanes.scores.map(\.bitPattern) == scalar.scores.map(\.bitPattern))
        #expect(lanes.scores.allSatisfy { $0.isFinite && $0 > 0.01 } && Set(lanes.scores).count > 20)
    }

    @Test func recordingsTheMetricCannotScoreAreRefused() throws {
        let folder = try Folder()
        defer { folder.remove() }
        var text = "t,gx,gy,gz,ax,ay,az,qw,qx,qy,qz,movement\n"
        for k in 0..<50 { text += "\(Double(k) * 0.01),0,0,0,0,0,9.81,1,0,0,0,0\n" }
        let still = try folder.write("still.csv", text)
        do {
            _ = try TuneCommand.parse([still, "--no-magnetometer"]).report()
            Issue.record("no error")
        } catch {
            #expect("\(error)" == "\(still): no row to score (no movement = 1 row with a usable quaternion)")
        }
        let moving = try folder.write("moving.csv", text.replacingOccurrences(of: ",0\n", with: ",1\n"))
        do {
            _ = try TuneCommand.parse([moving]).report()
            Issue.record("no error")
        } catch {
            #expect("\(error)".hasPrefix("\(moving) has no magnetometer reading: its heading is not observable"))
        }
        // Without --set, the defaults alone.
        #expect(try TuneCommand.parse([moving, "--no-magnetometer"]).report().candidates == 1)
    }

    @Test func truthThatDoesNotPairWithTheSamplesIsRefused() throws {
        let folder = try Folder()
        defer { folder.remove() }
        var recording = "t,gx,gy,gz,ax,ay,az\n"
        var truth = "qw,qx,qy,qz\n"
        for k in 0..<50 {
            recording += "\(Double(k) * 0.01),0,0,0,0,0,9.81\n"
            if k < 49 { truth += "1,0,0,0\n" }
        }
        let input = try folder.write("r.csv", recording)
        let short = try folder.write("t.csv", truth)
        let long = try folder.write("t2.csv", truth + "1,0,0,0\n1,0,0,0\n")
        for (file, rows) in [(short, 49), (long, 51)] {
            do {
                _ = try TuneCommand.parse([input, "--truth", file, "--no-magnetometer"]).report()
                Issue.record("\(rows) truth rows: no error")
            } catch {
                #expect("\(error)" == "\(input) has 50 samples to fuse, \(file) has \(rows) truth rows")
            }
        }
        // Paired, a still recording against its own truth scores 0° for every candidate.
        let same = try folder.write("t3.csv", truth + "1,0,0,0\n")
        let report = try TuneCommand.parse([input, "--truth", same, "--no-magnetometer", "--set", "accelerometerTimeConstant=1,2"]).report()
        #expect(report.scores.count == 3 && report.scores.allSatisfy { $0 < 1e-6 })
    }
}
