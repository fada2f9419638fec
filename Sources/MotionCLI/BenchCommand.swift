import ArgumentParser
import Foundation
import MotionFusion

/// `motion bench`: times each filter's update loop on samples held in memory (no parsing, no
/// output), single stream and many streams, and prints nanoseconds per sample; with `--latency`,
/// measures instead the time from an IIO scan to its device motion at the consumer
/// (``LatencyBench``).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the filters, the step detector and the activity: ns per sample, Float and Double.",
        discussion: """
            Each case runs a filter's bare update loop over samples in memory — --input (a CSV in \
            the `motion fuse` format) or a seeded synthetic 100 Hz recording — until --min-time has \
            passed; the best of --repeats runs counts. Stream counts above 1 time the many-stream \
            engines (MadgwickStreams for madgwick, InertialFrameStreams for inertial). Without --filter the step detector \
            (StepDetector, filter "steps", mode "accel") and the activity classifier \
            (ActivityClassifier, "activity") are timed too, over the same accelerometer.

            --latency measures instead the µs from an IIO scan to its device motion, per delivery \
            path (the other options do not apply); the exit status is 1 when a case lost a sample or failed.

            The limits, the --json formats and the method: the DocC article "The motion \
            Command-Line Tool", sections "Benchmarks" and "Latency".
            """)

    @Option(help: "A CSV in the `motion fuse` format (default: synthetic).")
    var input: String?

    @Option(help: "Synthetic recording length, s (without --input; default 600). With --latency: seconds per case (default 3).")
    var duration: Double?

    @Flag(help: "Measure IIO scan-to-device-motion latency instead.")
    var latency = false

    @Option(help: "With --latency: the scan rates, Hz, comma-separated.")
    var rates: String = "100,1000,4000"

    @Option(help: "Filters to time (repeatable; default: all).")
    var filter: [FilterName] = []

    @Option(help: "Minimum measured time per run, s.")
    var minTime: Double = 0.3

    @Option(help: "Runs per case; the fastest counts.")
    var repeats: Int = 5

    @Option(help: "Stream counts (repeatable; default 1 and 256). Counts above 1 use the many-stream engine.")
    var streams: [Int] = []

    @Option(help: "Many streams: steps per block.")
    var blockSteps: Int = 64

    @Option(help: "Many streams: concurrent tasks.")
    var tasks: Int = 1

    @Option(help: "Many streams: Float lanes, 4, 8 or 16 (default: madgwick 16, inertial one register's).")
    var floatLanes: Int?

    @Option(help: "Many streams: Double lanes, 2, 4 or 8 (default: madgwick 8, inertial one register's).")
    var doubleLanes: Int?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    /// The synthetic recording's length without --duration, s.
    static let defaultDuration = 600.0
    /// The seconds per case of --latency without --duration.
    static let defaultLatencyDuration = 3.0
    /// The highest --rates, Hz.
    static let maximumLatencyRate = 100_000.0
    /// The most scans in one --latency case (rate × duration): about 50 MB of timestamps.
    static let maximumLatencySamples = 2_000_000_000.0 / 200

    /// The synthetic recording's length, s.
    var recordingDuration: Double { duration ?? Self.defaultDuration }

    /// The rates of --rates, in order; nil when the text is not a list of numbers.
    var latencyRates: [Double]? {
        let parts = rates.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        return parts.map { $0! }
    }

    /// Checks --rates and --duration for --latency.
    func validateLatency() throws {
        guard let list = latencyRates else {
            throw ValidationError("--rates is \"\(rates)\"; it must be rates in Hz separated by commas, such as 100,1000,4000")
        }
        if let bad = list.first(where: { !($0 > 0 && $0 <= Self.maximumLatencyRate) }) {
            throw ValidationError("--rates has \(bad); each rate must be above 0 and at most \(Int(Self.maximumLatencyRate)) Hz")
        }
        let seconds = duration ?? Self.defaultLatencyDuration
        guard seconds > 0, seconds.isFinite else {
            throw ValidationError("--duration is \(seconds); it must be above 0 s and finite")
        }
        if let fastest = list.max(), fastest * seconds > Self.maximumLatencySamples {
            throw ValidationError(
                "--duration \(seconds) s at \(LatencyResult.rateText(fastest)) Hz is \(Self.count(fastest * seconds)) scans "
                    + "in one case; the limit is \(Self.count(Self.maximumLatencySamples))")
        }
    }

    /// Runs --latency: prints the table or the JSON, then fails if any case was not clean.
    func runLatency() throws {
        let bench = LatencyBench(rates: latencyRates ?? [], duration: duration ?? Self.defaultLatencyDuration)
        let results = try bench.run()
        print(json ? LatencyBench.json(results) : LatencyBench.table(results, duration: bench.duration))
        let failures = results.filter { !$0.isClean }.map { result in
            var parts: [String] = []
            if result.lost > 0 { parts.append("\(result.lost) of \(result.samples) samples lost") }
            if result.repeated > 0 { parts.append("\(result.repeated) delivered twice or out of order") }
            if result.unknown > 0 { parts.append("\(result.unknown) matching no scan") }
            parts += result.problems
            return "\(LatencyResult.rateText(result.rateHz)) Hz \(result.path.rawValue): " + parts.joined(separator: "; ")
        }
        if !failures.isEmpty { throw CommandFailure("latency: " + failures.joined(separator: "\n")) }
    }

    /// The longest --min-time, s.
    static let maximumMinTime = 3600.0
    /// The most --repeats.
    static let maximumRepeats = 1000
    /// The most --tasks.
    static let maximumTasks = 1024
    /// The longest run: every case measures at least --repeats × --min-time, and all cases together
    /// at most this, s (one day).
    static let maximumMeasuredTime = 86_400.0

    func validate() throws {
        if latency { return try validateLatency() }
        guard minTime > 0, minTime <= Self.maximumMinTime else {
            throw ValidationError("--min-time is \(minTime); it must be above 0 and at most \(Int(Self.maximumMinTime)) s")
        }
        guard repeats >= 1, repeats <= Self.maximumRepeats else {
            throw ValidationError("--repeats is \(repeats); it must be from 1 to \(Self.maximumRepeats)")
        }
        guard recordingDuration > 0, recordingDuration.isFinite else {
            throw ValidationError("--duration is \(recordingDuration); it must be above 0 s and finite")
        }
        if let bad = streams.first(where: { $0 < 1 }) {
            throw ValidationError("--streams is \(bad); each stream count must be at least 1")
        }
        guard blockSteps >= 1 else { throw ValidationError("--block-steps is \(blockSteps); it must be at least 1") }
        guard tasks >= 1, tasks <= Self.maximumTasks else {
            throw ValidationError("--tasks is \(tasks); it must be from 1 to \(Self.maximumTasks)")
        }
        guard LaneWidth.float.contains(floatLanes ?? 4), LaneWidth.double.contains(doubleLanes ?? 2) else {
            throw ValidationError("--float-lanes must be 4, 8 or 16 and --double-lanes 2, 4 or 8")
        }
        // Time: each case runs --repeats runs of at least --min-time.
        let least = Double(caseCount) * Double(repeats) * minTime
        guard least <= Self.maximumMeasuredTime else {
            throw ValidationError(
                "\(caseCount) cases × --repeats \(repeats) × --min-time \(minTime) s take at least \(Self.count(least)) s; "
                    + "the limit is \(Int(Self.maximumMeasuredTime)) s (one day): lower --repeats or --min-time")
        }
        // Memory, before anything is allocated.
        try checkMemory(available: SystemMemory.available())
    }

    /// The number of cases the run measures (counting 9D, which a recording without a magnetometer
    /// skips).
    var caseCount: Int {
        let filters = filter.isEmpty ? FilterName.allCases : filter
        let counts = streams.isEmpty ? [1, 256] : streams
        return filters.reduce(0) { sum, name in sum + counts.count { $0 == 1 || name.hasManyStreams } * 2 * 2 }
    }

    /// The memory a recording of `samples` samples needs while the single-stream cases run: the
    /// Double copies of its vectors and sample periods (the Float copies are half as large).
    static func singleStreamBytes(samples: Int) -> Double {
        Double(samples) * Double(3 * MemoryLayout<SIMD3<Double>>.stride + MemoryLayout<Double>.stride)
    }

    /// The memory the many-stream cases of `count` streams need: the samples (9D, the larger) and the
    /// engine's state, which ``EngineBox/run(_:tasks:)`` copies once per task and once more to
    /// collect them. Infinity when it does not fit in an `Int`.
    func manyStreamBytes(count: Int) -> (samples: Double, states: Double) {
        let filters = (filter.isEmpty ? FilterName.allCases : filter).filter(\.hasManyStreams)
        struct Bytes: LaneWork {
            let command: BenchCommand, filters: [FilterName], count: Int
            func run<Lanes: FusionLanes>(_: Lanes.Type) -> (Double, Double) {
                let groups = Double(count) / Double(Lanes.scalarCount)
                let copies = command.tasks == 1 ? 1 : 2 + min(Double(command.tasks), groups.rounded(.up))
                let samples = MultiStreamSamples<Lanes>.byteCount(
                    streamCount: count, stepCount: command.blockSteps, hasMagnetometer: true)
                let sizes = [
                    filters.contains(.madgwick) ? MadgwickStreams<Lanes>.byteCount(streamCount: count) : 0,
                    filters.contains(.inertial) ? InertialFrameStreams<Lanes>.byteCount(streamCount: count) : 0,
                ]
                let states: Int? = sizes.contains(nil) ? nil : sizes.map { $0! }.max()
                return (samples.map(Double.init) ?? .infinity, states.map { Double($0) * copies } ?? .infinity)
            }
        }
        let bytes = Bytes(command: self, filters: filters, count: count)
        func float(_ lanes: Int) -> (Double, Double) { LaneWidth.run(bytes, scalar: Float.self, width: lanes) }
        func double(_ lanes: Int) -> (Double, Double) { LaneWidth.run(bytes, scalar: Double.self, width: lanes) }
        // The engines run one after the other: the largest of their needs.
        let needs = filters.flatMap { [float(lanes(for: $0).float), double(lanes(for: $0).double)] }
        return needs.max(by: { $0.0 + $0.1 < $1.0 + $1.1 }) ?? (0, 0)
    }

    /// Refuses a synthetic recording (--duration) or a many-stream case (--streams, --block-steps,
    /// --tasks) that would need more than `available` bytes.
    func checkMemory(available: Int) throws {
        let limit = Double(available)
        var recordingBytes = 0.0
        if input == nil {
            var settings = SyntheticMotion.Settings()
            settings.duration = recordingDuration
            let samples = settings.sampleCount.map(Double.init) ?? (recordingDuration * settings.sampleRate).rounded()
            recordingBytes = samples * Double(SyntheticMotion.bytesPerSample)
            let needed = recordingBytes + Self.singleStreamBytes(samples: settings.sampleCount ?? Int.max)
            guard settings.sampleCount != nil, needed <= limit else {
                throw ValidationError(
                    "--duration \(recordingDuration) s is \(Self.count(samples)) samples at \(Int(settings.sampleRate)) Hz, "
                        + "\(Self.byteText(needed)) with the benchmark's copies; \(Self.byteText(limit)) of memory is available")
            }
        }
        let filters = filter.isEmpty ? FilterName.allCases : filter
        let engines = filters.filter(\.hasManyStreams)
        guard !engines.isEmpty else { return }
        for count in streams.isEmpty ? [1, 256] : streams where count > 1 {
            let (samples, states) = manyStreamBytes(count: count)
            let needed = samples + states
            guard recordingBytes + needed <= limit else {
                throw ValidationError(
                    "--streams \(count) with --block-steps \(blockSteps) and --tasks \(tasks) needs \(Self.byteText(needed)) "
                        + "(samples \(Self.byteText(samples)), filter states \(Self.byteText(states)))"
                        + (recordingBytes > 0 ? " besides the recording's \(Self.byteText(recordingBytes))" : "")
                        + "; \(Self.byteText(limit)) of memory is available")
            }
        }
    }

    /// Bytes in decimal units, three significant digits: "822 kB", "5.12 TB".
    static func byteText(_ bytes: Double) -> String {
        guard bytes.isFinite, bytes < 0x1p63 else { return "more than 9.2 EB" }
        for (scale, unit) in [(1e18, "EB"), (1e15, "PB"), (1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")] where bytes >= scale {
            return String(format: "%.3g \(unit)", bytes / scale)
        }
        return "\(Int(bytes)) bytes"
    }

    static func count(_ value: Double) -> String {
        value < 1e15 ? String(Int(value)) : String(format: "%.3g", value)
    }

    func run() throws {
        if latency { return try runLatency() }
        let recording: IMURecording
        if let input {
            recording = try IMURecording.read(path: input, maximumSamples: SystemMemory.recordingSamples())
        } else {
            var settings = SyntheticMotion.Settings()
            settings.duration = recordingDuration
            do { recording = try SyntheticMotion.generate(settings) } catch { throw CommandFailure("--duration: \(error)") }
        }
        guard recording.count > 1 else { throw ValidationError("the recording has fewer than two samples") }
        // A recording read from --input is only known now: its copies for the single-stream cases.
        let copies = Self.singleStreamBytes(samples: recording.count)
        let available = Double(SystemMemory.available())
        guard copies <= available else {
            throw CommandFailure(
                "the recording's \(recording.count) samples need \(Self.byteText(copies)) more for the benchmark's copies; "
                    + "\(Self.byteText(available)) of memory is available")
        }
        let filters = filter.isEmpty ? FilterName.allCases : filter
        let counts = streams.isEmpty ? [1, 256] : streams
        var rows: [(filter: String, scalar: String, mode: String, streams: Int, lanes: Int, ns: Double)] = []
        for name in filters {
            for count in counts where count == 1 || name.hasManyStreams {
                for nineD in [false, true] where !nineD || recording.magnetometer != nil {
                    let mode = nineD ? "9D" : "6D"
                    if count == 1 {
                        rows.append((name.rawValue, "Float", mode, 1, 1, try measure(name, Float.self, recording, nineD)))
                        rows.append((name.rawValue, "Double", mode, 1, 1, try measure(name, Double.self, recording, nineD)))
                    } else {
                        struct Measure: LaneWork {
                            let command: BenchCommand, name: FilterName, recording: IMURecording
                            let nineD: Bool, count: Int
                            func run<Lanes: FusionLanes>(_: Lanes.Type) -> Double {
                                command.measureMany(name, Lanes.self, recording, nineD, count)
                            }
                        }
                        let width = lanes(for: name)
                        let work = Measure(command: self, name: name, recording: recording, nineD: nineD, count: count)
                        let float = LaneWidth.run(work, scalar: Float.self, width: width.float)
                        let double = LaneWidth.run(work, scalar: Double.self, width: width.double)
                        rows.append((name.rawValue, "Float", mode, count, width.float, float))
                        rows.append((name.rawValue, "Double", mode, count, width.double, double))
                    }
                }
            }
        }
        if filter.isEmpty {
            // The step detector (StepDetector) over the same accelerometer: no attitude filter.
            rows.append(("steps", "Float", "accel", 1, 1, measureAccelerometer(StepDetector<Float>.self, recording)))
            rows.append(("steps", "Double", "accel", 1, 1, measureAccelerometer(StepDetector<Double>.self, recording)))
            // The activity classifier (ActivityClassifier), its step detector included.
            rows.append(("activity", "Float", "accel", 1, 1, measureAccelerometer(ActivityClassifier<Float>.self, recording)))
            rows.append(("activity", "Double", "accel", 1, 1, measureAccelerometer(ActivityClassifier<Double>.self, recording)))
        }
        if json {
            let objects = rows.map { row in
                "{\"filter\": \"\(row.filter)\", \"scalar\": \"\(row.scalar)\", \"mode\": \"\(row.mode)\", \"streams\": \(row.streams), \"lanes\": \(row.lanes), \"nsPerSample\": \(String(format: "%.3f", row.ns))}"
            }
            print("[\n  " + objects.joined(separator: ",\n  ") + "\n]")
        } else {
            let rate = Double(recording.count - 1) / (recording.timestamps.last! - recording.timestamps.first!)
            print("\(recording.count) samples at \(String(format: "%.1f", rate)) Hz, ns per sample (best of \(repeats)); many streams on \(tasks) task(s)")
            print("filter          scalar  mode  streams  lanes  ns/sample  M samples/s")
            for row in rows {
                print(
                    row.filter.padding(toLength: 16, withPad: " ", startingAt: 0)
                        + row.scalar.padding(toLength: 8, withPad: " ", startingAt: 0)
                        + row.mode.padding(toLength: 6, withPad: " ", startingAt: 0)
                        + String(format: "%7d", row.streams)
                        + String(format: "%7d", row.lanes)
                        + String(format: "%11.2f", row.ns)
                        + String(format: "%13.1f", 1e3 / row.ns))
            }
        }
    }

    /// The lanes per vector of `name`'s many-stream engine: --float-lanes and --double-lanes, else
    /// the fastest measured (<doc:Performance>): the widest for Madgwick's engine, whose state is a
    /// few vectors, and one register's width (``VectorRegister``) for the default filter's, whose
    /// seventy vectors of state spill from wider lanes.
    func lanes(for name: FilterName) -> (float: Int, double: Int) {
        let register =
            name == .inertial
            ? (LaneWidth.register(Float.self), LaneWidth.register(Double.self)) : (LaneWidth.float.last!, LaneWidth.double.last!)
        return (floatLanes ?? register.0, doubleLanes ?? register.1)
    }

    /// The best ns per sample of the many-stream engine: `count` streams, each the recording
    /// started at a different sample, in cache-sized blocks of `blockSteps` steps processed over and
    /// over (the state carries on, as in a long run).
    func measureMany<Lanes: FusionLanes>(
        _ name: FilterName, _ lanes: Lanes.Type, _ recording: IMURecording, _ nineD: Bool, _ count: Int
    ) -> Double {
        name == .inertial
            ? measureMany(InertialFrameStreams<Lanes>(streamCount: count), recording, nineD, count)
            : measureMany(MadgwickStreams<Lanes>(streamCount: count), recording, nineD, count)
    }

    func measureMany<Engine: ManyStreamEngine>(
        _ prototype: Engine, _ recording: IMURecording, _ nineD: Bool, _ count: Int
    ) -> Double {
        typealias Lanes = Engine.Lanes
        typealias S = Lanes.Scalar
        let n = recording.count
        // Madgwick's engine runs one block over and over. The default filter's engine gets each
        // stream's recording onward, a fresh block before each timed run (filled untimed): its rest
        // detector and correction steps must see real motion, not a loop of 64 steps (in which
        // Float covariances decay into subnormal numbers, several times slower on x86).
        let continues = Engine.needsContinuousFeed
        var cursor = 0
        var samples = MultiStreamSamples<Lanes>(streamCount: count, stepCount: blockSteps, hasMagnetometer: nineD)
        func fill() {
            for s in 0..<count {
                for t in 0..<blockSteps {
                    let i = (cursor + t + s * 7919) % (n - 1) + 1
                    samples.set(
                        stream: s, step: t, gyroscope: SIMD3<S>(recording.gyroscope[i]),
                        accelerometer: SIMD3<S>(recording.accelerometer[i]),
                        magnetometer: nineD ? recording.magnetometer.map { SIMD3<S>($0[i]) } : nil,
                        dt: S(recording.timestamps[i] - recording.timestamps[i - 1]))
                }
            }
            cursor += blockSteps
        }
        fill()
        let engine = EngineBox(prototype)
        engine.run(samples, tasks: tasks)  // initializes every stream
        var best = Double.infinity
        for _ in 0..<repeats {
            var blocks = 0
            var elapsed: UInt64 = 0
            repeat {
                if continues { fill() }
                let start = DispatchTime.now().uptimeNanoseconds
                engine.run(samples, tasks: tasks)
                elapsed += DispatchTime.now().uptimeNanoseconds - start
                blocks += 1
            } while Double(elapsed) < minTime * 1e9
            best = min(best, Double(elapsed) / (Double(blocks) * Double(count) * Double(blockSteps)))
        }
        if engine.engine.benchQuaternion(stream: 0).w.isNaN { print("", terminator: "") }  // keeps the result alive
        return best
    }

    func measure<S: FusionScalar>(_ name: FilterName, _: S.Type, _ recording: IMURecording, _ nineD: Bool) throws -> Double {
        try name.build(for: BenchMeasurement<S>(command: self, recording: recording, nineD: nineD))
    }

    /// The best ns per sample of `repeats` runs of an accelerometer-only analysis (``StepDetector``,
    /// ``ActivityClassifier``), made afresh for each pass over the recording's accelerometer and
    /// timestamps.
    func measureAccelerometer<Analysis: BenchedAccelerometerAnalysis>(_: Analysis.Type, _ recording: IMURecording) -> Double {
        let n = recording.count
        let acc = recording.accelerometer.map { SIMD3<Analysis.Scalar>($0) }
        let times = recording.timestamps
        var best = Double.infinity
        var sink = 0
        for _ in 0..<repeats {
            var samples = 0
            let start = DispatchTime.now().uptimeNanoseconds
            var elapsed: UInt64 = 0
            repeat {
                var analysis = Analysis()
                for i in 0..<n { sink &+= analysis.benchUpdate(times[i], acc[i]) }
                samples += n
                elapsed = DispatchTime.now().uptimeNanoseconds - start
            } while Double(elapsed) < minTime * 1e9
            best = min(best, Double(elapsed) / Double(samples))
        }
        if sink < 0 { print("", terminator: "") }  // keeps the loop's result alive
        return best
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

/// `motion bench`'s measurement of one filter, built by the registry at its defaults.
private struct BenchMeasurement<Scalar: FusionScalar>: FilterConsumer {
    let command: BenchCommand, recording: IMURecording, nineD: Bool
    func consume<F: AttitudeFilter>(_ filter: F) -> Double where F.Scalar == Scalar {
        command.measure(filter, recording, nineD)
    }
}

/// What `motion bench` times over an accelerometer alone: made with its default settings, fed one
/// reading at a time (a generic, specialised for each type, so that the update inlines as in an
/// application's loop).
protocol BenchedAccelerometerAnalysis {
    associatedtype Scalar: FusionScalar
    init()
    /// One reading; something to sum, so that the loop is not optimised away.
    mutating func benchUpdate(_ t: Double, _ a: SIMD3<Scalar>) -> Int
}

extension StepDetector: BenchedAccelerometerAnalysis {
    init() { self.init(settings: Settings()) }
    @inline(__always) mutating func benchUpdate(_ t: Double, _ a: SIMD3<Scalar>) -> Int { update(timestamp: t, acceleration: a) }
}

extension ActivityClassifier: BenchedAccelerometerAnalysis {
    init() { self.init(settings: Settings()) }
    @inline(__always) mutating func benchUpdate(_ t: Double, _ a: SIMD3<Scalar>) -> Int { update(timestamp: t, acceleration: a) ? 1 : 0 }
}
