import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The simulators' settings have ranges: a value outside one is a ``SimulationError`` that names the
/// setting, the value and the range, thrown before anything is allocated (the old code trapped
/// converting a NaN or infinite sample count to Int, or went on allocating until memory ran out).
@Suite("Simulation sizes")
struct SimulationSizeTests {
    /// The error `body` throws, which must be a SimulationError.
    static func error(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> SimulationError? {
        do {
            try body()
            return nil
        } catch let error as SimulationError {
            return error
        } catch {
            Issue.record("not a SimulationError: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    static func expectOutOfRange(
        _ error: SimulationError?, setting: String, rangeMentions: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .outOfRange(let name, _, let range) = error else {
            Issue.record("expected outOfRange(\(setting)), got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(name == setting, sourceLocation: sourceLocation)
        let text = error?.description ?? ""
        #expect(text.hasPrefix(setting), "\(text)", sourceLocation: sourceLocation)
        for part in rangeMentions {
            #expect(range.contains(part) && text.contains(part), "\(text)", sourceLocation: sourceLocation)
        }
    }

    // MARK: SyntheticMotion

    @Test(arguments: [Double.nan, .infinity, -.infinity, -100, 0, 0.0001, .leastNonzeroMagnitude, 1_000_001, 1e300])
    func syntheticSampleRateOutOfRange(_ rate: Double) {
        var settings = SyntheticMotion.Settings()
        settings.sampleRate = rate
        let error = Self.error { _ = try SyntheticMotion.generate(settings) }
        Self.expectOutOfRange(error, setting: "sampleRate", rangeMentions: ["0.001", "1000000", "Hz"])
        #expect(settings.sampleCount == nil)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, -1, -.leastNonzeroMagnitude])
    func syntheticDurationOutOfRange(_ duration: Double) {
        var settings = SyntheticMotion.Settings()
        settings.duration = duration
        let error = Self.error { _ = try SyntheticMotion.generate(settings) }
        Self.expectOutOfRange(error, setting: "duration", rangeMentions: ["finite", "≥ 0"])
    }

    /// More samples than a Double timestamp tells apart (2⁵³): a range error on the duration that
    /// gives the longest duration at that rate.
    @Test func syntheticDurationBeyondTwoToTheFiftyThreeSamples() {
        var settings = SyntheticMotion.Settings()
        settings.sampleRate = 1_000_000
        settings.duration = 1e300  // 1e306 samples: the old code trapped in Int(_:)
        let error = Self.error { _ = try SyntheticMotion.generate(settings) }
        Self.expectOutOfRange(error, setting: "duration", rangeMentions: ["2^53", "9007199254.740992 s", "1000000.0 Hz"])
        #expect(settings.sampleCount == nil)
    }

    /// 10¹⁵ samples (137 PB): refused with the count and the bytes before anything is allocated.
    @Test func syntheticRecordingLargerThanMemoryIsRefused() {
        var settings = SyntheticMotion.Settings()
        settings.sampleRate = 1_000_000
        settings.duration = 1e9
        #expect(settings.sampleCount == 1_000_000_000_000_000)
        let error = Self.error { _ = try SyntheticMotion.generate(settings) }
        guard case .tooManySamples(let count, let perSample, let bytes, let limit) = error else {
            Issue.record("expected tooManySamples, got \(String(describing: error))")
            return
        }
        #expect(count == 1_000_000_000_000_000)
        #expect(perSample == SyntheticMotion.bytesPerSample)
        #expect(bytes == count * perSample)
        #expect(limit == Int(clamping: ProcessInfo.processInfo.physicalMemory))
        let text = error?.description ?? ""
        #expect(text.contains("1000000000000000 samples") && text.contains("137 PB"), "\(text)")
        #expect(text.contains("duration × sampleRate"))
    }

    /// The limit is a parameter of validate: the defaults' 6000 samples against 1000 bytes.
    @Test func validateComparesTheRecordingWithTheGivenLimit() throws {
        // A timestamp, three SIMD3<Double> (32 bytes each), a Quaternion<Double> and a Bool.
        #expect(SyntheticMotion.bytesPerSample == 8 + 3 * 32 + 32 + 1)
        #expect(MotionScenario.bytesPerSample == 8 + 3 * 32 + 32)
        let settings = SyntheticMotion.Settings()
        #expect(settings.sampleCount == 6000)
        let error = Self.error { try settings.validate(memoryLimit: 1000) }
        #expect(error == .tooManySamples(count: 6000, bytesPerSample: 137, bytes: 822_000, limit: 1000))
        #expect(error?.description.contains("822 kB") == true, "\(String(describing: error))")
        try settings.validate(memoryLimit: 822_000)
    }

    @Test func syntheticSettingsOutOfRangeNameTheSetting() {
        func check(_ setting: String, _ range: [String], _ change: (inout SyntheticMotion.Settings) -> Void) {
            var settings = SyntheticMotion.Settings()
            change(&settings)
            Self.expectOutOfRange(Self.error { _ = try SyntheticMotion.generate(settings) }, setting: setting, rangeMentions: range)
        }
        check("rest", ["≥ 0 s"]) { $0.rest = -1 }
        check("angularRate", ["finite"]) { $0.angularRate = .nan }
        check("linearAcceleration", ["≥ 0"]) { $0.linearAcceleration = .infinity }
        check("gyroscopeBias.y", ["finite"]) { $0.gyroscopeBias.y = .nan }
        check("gyroscopeNoise", ["≥ 0 rad/s"]) { $0.gyroscopeNoise = -0.1 }
        check("accelerometerNoise", ["≥ 0"]) { $0.accelerometerNoise = .nan }
        check("magnetometerNoise", ["µT"]) { $0.magnetometerNoise = -1 }
        check("earthField.z", ["finite"]) { $0.earthField.z = -.infinity }
        check("gravity", ["≥ 0"]) { $0.gravity = .nan }
    }

    /// A small valid simulation still works, and the defaults' overload (which cannot fail) gives
    /// the same recording as the throwing one.
    @Test func aSmallSimulationStillWorks() throws {
        var settings = SyntheticMotion.Settings()
        settings.sampleRate = 50
        settings.duration = 2
        let recording = try SyntheticMotion.generate(settings)
        #expect(recording.count == 100)
        #expect(recording.magnetometer?.count == 100 && recording.truth?.count == 100 && recording.scored?.count == 100)
        let defaults = SyntheticMotion.generate()
        let same = try SyntheticMotion.generate(SyntheticMotion.Settings())
        #expect(defaults.count == 6000)
        #expect(defaults.timestamps == same.timestamps && defaults.gyroscope == same.gyroscope)
        #expect(defaults.truth == same.truth && defaults.scored == same.scored)
        // The edges of the ranges are valid.
        settings.sampleRate = 0.001
        settings.duration = 0
        #expect(try SyntheticMotion.generate(settings).count == 1)
    }

    @Test func simulationErrorIsALocalizedErrorEqualToItself() {
        let error = SimulationError.outOfRange(setting: "sampleRate", value: .nan, range: "from 0.001 to 1000000 Hz")
        #expect(error == error)
        #expect(error.errorDescription == error.description)
        #expect((error as any Error).localizedDescription == error.description)
        #expect(error.description == "sampleRate is nan; it must be from 0.001 to 1000000 Hz")
        #expect(error != .outOfRange(setting: "sampleRate", value: 1, range: "from 0.001 to 1000000 Hz"))
    }

    // MARK: MotionScenario

    static func scenario(_ segments: [MotionScenario.Segment], rate: Double = 100) -> MotionScenario {
        var settings = MotionScenario.Settings()
        settings.sampleRate = rate
        return MotionScenario(segments, settings: settings)
    }

    @Test(arguments: [Double.nan, .infinity, 0, -5, 2e6])
    func scenarioSampleRateOutOfRange(_ rate: Double) {
        let scenario = Self.scenario([.rest(seconds: 1)], rate: rate)
        Self.expectOutOfRange(Self.error { _ = try scenario.generate() }, setting: "sampleRate", rangeMentions: ["0.001", "1000000"])
        Self.expectOutOfRange(Self.error { _ = try scenario.samples() }, setting: "sampleRate", rangeMentions: ["0.001"])
        #expect(scenario.sampleCount == nil)
    }

    @Test func scenarioSegmentsOutOfRangeNameTheSegment() {
        let x = SIMD3<Double>(1, 0, 0)
        func check(_ segment: MotionScenario.Segment, _ setting: String) {
            let scenario = Self.scenario([.rest(seconds: 1), segment])
            Self.expectOutOfRange(Self.error { _ = try scenario.generate() }, setting: setting, rangeMentions: [])
        }
        check(.rest(seconds: .nan), "segments[1].seconds")  // the old code trapped: Int(NaN)
        check(.rest(seconds: .infinity), "segments[1].seconds")  // and here: Int(inf)
        check(.walk(seconds: -1), "segments[1].seconds")
        check(.rotate(axis: x, degrees: .nan, seconds: 1), "segments[1].degrees")
        check(.rotate(axis: SIMD3(0, .infinity, 0), degrees: 90, seconds: 1), "segments[1].axis.y")
        check(.shake(axis: x, seconds: 1, frequency: -5), "segments[1].frequency")
        check(.shake(axis: x, seconds: 1, amplitude: .nan), "segments[1].amplitude")
        check(.tap(axis: x, peak: .infinity), "segments[1].peak")
        check(.push(axis: x, seconds: .nan), "segments[1].seconds")
        check(.walk(seconds: 1, stepFrequency: .nan), "segments[1].stepFrequency")
        check(.run(seconds: -1), "segments[1].seconds")
        func running(_ change: (inout MotionScenario.Running) -> Void) -> MotionScenario.Segment {
            var running = MotionScenario.Running()
            change(&running)
            return .run(seconds: 1, running: running)
        }
        check(running { $0.stepFrequency = -2.7 }, "segments[1].running.stepFrequency")
        check(running { $0.peakForce = 1.5 }, "segments[1].running.peakForce")  // a stance longer than the step
        check(running { $0.peakForce = .infinity }, "segments[1].running.peakForce")
        check(running { $0.forwardSway = .nan }, "segments[1].running.forwardSway")
        check(running { $0.lateralSway = -.infinity }, "segments[1].running.lateralSway")
        check(running { $0.swingAmplitude = .nan }, "segments[1].running.swingAmplitude")
        check(running { $0.hand.z = .infinity }, "segments[1].running.hand.z")
        check(running { $0.speed = .nan }, "segments[1].running.speed")
        check(running { $0.turnRate = .infinity }, "segments[1].running.turnRate")
        check(running { $0.turnSeconds = -1 }, "segments[1].running.turnSeconds")
        check(running { $0.straightSeconds = .nan }, "segments[1].running.straightSeconds")
        check(running { $0.turnSeconds = 1e308; $0.straightSeconds = 1e308 }, "segments[1].running.turnSeconds + straightSeconds")
        Self.expectOutOfRange(
            Self.error { _ = try Self.scenario([running { $0.peakForce = 1.5 }]).generate() }, setting: "segments[0].running.peakForce",
            rangeMentions: ["π/2 g"])
    }

    /// The edges of the running ranges are valid and give finite samples: no steps, the shortest
    /// stance (peakForce π/2: no flight), always turning, never turning.
    @Test func runningAtTheEdgesOfItsRanges() throws {
        func finite(_ v: SIMD3<Double>) -> Bool { (v * v).sum().isFinite }
        for change in [
            { (r: inout MotionScenario.Running) in r.stepFrequency = 0 }, { $0.peakForce = .pi / 2 }, { $0.straightSeconds = 0 },
            { $0.turnSeconds = 0 }, { $0.turnSeconds = 0; $0.straightSeconds = 0 }, { $0.hand = .zero; $0.speed = 0 },
        ] {
            var running = MotionScenario.Running()
            change(&running)
            for s in try Self.scenario([.run(seconds: 3, running: running)], rate: 50).samples() {
                #expect(finite(s.gyroscope) && finite(s.accelerometer) && finite(s.magnetometer) && s.truth.isFinite, "\(running)")
            }
        }
    }

    @Test func scenarioSettingsOutOfRangeNameTheSetting() {
        func check(_ setting: String, _ change: (inout MotionScenario.Settings) -> Void) {
            var scenario = Self.scenario([.rest(seconds: 1)])
            change(&scenario.settings)
            Self.expectOutOfRange(Self.error { _ = try scenario.generate() }, setting: setting, rangeMentions: [])
        }
        check("initialAttitude.w") { $0.initialAttitude = Quaternion(w: .nan, x: 0, y: 0, z: 0) }
        check("initialAttitude (length)") { $0.initialAttitude = Quaternion(w: 0, x: 0, y: 0, z: 0) }
        check("gyroscopeNoise") { $0.gyroscopeNoise = -1 }
        check("gravity") { $0.gravity = .infinity }
        check("earthField.x") { $0.earthField.x = .nan }
        check("disturbances[0].seconds") { $0.disturbances = [.init(start: 0, seconds: .nan, field: .zero)] }
        check("disturbances[0].start") { $0.disturbances = [.init(start: .infinity, seconds: 1, field: .zero)] }
        for fullScale in [0, -19.6, .nan, .infinity] {
            check("accelerometerFullScale") { $0.accelerometerFullScale = fullScale }
        }
    }

    /// Finite segments whose total is not: the sum overflows to infinity.
    @Test func scenarioTotalDurationMustBeFinite() {
        let scenario = Self.scenario([.rest(seconds: 1e308), .rest(seconds: 1e308)])
        Self.expectOutOfRange(
            Self.error { _ = try scenario.generate() }, setting: "duration (the segments' total seconds)", rangeMentions: ["finite"])
    }

    /// 10¹⁵ samples: generate refuses (136 PB), samples() streams them without holding them.
    @Test func aScenarioTooLargeToHoldIsRefusedButStreams() throws {
        let scenario = Self.scenario([.walk(seconds: 1e9)], rate: 1_000_000)
        let error = Self.error { _ = try scenario.generate() }
        guard case .tooManySamples(let count, let perSample, let bytes, _) = error else {
            Issue.record("expected tooManySamples, got \(String(describing: error))")
            return
        }
        #expect(count == 1_000_000_000_000_001 && perSample == 136 && bytes == count * 136)
        func finite(_ v: SIMD3<Double>...) -> Bool { v.allSatisfy { ($0 * $0).sum().isFinite } }
        var samples = try scenario.samples()
        #expect(samples.count == 1_000_000_000_000_001)
        for k in 0..<3 {
            let next = samples.next()
            let sample = try #require(next)
            #expect(sample.timestamp == Double(k) * 1e-6)
            #expect(finite(sample.gyroscope, sample.accelerometer, sample.magnetometer) && sample.truth.components.x.isFinite)
        }
    }

    /// The streamed samples are generate()'s, exactly.
    @Test(arguments: MotionScenario.names)
    func samplesAreGeneratesRecording(_ name: String) throws {
        var scenario = try #require(MotionScenario.named(name, seed: 3))
        scenario.settings.sampleRate = 20
        let recording = try scenario.generate()
        let samples = Array(try scenario.samples())
        #expect(samples.count == recording.count && recording.count == scenario.sampleCount)
        #expect(samples.map(\.timestamp) == recording.timestamps)
        #expect(samples.map(\.gyroscope) == recording.gyroscope)
        #expect(samples.map(\.accelerometer) == recording.accelerometer)
        #expect(samples.map(\.magnetometer) == recording.magnetometer)
        #expect(samples.map(\.truth) == recording.truth)
    }

    // MARK: motion simulate

    static func message(_ arguments: [String]) -> String? {
        do {
            var command = try MotionCommand.parseAsRoot(arguments)
            try command.run()
            return nil
        } catch {
            return MotionCommand.message(for: error)
        }
    }

    @Test(arguments: ["nan", "inf", "-inf", "-5", "0", "0.0001", "100001", "1e300"])
    func simulateRefusesAnAbsurdRate(_ rate: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let message = try #require(Self.message(["simulate", "walking", "-o", folder["out.csv"], "--rate=\(rate)"]))
        let value = try #require(Double(rate))
        #expect(message.contains("--rate is \(value)"), "\(message)")
        #expect(message.contains("from 0.001 to 100000"), "\(message)")
        #expect(folder.names.isEmpty)
    }

    /// A valid small run writes every sample, the numbers of generate().
    @Test func simulateStillWritesEverySample() throws {
        let folder = try Folder()
        defer { folder.remove() }
        #expect(Self.message(["simulate", "gestures", "-o", folder["out.csv"], "--rate", "25", "--seed", "4"]) == nil)
        let lines = try String(contentsOfFile: folder["out.csv"], encoding: .utf8).split(separator: "\n")
        var scenario = try #require(MotionScenario.named("gestures", seed: 4))
        scenario.settings.sampleRate = 25
        let recording = try scenario.generate()
        #expect(lines.first == "t,gx,gy,gz,ax,ay,az,mx,my,mz,qw,qx,qy,qz")
        #expect(lines.count == recording.count + 1)
        let last = recording.count - 1
        let (g, q) = (recording.gyroscope[last], recording.truth![last])
        #expect(lines.last?.hasPrefix("\(recording.timestamps[last]),\(g.x),\(g.y),\(g.z),") == true)
        #expect(lines.last?.hasSuffix(",\(q.w),\(q.x),\(q.y),\(q.z)") == true)
    }
}
