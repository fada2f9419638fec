// Long runs (scripts/long-run): 10⁹ updates of every filter on endless synthetic motion, and a
// fast-forward day of 100 Hz samples through the motion manager. Not a unit test: it takes minutes.
import ArgumentParser
import Dispatch
import Foundation
import MotionFusion

@main
struct LongRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Long runs of the filters and the motion manager on endless synthetic motion.",
        subcommands: [Filters.self, Manager.self])
}

extension LongRun {
    struct Filters: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Runs every Double filter, and the default filter in Float, for --updates updates (100 Hz synthetic motion, with magnetometer) and fails unless |‖q‖ − 1| < 1e-12 (Float: 1e-6) throughout, no attitude is ever non-finite, and the bias estimates stay bounded.")

        @Option(help: "Updates per filter.") var updates: Int = 1_000_000_000
        @Option(help: "Samples per block (the filters run on a block in parallel while the next is made).")
        var block: Int = 100_000
        @Option(help: "Largest allowed bias estimate norm, rad/s (the true bias has norm 0.027).")
        var biasBound: Double = 0.1

        func run() throws {
            let motion = EndlessMotion()
            let dt = motion.dt
            let trueBias = motion.settings.gyroscopeBias
            // Scored from the second motion phase on: the first one is for convergence.
            let warmUp = motion.settings.rest + motion.settings.motion + motion.settings.rest
            let soaks = Soaks(
                inertial: FilterSoak(name: "InertialFrameFilter", filter: InertialFrameFilter<Double>(), usesMagnetometer: true, warmUp: warmUp),
                madgwick: FilterSoak(name: "MadgwickFilter (zeta 0.01)", filter: MadgwickFilter<Double>(settings: .init(zeta: 0.01)), usesMagnetometer: true, warmUp: warmUp),
                mahony: FilterSoak(name: "MahonyFilter", filter: MahonyFilter<Double>(), usesMagnetometer: true, warmUp: warmUp),
                complementary: FilterSoak(name: "ComplementaryFilter", filter: ComplementaryFilter<Double>(), usesMagnetometer: true, warmUp: warmUp),
                inertialFloat: FilterSoak(name: "InertialFrameFilter (Float)", filter: InertialFrameFilter<Float>(), usesMagnetometer: true, warmUp: warmUp),
                motion: motion)
            soaks.run(job: Soaks.jobs - 1, on: EndlessMotion.Block(), dt: dt, nextCount: min(block, updates))
            var current = soaks.takeBlock()
            let start = ContinuousClock.now
            var lastReport = start
            var done = 0
            while done < updates {
                // The soaks on this block and the next block's synthesis, over the cores.
                let nextCount = min(block, updates - done - current.count)
                let thisBlock = current
                DispatchQueue.concurrentPerform(iterations: Soaks.jobs) { job in
                    soaks.run(job: job, on: thisBlock, dt: dt, nextCount: nextCount)
                }
                done += current.count
                current = soaks.takeBlock()
                if ContinuousClock.now - lastReport > .seconds(30) || done >= updates {
                    lastReport = .now
                    let elapsed = (ContinuousClock.now - start).inSeconds
                    print(String(format: "%.3g updates per filter (%.1f days at 100 Hz) in %.0f s", Double(done),
                                 Double(done) * dt / 86_400, elapsed))
                    fflush(nil)
                }
            }
            let elapsed = (ContinuousClock.now - start).inSeconds
            var failures: [String] = []
            print("")
            print("| filter | updates | max abs(‖q‖−1) | non-finite | max ‖bias‖ (rad/s) | final bias error (rad/s) | RMS total / heading / inclination, last block (°) | max total error while moving (°) |")
            print("|---|---:|---:|---:|---:|---:|---|---:|")
            for row in soaks.rows(trueBias: trueBias) {
                print(String(format: "| %@ | %d | %.2e | %d | %.4f | %.4f | %.2f / %.2f / %.2f | %.1f |",
                             row.name, row.updates, row.normError, row.nonFinite, row.largestBias, row.biasError,
                             row.rms.x, row.rms.y, row.rms.z, row.largestError))
                if row.updates != updates { failures.append("\(row.name): \(row.updates) updates, not \(updates)") }
                if !(row.normError < row.normBound) { failures.append("\(row.name): |‖q‖ − 1| reached \(row.normError)") }
                if row.nonFinite > 0 { failures.append("\(row.name): \(row.nonFinite) non-finite attitudes") }
                if !(row.largestBias <= biasBound) { failures.append("\(row.name): bias estimate reached \(row.largestBias) rad/s") }
            }
            print("")
            print(String(format: "%d updates of each of %d filter runs in %.0f s (wall, both cores)", updates, Soaks.jobs - 1, elapsed))
            if !failures.isEmpty {
                for failure in failures { print("FAIL: \(failure)") }
                throw ExitCode.failure
            }
            print("long run: pass")
        }
    }

    struct Manager: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replays --hours of 100 Hz synthetic samples through MotionManager as fast as it takes them, and fails unless every service and the recorder got every sample, in order, once.")

        @Option(help: "Hours of samples.") var hours: Double = 24
        @Option(help: "Sample rate, Hz.") var rate: Double = 100
        @Option(help: "Where the recorder writes (deleted afterwards).")
        var recording: String = FileManager.default.temporaryDirectory.appendingPathComponent("motionfusion-long-run.csv").path
        @Flag(help: "Do not record.") var noRecording = false

        func run() async throws {
            var settings = EndlessMotion.Settings()
            settings.sampleRate = rate
            let count = Int((hours * 3600 * rate).rounded())
            let soak = ManagerSoak(settings: settings, count: count, recordingPath: noRecording ? nil : recording)
            let result = try await soak.run()
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            print(String(format: "%d samples (%.1f h at %.0f Hz) through MotionManager in %.1f s (%.0f samples/s), peak RSS %.0f MB",
                         result.produced, Double(result.produced) / rate / 3600, rate, result.seconds,
                         Double(result.produced) / result.seconds, Double(usage.ru_maxrss) / 1024))
            print("| consumer | received | out of order or lost |")
            print("|---|---:|---:|")
            var failures: [String] = []
            for (name, received, wrong) in [
                ("device motion (handler)", result.deviceMotion.received, result.deviceMotion.outOfOrder),
                ("magnetometer (handler)", result.magnetometer.received, result.magnetometer.outOfOrder),
                ("accelerometer (AsyncStream)", result.accelerometer.received, result.accelerometer.outOfOrder),
                ("gyroscope (AsyncStream)", result.gyroscope.received, result.gyroscope.outOfOrder),
                ("recorder (file, read back)", noRecording ? count : result.recorded, result.recordedOutOfOrder),
            ] {
                print("| \(name) | \(received) | \(wrong) |")
                if received != count || wrong != 0 { failures.append("\(name): \(received) of \(count), \(wrong) out of order") }
            }
            print("manager.sampleCount \(result.managerSampleCount)")
            if result.managerSampleCount != count { failures.append("the manager took \(result.managerSampleCount) samples") }
            print(String(format: "device motion: max abs(‖q‖−1) %.2e, %d non-unit attitudes; final error total %.2f°, heading %.2f°, inclination %.2f°",
                         result.deviceMotion.largestNormError, result.deviceMotion.nonUnitAttitudes,
                         result.finalError.total * 180 / .pi, result.finalError.heading * 180 / .pi,
                         result.finalError.inclination * 180 / .pi))
            if result.deviceMotion.nonUnitAttitudes > 0 { failures.append("non-unit device-motion attitudes") }
            if !failures.isEmpty {
                for failure in failures { print("FAIL: \(failure)") }
                throw ExitCode.failure
            }
            print("manager run: pass, no sample lost")
        }
    }
}
