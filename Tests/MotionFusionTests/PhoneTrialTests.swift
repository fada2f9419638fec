import Foundation
import Testing
import RealModule

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The smartphone trials of a second lab (../shared/reference-data/tyrex-dev: Inria's "On Attitude
/// Estimation with Smartphones", iPhone 4S, iPhone 5 and Nexus 5, Qualisys truth) and the scoring of
/// ../shared/tools/score_tyrex.py: BROAD's errors over the samples whose `score` is 1; in 9D the
/// constant heading offset (circular mean of the heading error) is removed per trial first, since
/// the optical north is not magnetic north.
enum TyrexData {
    static let folder = BroadData.folder.deletingLastPathComponent().appendingPathComponent("tyrex-dev")

    /// VQF 2.1.2's per-trial scores (Reference/tyrex_vqf.csv, made by scripts/make_tyrex_reference
    /// with the `vqf` package and score_tyrex.py's own scoring).
    static let vqfReference = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Reference/tyrex_vqf.csv")

    static var available: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.jsonl").path)
    }

    /// The data is there, or CI=true (where its absence must fail, not skip).
    static var required: Bool { available || ProcessInfo.processInfo.environment["CI"] == "true" }

    struct Reference {
        var trial: String
        var motion: String
        var total9D: Double
        var inclination6D: Double
        /// The 9D total with the constant heading offset kept (start and convergence count).
        var total9DHeadingKept: Double
        /// The 9D total and 6D inclination on the uncalibrated gyroscope (score_tyrex.py --raw-gyro).
        var total9DRawGyroscope: Double
        var inclination6DRawGyroscope: Double
    }

    static func references() throws -> [Reference] {
        let text = try String(contentsOf: vqfReference, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: ",").map(String.init)
            return Reference(
                trial: f[0], motion: f[1], total9D: Double(f[3])!, inclination6D: Double(f[4])!,
                total9DHeadingKept: Double(f[5])!, total9DRawGyroscope: Double(f[6])!,
                inclination6DRawGyroscope: Double(f[7])!)
        }
    }

    /// The rows of a gzipped CSV with a header line, as numbers (`nan` and empty fields read as NaN),
    /// read by ``CSVReader`` (which decompresses it; its numbers are checked against `strtod` in
    /// CSVReaderNumberTests).
    static func rows(_ name: String) throws -> [[Double]] {
        let reader = try CSVReader(path: folder.appendingPathComponent(name).path)
        let columns = Array(reader.header.indices)
        var rows: [[Double]] = []
        var values: [Double] = []
        while try reader.nextRow(columns: columns, into: &values, optional: Set(columns)) { rows.append(values) }
        return rows
    }

    /// A trial: `t,gx,gy,gz,ax,ay,az,mx,my,mz` and its truth `t,qw,qx,qy,qz,valid,score`, read
    /// once per test process (``RecordingCache``).
    static func recording(_ trial: String) throws -> IMURecording {
        try RecordingCache.recording("tyrex/" + trial) { try read(trial) }
    }

    /// A trial, read from its files now.
    static func read(_ trial: String) throws -> IMURecording {
        let imu = try rows(trial + ".imu.csv.gz")
        let truth = try rows(trial + ".truth.csv.gz")
        #expect(imu.count == truth.count && imu.count > 5000, "\(trial): \(imu.count) / \(truth.count) rows")
        var r = IMURecording()
        r.timestamps = imu.map { $0[0] }
        r.gyroscope = imu.map { SIMD3($0[1], $0[2], $0[3]) }
        r.accelerometer = imu.map { SIMD3($0[4], $0[5], $0[6]) }
        r.magnetometer = imu.map { SIMD3($0[7], $0[8], $0[9]) }
        r.truth = truth.map { Quaternion(w: $0[1], x: $0[2], y: $0[3], z: $0[4]) }
        r.scored = truth.map { $0[6] > 0.5 }
        return r
    }

    /// The constant gyroscope bias the dataset's converter removed from each trial (manifest.jsonl's
    /// `gyro_bias_removed_rad_s`), rad/s, by trial name; score_tyrex.py --raw-gyro adds it back.
    static func removedGyroscopeBiases() throws -> [String: SIMD3<Double>] {
        let text = try String(
            contentsOf: folder.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
        var biases: [String: SIMD3<Double>] = [:]
        for line in text.split(separator: "\n") {
            let entry = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "manifest line \(line)")
            let trial = try #require(entry["trial"] as? String, "manifest line \(line)")
            let b = try #require(entry["gyro_bias_removed_rad_s"] as? [Double], "\(trial): no removed bias")
            biases[trial] = SIMD3(b[0], b[1], b[2])
        }
        return biases
    }

    /// score_tyrex.py's RMSE in degrees: BROAD's errors (``OrientationErrors``, through
    /// ``IMURecording/score(_:)``), in 9D the total error after turning the estimates by the constant
    /// heading offset (the circular mean of the signed heading error over the scored samples; with
    /// `keepHeading`, without that turn: score_tyrex.py's `total_no_heading_removal`), in 6D the
    /// inclination error.
    static func score(
        _ estimates: [Quaternion<Double>], _ r: IMURecording, nineD: Bool, keepHeading: Bool = false
    ) -> Double {
        guard nineD else { return r.score(estimates)!.inclination }
        guard !keepHeading else { return r.score(estimates)!.total }
        var sum = SIMD2<Double>.zero  // (Σ sin h, Σ cos h)
        for i in 0..<r.count where r.scored![i] {
            let (q, t) = (estimates[i], r.truth![i])
            guard OrientationErrors.isUsable(q), OrientationErrors.isUsable(t) else { continue }
            var e = q.normalized() * t.normalized().conjugate
            if e.w < 0 { e = Quaternion(w: -e.w, x: -e.x, y: -e.y, z: -e.z) }
            let h = 2 * Double.atan2(y: e.z, x: e.w)
            sum += SIMD2(.sin(h), .cos(h))
        }
        let delta = Double.atan2(y: sum.x, x: sum.y)
        let turn = Quaternion<Double>(w: .cos(-delta / 2), x: 0, y: 0, z: .sin(-delta / 2))
        return r.score(estimates.map { turn * $0 })!.total
    }
}

@Suite(
    "Accuracy on the smartphone trials",
    .enabled(if: TyrexData.required, "tyrex-dev data not found at ../shared/reference-data/tyrex-dev"))
struct PhoneTrialTests {
    /// The default filter against VQF 2.1.2's defaults on all 36 development trials: ahead in the
    /// mean of both 9D total and 6D inclination, and no motion class (three phones, with and without
    /// disturbance) worse than 1.1 times VQF. Also ahead with the constant heading offset kept,
    /// where the start counts: the users are already moving when the recordings begin.
    @Test func inertialFrameFilterBeatsVQFOnThePhones() throws {
        let references = try TyrexData.references()
        #expect(references.count == 36)
        let scores = try concurrentMap(references.count) { i in
            let r = try TyrexData.recording(references[i].trial)
            let estimates = r.fuse(InertialFrameFilter<Double>()).map(\.quaternion)
            let nine = TyrexData.score(estimates, r, nineD: true)
            let kept = TyrexData.score(estimates, r, nineD: true, keepHeading: true)
            let six = TyrexData.score(
                r.fuse(InertialFrameFilter<Double>(), useMagnetometer: false).map(\.quaternion), r, nineD: false)
            return (nine: nine, six: six, kept: kept)
        }
        let n = Double(scores.count)
        let ours9 = scores.map(\.nine).reduce(0, +) / n
        let ours6 = scores.map(\.six).reduce(0, +) / n
        let vqf9 = references.map(\.total9D).reduce(0, +) / n
        let vqf6 = references.map(\.inclination6D).reduce(0, +) / n
        #expect(ours9 < vqf9, "9D total: ours \(ours9)°, VQF \(vqf9)°")
        #expect(ours6 < vqf6, "6D inclination: ours \(ours6)°, VQF \(vqf6)°")
        let oursKept = scores.map(\.kept).reduce(0, +) / n
        let vqfKept = references.map(\.total9DHeadingKept).reduce(0, +) / n
        #expect(
            oursKept < vqfKept, "9D total, heading offset kept: ours \(oursKept)°, VQF \(vqfKept)°")
        for motion in Set(references.map(\.motion)) {
            let members = references.indices.filter { references[$0].motion == motion }
            let ratio9 = members.map { scores[$0].nine }.reduce(0, +) / members.map { references[$0].total9D }.reduce(0, +)
            let ratio6 = members.map { scores[$0].six }.reduce(0, +) / members.map { references[$0].inclination6D }.reduce(0, +)
            #expect(ratio9 <= 1.1 && ratio6 <= 1.1, "\(motion): ours / VQF = \(ratio9) (9D), \(ratio6) (6D)")
        }
        // The trial on which the in-motion bias estimate used to run away (42° then; VQF 6.6°).
        let worst = references.firstIndex { $0.trial == "Thibaud_Nexus5_NoDist_RunningPocket" }!
        #expect(scores[worst].nine < references[worst].total9D, "\(references[worst].trial): \(scores[worst])")
    }

    /// A gyroscope that is not calibrated needs a prior that says so. With the bias the dataset's
    /// converter removed added back (score_tyrex.py --raw-gyro: up to 5.9°/s on the iPhone 5, 4.1°/s
    /// on a Nexus 5) and `biasInitialSigma` at 2°/s (in the range of consumer MEMS offset
    /// tolerances; chosen among 0.75–5°/s on these trials, where 5°/s is ahead too), the filter is
    /// ahead of VQF 2.1.2's defaults in the mean 9D total and 6D inclination. (The
    /// default 0.5°/s describes a calibrated gyroscope; with it these trials score 17.27° in 9D,
    /// behind VQF's 13.88°: AccuracyResults.)
    @Test func anUncalibratedGyroscopeWithAWideBiasPriorBeatsVQF() throws {
        let references = try TyrexData.references()
        #expect(references.count == 36)
        let settings = InertialFrameFilter<Double>.Settings(biasInitialSigma: 2 * .pi / 180)
        let removed = try TyrexData.removedGyroscopeBiases()
        let scores = try concurrentMap(references.count) { i in
            let trial = references[i].trial
            var r = try TyrexData.recording(trial)
            let bias = try #require(removed[trial], "\(trial): no removed bias in the manifest")
            r.gyroscope = r.gyroscope.map { $0 + bias }
            let nine = TyrexData.score(
                r.fuse(InertialFrameFilter<Double>(settings: settings)).map(\.quaternion), r, nineD: true)
            let six = TyrexData.score(
                r.fuse(InertialFrameFilter<Double>(settings: settings), useMagnetometer: false).map(\.quaternion),
                r, nineD: false)
            return (nine: nine, six: six)
        }
        let n = Double(scores.count)
        let ours9 = scores.map(\.nine).reduce(0, +) / n
        let ours6 = scores.map(\.six).reduce(0, +) / n
        let vqf9 = references.map(\.total9DRawGyroscope).reduce(0, +) / n
        let vqf6 = references.map(\.inclination6DRawGyroscope).reduce(0, +) / n
        // Measured: 12.88° against 13.88°, 2.61° against 4.00° (score_tyrex.py).
        #expect(ours9 < vqf9, "uncalibrated, 9D total: ours \(ours9)°, VQF \(vqf9)°")
        #expect(ours6 < vqf6, "uncalibrated, 6D inclination: ours \(ours6)°, VQF \(vqf6)°")
    }

    /// On that trial the bias estimate stays near the bias the truth implies: the gyroscope minus the
    /// truth's angular rate in the sensor frame, median over the scored samples of each 10 s window.
    @Test func biasDoesNotRunAwayWhileRunning() throws {
        let r = try TyrexData.recording("Thibaud_Nexus5_NoDist_RunningPocket")
        let outputs = r.fuse(InertialFrameFilter<Double>())
        let rate = 1 / (r.timestamps[1] - r.timestamps[0])
        let window = Int(10 * rate)
        var worst = 0.0
        var windows = 0
        for start in stride(from: Int(20 * rate), to: r.count - window, by: window) {
            var residuals: [SIMD3<Double>] = []
            for i in start..<(start + window) where r.scored![i] && r.scored![i + 1] {
                var d = r.truth![i].conjugate * r.truth![i + 1]
                if d.w < 0 { d = Quaternion(w: -d.w, x: -d.x, y: -d.y, z: -d.z) }
                let truthRate = SIMD3(d.x, d.y, d.z) * (2 * rate)
                residuals.append((r.gyroscope[i] + r.gyroscope[i + 1]) / 2 - truthRate)
            }
            guard residuals.count > window / 2 else { continue }
            func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
            let truthBias = SIMD3(
                median(residuals.map(\.x)), median(residuals.map(\.y)), median(residuals.map(\.z)))
            windows += 1
            let estimate = outputs[start + window / 2].gyroscopeBias
            let error = (estimate - truthBias) * (180 / .pi)
            worst = max(worst, abs(error.x), abs(error.y), abs(error.z))
        }
        // Measured 0.79°/s. The earlier version was 4°/s off here (−5°/s on x against about
        // −0.8°/s); VQF 2.1.2 ends about 2.5°/s off (z: +1.9 against −0.6).
        #expect(windows >= 8, "\(windows) windows with truth")
        #expect(worst < 1, "largest bias error \(worst)°/s")
    }
}
