import ArgumentParser
import Foundation
import MotionFusion

/// `motion bench`: times each filter's update loop on samples held in memory (no parsing, no
/// output), single stream, and prints nanoseconds per sample.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the filters on in-memory samples: ns per sample, Float and Double, 6D and 9D.",
        discussion: """
            The samples come from --input (a CSV in the `motion fuse` format) or, by default, from a \
            seeded synthetic 100 Hz recording. Each case runs the bare filter update loop (dt from \
            the timestamps, computed beforehand) from a fresh filter over the whole recording, \
            repeated until --min-time has passed; the best of --repeats such runs is reported. \
            With --json the result is a JSON array of objects \
            {"filter": …, "scalar": "Float"|"Double", "mode": "6D"|"9D", "streams": 1, "nsPerSample": …}.
            """)

    @Option(help: "A CSV recording in the `motion fuse` input format (default: synthetic, 100 Hz).")
    var input: String?

    @Option(help: "Synthetic recording length, s (without --input).")
    var duration: Double = 600

    @Option(help: "Filters to time (repeatable; default: all).")
    var filter: [FilterName] = []

    @Option(help: "Minimum measured time per run, s.")
    var minTime: Double = 0.3

    @Option(help: "Runs per case; the fastest counts.")
    var repeats: Int = 5

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func validate() throws {
        guard minTime > 0, minTime.isFinite, repeats >= 1, duration > 0, duration.isFinite else {
            throw ValidationError("--min-time and --duration must be positive, --repeats at least 1")
        }
    }

    func run() throws {
        let recording: IMURecording
        if let input {
            recording = try IMURecording.read(path: input)
        } else {
            var settings = SyntheticMotion.Settings()
            settings.duration = duration
            recording = SyntheticMotion.generate(settings)
        }
        guard recording.count > 1 else { throw ValidationError("the recording has fewer than two samples") }
        let filters = filter.isEmpty ? FilterName.allCases : filter
        var rows: [(filter: String, scalar: String, mode: String, ns: Double)] = []
        for name in filters {
            for nineD in [false, true] where !nineD || recording.magnetometer != nil {
                rows.append((name.rawValue, "Float", nineD ? "9D" : "6D", measure(name, Float.self, recording, nineD)))
                rows.append((name.rawValue, "Double", nineD ? "9D" : "6D", measure(name, Double.self, recording, nineD)))
            }
        }
        if json {
            let objects = rows.map { row in
                "{\"filter\": \"\(row.filter)\", \"scalar\": \"\(row.scalar)\", \"mode\": \"\(row.mode)\", \"streams\": 1, \"nsPerSample\": \(String(format: "%.3f", row.ns))}"
            }
            print("[\n  " + objects.joined(separator: ",\n  ") + "\n]")
        } else {
            let rate = Double(recording.count - 1) / (recording.timestamps.last! - recording.timestamps.first!)
            print("\(recording.count) samples at \(String(format: "%.1f", rate)) Hz, single stream, ns per sample (best of \(repeats))")
            print("filter          scalar  mode  ns/sample")
            for row in rows {
                print(
                    row.filter.padding(toLength: 16, withPad: " ", startingAt: 0)
                        + row.scalar.padding(toLength: 8, withPad: " ", startingAt: 0)
                        + row.mode.padding(toLength: 6, withPad: " ", startingAt: 0)
                        + String(format: "%9.1f", row.ns))
            }
        }
    }

    func measure<S: FusionScalar>(_ name: FilterName, _: S.Type, _ recording: IMURecording, _ nineD: Bool) -> Double {
        switch name {
        case .inertial: return measure(InertialFrameFilter<S>(), recording, nineD)
        case .madgwick: return measure(MadgwickFilter<S>(), recording, nineD)
        case .mahony: return measure(MahonyFilter<S>(), recording, nineD)
        case .complementary: return measure(ComplementaryFilter<S>(), recording, nineD)
        }
    }

    /// The best ns per sample of `repeats` runs of the update loop over the recording.
    func measure<F: AttitudeFilter>(_ prototype: F, _ recording: IMURecording, _ nineD: Bool) -> Double {
        typealias S = F.Scalar
        let n = recording.count
        let gyro = recording.gyroscope.map { SIMD3<S>($0) }
        let acc = recording.accelerometer.map { SIMD3<S>($0) }
        let mag = recording.magnetometer.map { $0.map { SIMD3<S>($0) } }
        var dts = [S](repeating: 0, count: n)
        for i in 1..<n { dts[i] = S(recording.timestamps[i] - recording.timestamps[i - 1]) }
        var best = Double.infinity
        var sink: S = 0
        for _ in 0..<repeats {
            var samples = 0
            let start = DispatchTime.now().uptimeNanoseconds
            var elapsed: UInt64 = 0
            repeat {
                var filter = prototype
                if nineD, let mag {
                    for i in 0..<n {
                        filter.update(gyroscope: gyro[i], accelerometer: acc[i], magnetometer: mag[i], dt: dts[i])
                    }
                } else {
                    for i in 0..<n {
                        filter.update(gyroscope: gyro[i], accelerometer: acc[i], magnetometer: nil, dt: dts[i])
                    }
                }
                sink += filter.quaternion.w
                samples += n
                elapsed = DispatchTime.now().uptimeNanoseconds - start
            } while Double(elapsed) < minTime * 1e9
            best = min(best, Double(elapsed) / Double(samples))
        }
        if sink.isNaN { print("", terminator: "") }  // keeps the loop's result alive
        return best
    }
}
