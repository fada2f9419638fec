import ArgumentParser
import Foundation
import MotionFusion

/// `motion demo`: the project's main job on data it makes itself (and on BROAD when it is there).
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run MotionFusion's main job on synthetic data (and BROAD, if present).",
        discussion: """
            Checks the rotation types on a million random rotations, solves Wahba's problem and
            averages noisy rotations on seeded synthetic data, and — when the BROAD recordings are
            found — integrates each trial's gyroscope from the true start attitude and scores the drift
            the way BROAD does. Prints accuracy and speed.
            """)

    @Option(help: "Folder holding BROAD's trial CSVs (default: ../shared/reference-data/broad).")
    var broad: String = "../shared/reference-data/broad"

    @Option(help: "Seed of the synthetic data.")
    var seed: UInt64 = 2026

    @Option(help: "Number of random rotations for the round-trip and speed check.")
    var count: Int = 1_000_000

    func run() throws {
        var random = SplitMix64(seed: seed)
        print("MotionFusion \(MotionFusionVersion.string) demo (seed \(seed))\n")
        roundTrips(&random)
        wahba(&random)
        averaging(&random)
        try broadIntegration()
    }

    func roundTrips(_ random: inout SplitMix64) {
        let quaternions = (0..<count).map { _ in random.rotation() }
        var matrixError = 0.0
        var eulerError = 0.0
        var vectorError = 0.0
        for q in quaternions {
            matrixError = max(matrixError, q.angle(to: RotationMatrix(q).quaternion))
            eulerError = max(eulerError, q.angle(to: q.eulerAngles(.aerospace).quaternion))
            vectorError = max(vectorError, q.angle(to: Quaternion(rotationVector: q.rotationVector)))
        }
        print("Rotation round trips on \(count) random rotations (largest angle error, rad):")
        print("  quaternion → matrix → quaternion   \(format(matrixError))")
        print("  quaternion → Euler ZYX → quaternion \(format(eulerError))")
        print("  quaternion → rotation vector → back \(format(vectorError))")

        let v = SIMD3<Double>(0.3, -0.2, 0.9)
        var accumulator = Quaternion<Double>.identity
        var vectorSum = SIMD3<Double>.zero
        let productTime = time {
            for q in quaternions { accumulator = (accumulator * q).normalized() }
        }
        let actTime = time {
            for q in quaternions { vectorSum += q.act(on: v) }
        }
        print(
            "  speed: product + normalize \(format(productTime / Double(count) * 1e9, digits: 1)) ns,"
                + " act(on:) \(format(actTime / Double(count) * 1e9, digits: 1)) ns"
                + "  (checksum \(format(accumulator.w + vectorSum.x)))\n")
    }

    func wahba(_ random: inout SplitMix64) {
        let problems = 2000
        var errors: [WahbaMethod: Double] = [:]
        var disagreement = 0.0
        var seconds: [WahbaMethod: Double] = [:]
        for _ in 0..<problems {
            let truth = random.rotation()
            let observed = (0..<10).map { _ in random.unitVector() }
            let reference = observed.map { truth.act(on: $0) + 0.01 * random.gaussianVector() }
            var solutions: [WahbaMethod: Quaternion<Double>] = [:]
            for method in WahbaMethod.allCases {
                seconds[method, default: 0] += time {
                    solutions[method] =
                        try? Wahba.solve(reference: reference, observed: observed, method: method)
                        .rotation
                }
                errors[method, default: 0] += pow(solutions[method]!.angle(to: truth), 2)
            }
            disagreement = max(
                disagreement, solutions[.davenport]!.angle(to: solutions[.svd]!))
        }
        print("Wahba's problem, \(problems) problems of 10 vectors with noise σ = 0.01 (LAPACK):")
        for method in WahbaMethod.allCases {
            let rms = (errors[method]! / Double(problems)).squareRoot() * 180 / .pi
            let micro = seconds[method]! / Double(problems) * 1e6
            print(
                "  \(method.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) RMS error"
                    + " \(format(rms, digits: 4))°, \(format(micro, digits: 1)) µs per solve")
        }
        print("  largest Davenport–SVD disagreement \(format(disagreement)) rad\n")
    }

    func averaging(_ random: inout SplitMix64) {
        let trials = 500
        var errorSum = 0.0
        var worstSingle = 0.0
        for _ in 0..<trials {
            let truth = random.rotation()
            let samples = (0..<100).map { _ -> Quaternion<Double> in
                let noise = Quaternion(rotationVector: random.gaussianVector() * (10 * .pi / 180))
                let q = truth * noise
                return random.next() % 2 == 0 ? q : -q
            }
            let mean = try! Quaternion.average(samples)
            errorSum += pow(mean.angle(to: truth), 2)
            worstSingle = max(worstSingle, samples[0].angle(to: truth))
        }
        let rms = (errorSum / Double(trials)).squareRoot() * 180 / .pi
        print("Quaternion mean (Markley) of 100 rotations with 10° noise per axis, random signs:")
        print(
            "  RMS error of the mean \(format(rms, digits: 3))° over \(trials) trials"
                + " (one sample alone: up to \(format(worstSingle * 180 / .pi, digits: 1))°)\n")
    }

    func broadIntegration() throws {
        let folder = URL(fileURLWithPath: broad)
        guard
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter({ $0.hasSuffix(".csv") }).sorted(), !names.isEmpty
        else {
            print("BROAD not found at \(broad): skipping the real-data section.")
            return
        }
        print("BROAD, gyroscope strapdown integration from the true start attitude (no correction):")
        print("  trial                                   incl. RMSE  heading RMSE  ns/sample")
        for name in names {
            let trial = try BroadTrial(path: folder.appendingPathComponent(name).path)
            var q = trial.firstTruth
            var estimates = [Quaternion<Double>]()
            estimates.reserveCapacity(trial.count)
            let dt = trial.samplePeriod
            let seconds = time {
                for gyro in trial.gyroscope {
                    estimates.append(q)
                    q = (q * Quaternion(rotationVector: gyro * dt)).normalized()
                }
            }
            let score = trial.score(estimates)
            print(
                "  \(name.padding(toLength: 40, withPad: " ", startingAt: 0))"
                    + "\(format(score.inclination, digits: 2))°".leftPadded(10)
                    + "\(format(score.heading, digits: 2))°".leftPadded(14)
                    + format(seconds / Double(trial.count) * 1e9, digits: 1).leftPadded(11))
        }
        print("  (a fusion filter corrects this drift with the accelerometer and magnetometer)")
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
