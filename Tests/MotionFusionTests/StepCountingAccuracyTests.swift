import Foundation
import Testing

@testable import MotionFusionCore
@testable import MotionFusionIO

/// The step datasets in ../shared/reference-data (Oxford step counter, WeAllWalk), their truth, and
/// a scorer written here from the scorers' documented rules (`score_steps.py`,
/// `score_steps_weallwalk.py`): detections matched one to one to true steps within ± a tolerance,
/// greedily in time order.
enum StepData {
    static let folder = BroadData.folder.deletingLastPathComponent()
    static let oxford = folder.appendingPathComponent("oxford-steps-dev")
    static let weAllWalk = folder.appendingPathComponent("weallwalk-dev")

    static var available: Bool {
        FileManager.default.fileExists(atPath: oxford.appendingPathComponent("README.md").path)
            && FileManager.default.fileExists(atPath: weAllWalk.appendingPathComponent("README.md").path)
    }
    /// The data is there, or CI=true (where its absence must fail, not skip).
    static var required: Bool { available || ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The files in `folder` ending in `suffix`, without it, sorted.
    static func names(in folder: URL, ending suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(suffix) }
            .map { String($0.dropLast(suffix.count)) }.sorted()
    }

    /// The steps the default detector finds in a recording's accelerometer (any file
    /// `SensorCSVReader` reads as an accelerometer: `t,ax,ay,az` columns, others ignored).
    static func detect<S: FusionScalar>(_ path: String, as: S.Type = Double.self) throws -> [Double] {
        let reader = try SensorCSVReader(path: path, sensor: .accelerometer)
        var detector = StepDetector<S>()
        var found: [Double] = []
        while let r = try reader.next() {
            if detector.update(timestamp: r.timestamp, acceleration: SIMD3<S>(r.value)) > 0 {
                found += detector.newStepTimes
            }
        }
        if detector.finish() > 0 { found += detector.newStepTimes }
        return found
    }

    /// The first column of a CSV after its header, as numbers (rows whose first field is `kind`
    /// when `kind` is given, taking the second column then).
    static func column(_ path: URL, kind: String? = nil) throws -> [Double] {
        try String(contentsOf: path, encoding: .utf8).split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if let kind { return fields[0] == kind ? Double(fields[1]) : nil }
            return Double(fields[0])
        }
    }

    /// An Oxford truth file's rows: time and foot.
    static func rows(_ path: URL) throws -> [(time: Double, foot: Substring)] {
        try String(contentsOf: path, encoding: .utf8).split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: ",")
            return (Double(f[0])!, f[1])
        }
    }

    /// The number of steps once a step of the foot that stepped last, within 0.75 of the median
    /// interval, is taken as that foot's pad firing again.
    static func alternating(_ rows: [(time: Double, foot: Substring)]) -> Int {
        let intervals = zip(rows.dropFirst(), rows).map { $0.time - $1.time }.sorted()
        let median = intervals[intervals.count / 2]
        var kept = [rows[0]]
        for row in rows.dropFirst() where !(row.foot == kept.last!.foot && row.time - kept.last!.time < 0.75 * median) {
            kept.append(row)
        }
        return kept.count
    }

    struct Score {
        var truth: Int
        var detected: Int
        var matched: Int
        var countError: Double { 100 * Double(detected - truth) / Double(truth) }
        var f1: Double { detected + truth == 0 ? 1 : 2 * Double(matched) / Double(detected + truth) }
    }

    /// One-to-one matching within ± `tolerance` s, greedy in time order (maximal for equal windows).
    static func score(_ detected: [Double], _ truth: [Double], tolerance: Double) -> Score {
        var i = 0
        var j = 0
        var matched = 0
        while i < detected.count && j < truth.count {
            if truth[j] < detected[i] - tolerance {
                j += 1
            } else if truth[j] > detected[i] + tolerance {
                i += 1
            } else {
                matched += 1
                i += 1
                j += 1
            }
        }
        return Score(truth: truth.count, detected: detected.count, matched: matched)
    }

    /// A WeAllWalk trace: its heel strikes and its detections inside the scored window (the first
    /// annotated segment's start to the last one's end, widened by the tolerance).
    static func weAllWalkTrace(_ name: String, tolerance: Double, detected: [Double]) throws -> ([Double], [Double]) {
        let events = try String(contentsOf: weAllWalk.appendingPathComponent(name + ".events.csv"), encoding: .utf8)
        var truth: [Double] = []
        var from = Double.infinity
        var to = -Double.infinity
        for line in events.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count >= 3, let start = Double(f[1]), let end = Double(f[2]) else { continue }
            if f[0] == "step" { truth.append(start) }
            if f[0] == "segment" || f[0] == "turn" {
                from = min(from, start)
                to = max(to, end)
            }
        }
        return (detected.filter { $0 >= from - tolerance && $0 <= to + tolerance }, truth.sorted())
    }
}

@Suite(
    "Step counting on real recordings",
    .enabled(if: StepData.required, "step data not found at ../shared/reference-data/{oxford-steps-dev,weallwalk-dev}"))
struct StepCountingAccuracyTests {
    /// Oxford's 16 development tracks (foot-switch truth, 100–406 Hz, irregular, seven carrying
    /// positions): mean absolute count error under 2 % and mean F1 (± 0.25 s) at least 0.97 (the
    /// issue's bar; the windowed peak detector of the dataset's authors scores 7.50 % / 0.925).
    /// Every track within 4 % of its truth once the truth's same-foot re-triggers are taken out (a
    /// step of the foot that stepped last, within 0.75 of the track's median interval: one pad
    /// firing twice; 19 on the swinging-arm track, 12 on the Pixel armband, 0–4 elsewhere).
    /// Measured: 1.98 % / 0.978; against the raw truth the swinging arm is −9.9 %, the Pixel armband
    /// −4.6 %.
    @Test func oxfordDevelopmentTracks() throws {
        let tracks = try StepData.names(in: StepData.oxford, ending: ".accel.csv.gz")
        #expect(tracks.count == 16)
        let scores = try concurrentMap(tracks.count) { k in
            let track = tracks[k]
            let found = try StepData.detect(StepData.oxford.appendingPathComponent(track + ".accel.csv.gz").path)
            let rows = try StepData.rows(StepData.oxford.appendingPathComponent(track + ".steps.csv"))
            let truth = rows.map(\.time)
            return (StepData.score(found, truth, tolerance: 0.25), found.count, StepData.alternating(rows))
        }
        let error = scores.map { abs($0.0.countError) }.reduce(0, +) / Double(scores.count)
        let f1 = scores.map(\.0.f1).reduce(0, +) / Double(scores.count)
        #expect(error < 2, "mean absolute count error \(error) %")
        #expect(f1 >= 0.97, "mean F1 \(f1)")
        for (track, score) in zip(tracks, scores) {
            let error = 100 * Double(score.1 - score.2) / Double(score.2)
            #expect(abs(error) <= 4, "\(track): \(error) % of \(score.2) alternating steps")
        }
    }

    /// WeAllWalk's 72 development traces (iPhone 6s in a trouser pocket, 25 Hz; sighted walkers and
    /// blind walkers with a cane or a guide dog; annotated heel strikes): the bars this detector
    /// holds today (measured 2.19 % / 0.972 / 0.841; the plain peak detector 2.49 % / 0.968 / 0.674,
    /// the goal < 1.5 % / ≥ 0.98 / ≥ 0.85).
    @Test func weAllWalkDevelopmentTraces() throws {
        let traces = try StepData.names(in: StepData.weAllWalk, ending: ".imu.csv.gz")
        #expect(traces.count == 72)
        let scores = try concurrentMap(traces.count) { k in
            let trace = traces[k]
            let found = try StepData.detect(StepData.weAllWalk.appendingPathComponent(trace + ".imu.csv.gz").path)
            let (wide, truth) = try StepData.weAllWalkTrace(trace, tolerance: 0.25, detected: found)
            let (narrow, _) = try StepData.weAllWalkTrace(trace, tolerance: 0.1, detected: found)
            return (StepData.score(wide, truth, tolerance: 0.25), StepData.score(narrow, truth, tolerance: 0.1))
        }
        let n = Double(scores.count)
        let error = scores.map { abs($0.0.countError) }.reduce(0, +) / n
        let f1 = scores.map(\.0.f1).reduce(0, +) / n
        let f1Narrow = scores.map(\.1.f1).reduce(0, +) / n
        #expect(error < 2.4, "mean absolute count error \(error) %")
        #expect(f1 >= 0.97, "mean F1 \(f1)")
        #expect(f1Narrow >= 0.83, "mean F1 at ±0.1 s \(f1Narrow)")
    }

    /// Float finds the same steps as Double on a real track (within 1 ms, at most one step more or
    /// less).
    @Test func floatOnARealTrack() throws {
        let path = StepData.oxford.appendingPathComponent("Samsung_Carmelo_Hard_Purse_1.accel.csv.gz").path
        let d = try StepData.detect(path, as: Double.self)
        let f = try StepData.detect(path, as: Float.self)
        #expect(abs(d.count - f.count) <= 1)
        #expect(StepData.score(f, d, tolerance: 0.001).matched >= d.count - 1)
    }
}

/// Handling is not walking: on BROAD (a sensor turned, moved, tapped and shaken in the hand of an
/// experimenter who does not walk) every step counted is false.
@Suite("False steps while handling", .enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
struct StepFalseCountTests {
    /// None on the rotations, the tapping of trial 24 stays under 4 a minute, and all nine trials
    /// together under 20 a minute. Measured: 0 on 01, 06, 26; 10 on 24; 24 on 32; 78, 121 and 161
    /// on the translations and the combined motion, 174 on 29 (rhythmic movements at 1.5–2 Hz that
    /// move the sensor up and down: to `|a|` they are a walk); 19.9 a minute in all.
    @Test func broadTrials() throws {
        var total = 0
        var minutes = 0.0
        for trial in BroadData.trials {
            let path = BroadData.folder.appendingPathComponent(trial + ".csv").path
            let found = try StepData.detect(path)
            let recording = try BroadData.recording(trial)
            let duration = recording.timestamps.last! - recording.timestamps.first!
            total += found.count
            minutes += duration / 60
            if trial.hasPrefix("01") || trial.hasPrefix("06") || trial.hasPrefix("26") {
                #expect(found.isEmpty, "\(trial): \(found.count) steps")
            }
            if trial.hasPrefix("24") { #expect(Double(found.count) / (duration / 60) < 4, "\(trial): \(found.count)") }
        }
        #expect(Double(total) / minutes < 20, "\(total) false steps in \(minutes) min")
    }
}

/// Running, where one step of each stride is weaker: the phone dataset's six undisturbed running
/// trials (in a hand, in a pocket; no step truth). The cadence counted must be the running
/// cadence: the dominant frequency of `|a|` between 0.8 and 4 Hz, found here by a windowed DFT
/// scan, within 10 %. (Without the stride halving, in the Python prototype, two of them counted
/// half, 1.28 and 1.37 steps/s against 2.83 and 2.70 Hz, and a third 0.77 of it. Measured:
/// 0.93–0.99 of the dominant frequency.)
@Suite("Step cadence while running", .enabled(if: TyrexData.required, "tyrex-dev data not found at ../shared/reference-data/tyrex-dev"))
struct RunningCadenceTests {
    /// The frequency (Hz) of the largest DFT magnitude of `values` (sampled every `dt` s, Hann
    /// window) between `low` and `high`, scanned every 0.005 Hz.
    static func dominantFrequency(_ values: [Double], dt: Double, low: Double, high: Double) -> Double {
        let n = values.count
        let mean = values.reduce(0, +) / Double(n)
        let windowed = values.enumerated().map { k, v in
            (v - mean) * 0.5 * (1 - Foundation.cos(2 * Double.pi * Double(k) / Double(n - 1)))
        }
        var best = (power: -1.0, frequency: low)
        var f = low
        while f <= high {
            var re = 0.0
            var im = 0.0
            let w = 2 * Double.pi * f * dt
            for (k, v) in windowed.enumerated() {
                re += v * Foundation.cos(w * Double(k))
                im -= v * Foundation.sin(w * Double(k))
            }
            if re * re + im * im > best.power { best = (re * re + im * im, f) }
            f += 0.005
        }
        return best.frequency
    }

    @Test func countsAtTheRunningCadence() throws {
        let trials = try StepData.names(in: TyrexData.folder, ending: ".imu.csv.gz").filter {
            $0.contains("NoDist_Running")
        }
        #expect(trials.count == 6)
        let ratios = try concurrentMap(trials.count) { k in
            let path = TyrexData.folder.appendingPathComponent(trials[k] + ".imu.csv.gz").path
            let found = try StepData.detect(path)
            let reader = try SensorCSVReader(path: path, sensor: .accelerometer)
            var times: [Double] = []
            var magnitudes: [Double] = []
            while let r = try reader.next() {
                times.append(r.timestamp)
                magnitudes.append((r.value * r.value).sum().squareRoot())
            }
            // |a| at 100 Hz by linear interpolation.
            var resampled: [Double] = []
            var j = 0
            var t = times[0]
            while t <= times[times.count - 1] {
                while times[j + 1] < t { j += 1 }
                let u = (t - times[j]) / (times[j + 1] - times[j])
                resampled.append(magnitudes[j] + u * (magnitudes[j + 1] - magnitudes[j]))
                t += 0.01
            }
            let dominant = Self.dominantFrequency(resampled, dt: 0.01, low: 0.8, high: 4)
            let cadence = Double(found.count - 1) / (found.last! - found.first!)
            return cadence / dominant
        }
        for (trial, ratio) in zip(trials, ratios) {
            #expect(abs(ratio - 1) < 0.1, "\(trial): counted cadence / dominant frequency of |a| = \(ratio)")
        }
    }
}
