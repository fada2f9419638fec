import ArgumentParser
import Foundation
import MotionFusion

/// `motion demo`: the project's main job on data it makes itself (and on BROAD when it is there).
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run MotionFusion's main job on synthetic data (and BROAD, if present).",
        discussion: """
            Fuses a seeded synthetic recording with every filter and scores it against its truth; \
            when the BROAD recordings are found, fuses all nine trials and scores them the way \
            BROAD does. Also checks the rotation types and LAPACK estimators. Prints accuracy and \
            speed.
            """)

    @Option(help: "Folder holding BROAD's trial CSVs.")
    var broad: String = "../shared/reference-data/broad"

    @Option(help: "Seed of the synthetic data.")
    var seed: UInt64 = 2026

    func run() throws {
        print("MotionFusion \(MotionFusionVersion.string) demo (seed \(seed))\n")
        var random = SplitMix64(seed: seed)
        rotations(&random)
        try synthetic()
        try broadTrials()
    }

    func rotations(_ random: inout SplitMix64) {
        let count = 200_000
        let quaternions = (0..<count).map { _ in random.rotation() }
        var worst = 0.0
        for q in quaternions {
            worst = max(worst, q.angle(to: RotationMatrix(q).quaternion))
            worst = max(worst, q.angle(to: q.eulerAngles(.aerospace).quaternion))
            worst = max(worst, q.angle(to: Quaternion(rotationVector: q.rotationVector)))
        }
        var wahbaError = 0.0
        for _ in 0..<500 {
            let truth = random.rotation()
            let observed = (0..<10).map { _ in random.unitVector() }
            let reference = observed.map { truth.act(on: $0) + 0.01 * random.gaussianVector() }
            let solution = try? Wahba.solve(reference: reference, observed: observed)
            wahbaError += pow(solution.map { $0.rotation.angle(to: truth) } ?? .nan, 2)
        }
        print("Rotations: \(count) random rotations through matrix, Euler ZYX and rotation vector:")
        print("  largest round-trip error \(format(worst)) rad")
        print(
            "  Wahba (LAPACK, 10 vectors, noise 0.01): RMS error "
                + "\(format((wahbaError / 500).squareRoot() * 180 / .pi, digits: 3))°\n")
    }


    func synthetic() throws {
        var settings = SyntheticMotion.Settings()
        settings.seed = seed
        let recording = try SyntheticMotion.generate(settings)
        print(
            "Synthetic recording (SyntheticMotion, seed \(seed)): \(recording.count) samples at 100 Hz,"
                + " rotation ~1.5 rad/s, linear acceleration ~0.5 m/s², gyroscope bias 1.5°/s, noise:")
        print("  filter           9D total  9D incl.  6D incl.  ns/sample (9D, Double)")
        for filter in FilterName.allCases {
            let name = filter.rawValue
            let nine = try Self.evaluate(filter, recording, nineD: true)
            let six = try Self.evaluate(filter, recording, nineD: false)
            print(
                "  \(name.padding(toLength: 15, withPad: " ", startingAt: 0))"
                    + "\(format(nine.score.total, digits: 2))°".leftPadded(9)
                    + "\(format(nine.score.inclination, digits: 2))°".leftPadded(10)
                    + "\(format(six.score.inclination, digits: 2))°".leftPadded(10)
                    + format(nine.nanoseconds, digits: 1).leftPadded(11))
        }
        print()
    }

    /// Fuses and scores a recording with a filter at its defaults; also times the fusion (ns per
    /// sample). Each case names a concrete type, so the generic fusion code is specialized (through
    /// an existential it would run unspecialized, about 100 times slower).
    static func evaluate(
        _ filter: FilterName, _ recording: IMURecording, nineD: Bool
    ) throws -> (score: OrientationErrorSummary, nanoseconds: Double) {
        try filter.build(for: DemoEvaluation(recording: recording, nineD: nineD))
    }

    func broadTrials() throws {
        let folder = URL(fileURLWithPath: broad)
        guard
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter({ $0.hasSuffix(".csv") }).sorted(), !names.isEmpty
        else {
            print("BROAD not found at \(broad): skipping the real-data section.")
            return
        }
        print("BROAD, \(names.count) trials with optical ground truth (mean of per-trial RMSE, movement phase):")
        print("  filter           9D total  9D heading  9D incl.  6D incl.  ns/sample (9D)")
        // Every trial is held at once: what is left of the memory available bounds each.
        var budget = SystemMemory.recordingSamples()
        let trials = try names.map { name throws(RecordingFileError) in
            let trial = try IMURecording.read(path: folder.appendingPathComponent(name).path, maximumSamples: max(budget, 1))
            budget -= trial.count
            return trial
        }
        for filter in FilterName.allCases {
            let name = filter.rawValue
            var sums = SIMD4<Double>.zero
            var nanoseconds = 0.0
            for trial in trials {
                let nine = try Self.evaluate(filter, trial, nineD: true)
                let six = try Self.evaluate(filter, trial, nineD: false)
                sums += SIMD4(nine.score.total, nine.score.heading, nine.score.inclination, six.score.inclination)
                nanoseconds += nine.nanoseconds / Double(trials.count)
            }
            let mean = sums / Double(trials.count)
            print(
                "  \(name.padding(toLength: 15, withPad: " ", startingAt: 0))"
                    + "\(format(mean[0], digits: 2))°".leftPadded(9)
                    + "\(format(mean[1], digits: 2))°".leftPadded(12)
                    + "\(format(mean[2], digits: 2))°".leftPadded(10)
                    + "\(format(mean[3], digits: 2))°".leftPadded(10)
                    + format(nanoseconds, digits: 1).leftPadded(11))
        }
        print("  (VQF 2.1.2 on these trials: scripts/compare_accuracy runs it side by side; the Accuracy Results article has the figures)")
    }
}

func time(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

func format(_ value: Double, digits: Int = 3) -> String {
    if value != 0 && (abs(value) < 1e-3 || abs(value) >= 1e6) {
        return String(format: "%.\(digits)e", value)
    }
    return String(format: "%.\(digits)f", value)
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// `motion demo`'s fusion and score of one filter at its defaults, timed (ns per sample).
private struct DemoEvaluation: FilterConsumer {
    typealias Scalar = Double
    let recording: IMURecording, nineD: Bool
    func consume<F: AttitudeFilter>(_ filter: F) -> (score: OrientationErrorSummary, nanoseconds: Double)
    where F.Scalar == Double {
        var outputs: [FusionOutput<Double>] = []
        let seconds = time { outputs = recording.fuse(filter, useMagnetometer: nineD) }
        let score = recording.score(outputs.map(\.quaternion))!
        return (score, seconds / Double(max(outputs.count, 1)) * 1e9)
    }
}
