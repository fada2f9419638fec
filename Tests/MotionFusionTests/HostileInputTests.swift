import Foundation
import MotionFusion
import Testing
import RealModule

// The reliability issue's input classes, one test each, for every public entry point that takes
// sensor samples (see the Bad Input article). This file: the four filters, in Float and Double.
// HostileInputStreamTests.swift: FusionStream, DeviceMotionProcessor, MotionManager, MadgwickStreams
// lanes and MotionEventDetector. HostileInputFileTests.swift: CSV files and `motion fuse`.
//
// Expected values come from physics or from the documented rule (a held step changes nothing, a
// constant rate integrates to a known rotation), never from a previous run of the code.

/// The filters under test, seen through `Double` whatever their precision.
enum HostileInput {
    enum Kind: String, CaseIterable, Sendable { case inertial, madgwick, mahony, complementary }
    enum Precision: String, CaseIterable, Sendable { case float, double }

    /// One filter type in one precision, at its default settings (ENU).
    struct FilterCase: Sendable, CustomTestStringConvertible {
        var kind: Kind
        var precision: Precision
        var testDescription: String { "\(kind) \(precision)" }

        static let all = Kind.allCases.flatMap { k in Precision.allCases.map { FilterCase(kind: k, precision: $0) } }

        func make() -> any FilterUnderTest {
            switch precision {
            case .float: Self.make(kind, Float.self)
            case .double: Self.make(kind, Double.self)
            }
        }

        static func make<S: FusionScalar>(_ kind: Kind, _: S.Type) -> any FilterUnderTest {
            switch kind {
            case .inertial: ErasedFilter(filter: InertialFrameFilter<S>())
            case .madgwick: ErasedFilter(filter: MadgwickFilter<S>())
            case .mahony: ErasedFilter(filter: MahonyFilter<S>())
            case .complementary: ErasedFilter(filter: ComplementaryFilter<S>())
            }
        }

        /// The unit roundoff of the precision.
        var epsilon: Double { precision == .float ? Double(Float.ulpOfOne) : Double.ulpOfOne }

        /// Allowed |‖q‖ − 1|. Every filter normalizes the attitude it returns (a few ulp: 1.2e-7 in
        /// Float, 2.2e-16 in Double) and the ENU output is one more product with a unit quaternion,
        /// so 1e-6 and 1e-12 leave a margin of about 3 (Float) and 1000 (Double).
        var unitTolerance: Double { precision == .float ? 1e-6 : 1e-12 }

        /// Madgwick and Mahony integrate to first order, `q ← normalize(q + ½ q ⊗ (0, ω) Δt)`: a step
        /// turns by 2 atan(|ω| Δt / 2). The inertial and complementary filters use the exponential:
        /// |ω| Δt.
        var firstOrder: Bool { kind == .madgwick || kind == .mahony }

        /// The angle one gyroscope step of `rate` over `dt` turns the attitude by, for this filter.
        func stepAngle(rate: Double, dt: Double) -> Double {
            firstOrder ? 2 * Double.atan(rate * dt / 2) : rate * dt
        }
    }

    /// Records an issue and returns false when `q` is not finite or not of unit length.
    @discardableResult
    static func expectUnit(
        _ q: Quaternion<Double>, _ c: FilterCase, _ context: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let ok = q.isFinite && abs(q.length - 1) <= c.unitTolerance
        if !ok { Issue.record("\(c.testDescription), \(context()): q = \(q)", sourceLocation: sourceLocation) }
        return ok
    }

    static let degree = Double.pi / 180
}

/// An ``AttitudeFilter`` behind a `Double` interface (inputs are converted to its scalar; the
/// attitude back, exactly).
protocol FilterUnderTest {
    var quaternion: Quaternion<Double> { get }
    var gyroscopeBias: SIMD3<Double> { get }
    mutating func update(gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, magnetometer: SIMD3<Double>?, dt: Double)
    @discardableResult mutating func initialize(accelerometer: SIMD3<Double>, magnetometer: SIMD3<Double>?) -> Bool
    mutating func reset(to attitude: Quaternion<Double>)
}

struct ErasedFilter<F: AttitudeFilter>: FilterUnderTest {
    var filter: F
    var quaternion: Quaternion<Double> { Quaternion(filter.quaternion) }
    var gyroscopeBias: SIMD3<Double> { SIMD3(filter.gyroscopeBias) }
    mutating func update(gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, magnetometer: SIMD3<Double>?, dt: Double) {
        filter.update(
            gyroscope: SIMD3(gyroscope), accelerometer: SIMD3(accelerometer), magnetometer: magnetometer.map { SIMD3($0) },
            dt: F.Scalar(dt))
    }
    mutating func initialize(accelerometer: SIMD3<Double>, magnetometer: SIMD3<Double>?) -> Bool {
        filter.initialize(accelerometer: SIMD3(accelerometer), magnetometer: magnetometer.map { SIMD3($0) })
    }
    mutating func reset(to attitude: Quaternion<Double>) { filter.reset(to: Quaternion(attitude)) }
}

/// A noiseless constant body rate from a tilted start: truth `q(t) = q₀ ⊗ exp(½ ω t)` (sensor → ENU),
/// the gyroscope reads ω, the accelerometer gravity's specific force, the magnetometer the earth's
/// field.
enum ConstantRotation {
    static let start = Quaternion<Double>(angle: 0.5, axis: SIMD3(0, 0, 1)) * Quaternion(angle: 0.35, axis: SIMD3(1, 0, 0))
    static let rate = SIMD3<Double>(0.3, -0.2, 0.5)  // rad/s, |ω| = 0.62
    static let dt = 0.01
    static let up = SIMD3<Double>(0, 0, 9.80665)
    static let field = SIMD3<Double>(0, 20, -45)  // µT, ENU

    static func truth(_ k: Int) -> Quaternion<Double> { start * Quaternion(rotationVector: rate * (Double(k) * dt)) }

    static func sample(_ k: Int) -> Sample {
        let q = truth(k)
        return Sample(gyroscope: rate, accelerometer: q.inverseAct(on: up), magnetometer: q.inverseAct(on: field), dt: dt)
    }
}

/// One filter input.
struct Sample: Sendable {
    var gyroscope: SIMD3<Double>
    var accelerometer: SIMD3<Double>
    var magnetometer: SIMD3<Double>?
    var dt: Double

    func feed(_ filter: inout any FilterUnderTest) {
        filter.update(gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer, dt: dt)
    }
}

/// The sensor-value and time-step classes of the issue, as the bare filters see them.
enum SensorFault: String, CaseIterable, Sendable {
    case gyroscopeNaN, gyroscopeInfinite, gyroscopeAbsurd
    case accelerometerNaN, accelerometerInfinite, accelerometerZero, accelerometerAbsurd
    case magnetometerNaN, magnetometerInfinite, magnetometerZero, magnetometerMissing, magnetometerAbsurd
    case timeStepZero, timeStepNegative, timeStepNaN, timeStepInfinite, timeStepAbsurd

    /// The fault in every form: the bad value in each component, both signs of infinity, zero and
    /// subnormal length, a finite value far beyond any sensor.
    func variants(of s: Sample) -> [Sample] {
        func each(_ v: SIMD3<Double>, _ values: [Double]) -> [SIMD3<Double>] {
            values.flatMap { x in (0..<3).map { i in var w = v; w[i] = x; return w } }
        }
        let m = s.magnetometer ?? ConstantRotation.field
        var out: [Sample] = []
        func add(g: [SIMD3<Double>] = [], a: [SIMD3<Double>] = [], m ms: [SIMD3<Double>?] = [], dt: [Double] = []) {
            for v in g { var x = s; x.gyroscope = v; out.append(x) }
            for v in a { var x = s; x.accelerometer = v; out.append(x) }
            for v in ms { var x = s; x.magnetometer = v; out.append(x) }
            for v in dt { var x = s; x.dt = v; out.append(x) }
        }
        switch self {
        case .gyroscopeNaN: add(g: each(s.gyroscope, [.nan]))
        case .gyroscopeInfinite: add(g: each(s.gyroscope, [.infinity, -.infinity]))
        // Beyond 1000 rad/s (a corrupt sample; no gyroscope measures that) and beyond Float's range
        // of squares.
        case .gyroscopeAbsurd: add(g: [s.gyroscope * 1e4, SIMD3(1e30, 0, 0), SIMD3(-3e38, 2e38, 1e38)])
        case .accelerometerNaN: add(a: each(s.accelerometer, [.nan]))
        case .accelerometerInfinite: add(a: each(s.accelerometer, [.infinity, -.infinity]))
        // Zero, and a length whose square underflows (subnormal in Double, zero in Float).
        case .accelerometerZero: add(a: [.zero, SIMD3(repeating: 1e-170), SIMD3(0, 0, 1e-300)])
        // About 10⁴ g along gravity: beyond 1000 m/s², the inertial filter's limit.
        case .accelerometerAbsurd: add(a: [s.accelerometer * 1e4])
        case .magnetometerNaN: add(m: each(m, [.nan]))
        case .magnetometerInfinite: add(m: each(m, [.infinity, -.infinity]))
        case .magnetometerZero: add(m: [.zero, SIMD3(repeating: 1e-170)])
        case .magnetometerMissing: add(m: [nil])
        // |m| ≈ 4.9e10 µT: beyond MadgwickFilter's 4.3e9 µT.
        case .magnetometerAbsurd: add(m: [m * 1e9])
        case .timeStepZero: add(dt: [0, -0.0])
        case .timeStepNegative: add(dt: [-0.01, -1e30])
        case .timeStepNaN: add(dt: [.nan])
        case .timeStepInfinite: add(dt: [.infinity, -.infinity])
        // A million seconds, and beyond Float's range of squares once multiplied by the rate.
        case .timeStepAbsurd: add(dt: [1e6, 1e30])
        }
        return out
    }

    /// What the Bad Input article and ``AttitudeFilter`` say a filter does with the fault.
    enum Rule { case held, gyroscopeOnly, sixD, directionOnly, unitOnly }

    func rule(for kind: HostileInput.Kind) -> Rule {
        switch self {
        case .gyroscopeNaN, .gyroscopeInfinite, .timeStepZero, .timeStepNegative, .timeStepNaN, .timeStepInfinite: .held
        // InertialFrameFilter skips rates beyond 1000 rad/s; the others integrate them (the
        // attitude only has to stay a unit quaternion).
        case .gyroscopeAbsurd: kind == .inertial ? .held : .unitOnly
        case .timeStepAbsurd: .unitOnly
        case .accelerometerNaN, .accelerometerInfinite, .accelerometerZero: .gyroscopeOnly
        // Only the direction of the accelerometer counts ("any scale works"); InertialFrameFilter
        // leaves readings beyond 1000 m/s² out of its inclination average.
        case .accelerometerAbsurd: kind == .inertial ? .gyroscopeOnly : .directionOnly
        case .magnetometerNaN, .magnetometerInfinite, .magnetometerZero, .magnetometerMissing: .sixD
        case .magnetometerAbsurd: kind == .madgwick ? .sixD : .unitOnly
        }
    }
}

@Suite("Hostile input: filters")
struct HostileInputFilterTests {
    typealias FilterCase = HostileInput.FilterCase

    /// A filter initialized from the constant rotation and run for `steps` good samples.
    static func warmed(_ c: FilterCase, steps: Int = 30) -> any FilterUnderTest {
        var f = c.make()
        let s0 = ConstantRotation.sample(0)
        f.initialize(accelerometer: s0.accelerometer, magnetometer: s0.magnetometer)
        for k in 1...steps { ConstantRotation.sample(k).feed(&f) }
        return f
    }

    /// Every sensor-value class against every filter, each checked against its documented rule.
    @Test(arguments: FilterCase.all, SensorFault.allCases)
    func documentedRuleHolds(_ c: FilterCase, _ fault: SensorFault) throws {
        let k0 = 31
        let good = ConstantRotation.sample(k0)
        let variants = fault.variants(of: good)
        try #require(!variants.isEmpty)
        for (v, bad) in variants.enumerated() {
            let what = "\(fault) variant \(v)"
            switch fault.rule(for: c.kind) {
            case .held:
                // The step changes nothing: the attitude stays, and the run continues exactly as if
                // the sample had never come.
                var held = Self.warmed(c)
                var clean = held
                let before = held.quaternion
                bad.feed(&held)
                #expect(held.quaternion == before, "\(c.testDescription), \(what): not held")
                for k in k0..<(k0 + 30) {
                    ConstantRotation.sample(k).feed(&held)
                    ConstantRotation.sample(k).feed(&clean)
                }
                #expect(held.quaternion == clean.quaternion, "\(c.testDescription), \(what): the held step left a trace")

            case .gyroscopeOnly:
                // From a fresh initialization (no bias estimate yet), M steps with the unusable
                // accelerometer and no magnetometer integrate the constant rate alone: the attitude
                // turns by M times the filter's step angle about ω.
                var f = c.make()
                let s0 = ConstantRotation.sample(0)
                f.initialize(accelerometer: s0.accelerometer, magnetometer: s0.magnetometer)
                let q0 = f.quaternion
                let steps = 20
                for _ in 0..<steps {
                    f.update(gyroscope: good.gyroscope, accelerometer: bad.accelerometer, magnetometer: nil, dt: good.dt)
                }
                let w = good.gyroscope
                let norm = (w * w).sum().squareRoot()
                let expected = q0 * Quaternion(angle: Double(steps) * c.stepAngle(rate: norm, dt: good.dt), axis: w / norm)
                // Rounding only: a few ulp per step.
                let tolerance = Double(steps) * 16 * c.epsilon
                let error = f.quaternion.angle(to: expected)
                #expect(error <= tolerance, "\(c.testDescription), \(what): \(error) rad from the integrated rate")
                HostileInput.expectUnit(f.quaternion, c, what)

            case .sixD:
                // Fifty steps with the bad magnetometer equal fifty 6D steps (nil magnetometer); the
                // heading starts 30° off, so a magnetometer that was used would show.
                var start = Self.warmed(c)
                start.reset(to: Quaternion(angle: 30 * HostileInput.degree, axis: SIMD3(0, 0, 1)) * ConstantRotation.truth(30))
                var withBad = start, sixD = start, nineD = start
                for k in k0..<(k0 + 50) {
                    var s = ConstantRotation.sample(k)
                    s.feed(&nineD)
                    s.magnetometer = nil
                    s.feed(&sixD)
                    s.magnetometer = bad.magnetometer
                    s.feed(&withBad)
                }
                // Madgwick computes the gravity term in its 9D branch with other (equivalent)
                // arithmetic; the others are bit-identical.
                let tolerance = 50 * 16 * c.epsilon
                let difference = withBad.quaternion.angle(to: sixD.quaternion)
                #expect(difference <= tolerance, "\(c.testDescription), \(what): \(difference) rad from the 6D run")
                let magnetometerEffect = nineD.quaternion.angle(to: sixD.quaternion)
                #expect(magnetometerEffect > 10 * tolerance, "\(c.testDescription): a good magnetometer changed nothing")

            case .directionOnly:
                // The same step as with the reading at its natural scale.
                var a = Self.warmed(c)
                var b = a
                bad.feed(&a)
                good.feed(&b)
                let difference = a.quaternion.angle(to: b.quaternion)
                #expect(difference <= 16 * c.epsilon, "\(c.testDescription), \(what): \(difference) rad")

            case .unitOnly:
                var f = Self.warmed(c)
                bad.feed(&f)
                HostileInput.expectUnit(f.quaternion, c, what)
            }
            // Whatever the rule, a unit attitude after the fault and after the next good samples.
            var f = Self.warmed(c)
            bad.feed(&f)
            HostileInput.expectUnit(f.quaternion, c, "\(what), the bad step")
            for k in k0..<(k0 + 10) { ConstantRotation.sample(k).feed(&f) }
            HostileInput.expectUnit(f.quaternion, c, "\(what), after it")
        }
    }
}

extension HostileInputFilterTests {
    /// A synthetic recording (`SyntheticMotion`: noise, gyroscope bias (0.01, −0.02, 0.015) rad/s,
    /// linear acceleration) whose samples are hostile from 5 s to 7 s: every other sample carries
    /// one fault, cycling through every class and variant whose rule promises a recovery (absurd
    /// finite gyroscopes and magnetometers only promise a unit attitude: the filters other than
    /// the inertial one integrate a 10⁴ rad/s reading into an arbitrary attitude).
    static let burst: (recording: IMURecording, clean: [Sample], hostile: [Sample]) = {
        var settings = SyntheticMotion.Settings()
        settings.duration = 20
        settings.angularRate = 0.8
        settings.seed = 7
        let recording = try! SyntheticMotion.generate(settings)
        let clean = recording.timestamps.indices.map { k in
            Sample(
                gyroscope: recording.gyroscope[k], accelerometer: recording.accelerometer[k],
                magnetometer: recording.magnetometer![k], dt: k == 0 ? 0 : recording.timestamps[k] - recording.timestamps[k - 1])
        }
        let classes = SensorFault.allCases.filter { f in HostileInput.Kind.allCases.allSatisfy { f.rule(for: $0) != .unitOnly } }
        var hostile = clean
        for (n, k) in stride(from: 501, to: 700, by: 2).enumerated() {
            let variants = classes[n % classes.count].variants(of: clean[k])
            hostile[k] = variants[(n / classes.count) % variants.count]
        }
        return (recording, clean, hostile)
    }()

    @Test(arguments: FilterCase.all)
    func convergesAgainAfterABurstOfBadSamples(_ c: FilterCase) {
        let (recording, clean, hostile) = Self.burst
        func run(_ samples: [Sample]) -> [Quaternion<Double>]? {
            var f = c.make()
            var out: [Quaternion<Double>] = []
            for (k, s) in samples.enumerated() {
                s.feed(&f)
                guard HostileInput.expectUnit(f.quaternion, c, "sample \(k)") else { return nil }
                out.append(f.quaternion)
            }
            return out
        }
        guard let estimate = run(hostile), let reference = run(clean) else { return }
        // The final rest (17.5 s to 20 s), 10 s after the burst.
        // - Against the truth: a tilt loop of time constant τ lags an uncompensated horizontal rate
        //   error b by b τ: 1.5° for |b| = 0.027 rad/s and τ = 1 s (Mahony's 1/K_p, the
        //   complementary filter's τ_a); Madgwick's β = 0.1 rad/s exceeds |b|, the inertial filter
        //   estimates b. Plus 1° for accelerometer noise (0.05 m/s², 0.3° per sample): 2.5°.
        // - Against the same filter on the clean samples: what is left of the burst. Right after it
        //   the error is a few degrees (held steps lose rotation); the slowest tilt loop (the inertial
        //   filter's 3 s) leaves e^(−10/3) ≈ 4% of that, and Mahony's integral keeps a part of it for
        //   K_p/K_i = 100 s: 0.5°.
        var worst = 0.0, worstDifference = 0.0
        for k in recording.timestamps.indices where recording.timestamps[k] >= 17.5 {
            worst = max(worst, OrientationErrors.angles(estimate: estimate[k], reference: recording.truth![k]).inclination)
            worstDifference = max(worstDifference, OrientationErrors.angles(estimate: estimate[k], reference: reference[k]).inclination)
        }
        #expect(worst < 2.5 * HostileInput.degree, "\(c.testDescription): \(worst / HostileInput.degree)° inclination error")
        #expect(
            worstDifference < 0.5 * HostileInput.degree,
            "\(c.testDescription): \(worstDifference / HostileInput.degree)° from the run without the burst")
    }
}

extension HostileInputFilterTests {
    /// Turns about the vertical (a level-ish device, 25 Hz) with a vertical gyroscope bias of
    /// 0.01 rad/s; the magnetometer is gone from 10 s to 30 s.
    static let gap = (from: 10.0, to: 30.0, verticalBias: 0.01)
    static let gapScenario: IMURecording = {
        var settings = MotionScenario.Settings()
        settings.sampleRate = 25
        settings.gyroscopeBias = SIMD3(0.003, -0.002, gap.verticalBias)
        settings.initialAttitude = Quaternion(angle: 0.4, axis: SIMD3(0, 0, 1)) * Quaternion(angle: 0.2, axis: SIMD3(1, 0, 0))
        var segments: [MotionScenario.Segment] = [.rest(seconds: 3)]
        for k in 0..<10 {
            segments.append(.rotate(axis: SIMD3(0, 0, 1), degrees: k % 2 == 0 ? 90 : -60, seconds: 3))
            segments.append(.rest(seconds: 1))
        }
        segments.append(.rest(seconds: 47))  // to 90 s
        return try! MotionScenario(segments, settings: settings).generate()
    }()

    @Test(arguments: FilterCase.all)
    func headingConvergesAfterTheMagnetometerReturns(_ c: FilterCase) {
        let r = Self.gapScenario
        var f = c.make()
        var atReturn = 0.0, worstEnd = 0.0
        for k in 0..<r.count {
            let t = r.timestamps[k]
            let away = t >= Self.gap.from && t < Self.gap.to
            f.update(
                gyroscope: r.gyroscope[k], accelerometer: r.accelerometer[k], magnetometer: away ? nil : r.magnetometer![k],
                dt: k == 0 ? 0 : t - r.timestamps[k - 1])
            guard HostileInput.expectUnit(f.quaternion, c, "t = \(t)") else { return }
            let heading = OrientationErrors.angles(estimate: f.quaternion, reference: r.truth![k]).heading
            if k > 0 && r.timestamps[k - 1] < Self.gap.to && t >= Self.gap.to { atReturn = heading }
            if t >= 80 { worstEnd = max(worstEnd, heading) }
        }
        // During the gap the heading integrates the vertical bias: b_z × 20 s = 11.5°, unless the
        // filter has estimated it (the inertial filter does, from the magnetometer; Mahony's slow
        // integral, partly).
        let drift = Self.gap.verticalBias * (Self.gap.to - Self.gap.from)
        // From 50 s after the return: the steady lag b_z τ_ψ of each heading loop, plus 1.5° for
        // magnetometer noise (0.2 µT on an 18 µT horizontal field, 0.6° per sample). τ_ψ: the
        // complementary filter's τ_m = 2 s (1.15°); Mahony's 1/(K_p cos² δ) = 6.1 s with the field's
        // dip δ = 66° (3.5°); none for Madgwick, whose fixed gradient step β = 0.1 rad/s exceeds b_z,
        // nor for the inertial filter, which estimates b_z. 50 s is over 8 τ_ψ for all of these (the
        // inertial filter's τ_m = 20 s matters little: its bias estimate kept the drift small).
        let lag: Double =
            switch c.kind {
            case .complementary: Self.gap.verticalBias * 2
            case .mahony: Self.gap.verticalBias / Double.pow(Double.cos(Double.atan2(y: 45, x: 20)), 2)
            case .madgwick, .inertial: 0
            }
        let bound = lag + 1.5 * HostileInput.degree
        #expect(worstEnd < bound, "\(c.testDescription): \(worstEnd / HostileInput.degree)° heading error at the end")
        if c.kind == .inertial {
            #expect(atReturn < drift / 2, "\(c.testDescription): \(atReturn / HostileInput.degree)° at the return")
        } else {
            // The gap did cost heading, so the end shows a real convergence.
            #expect(atReturn > drift / 2 && atReturn > bound, "\(c.testDescription): \(atReturn / HostileInput.degree)° at the return")
        }
    }
}

/// A slow motion that every rate from 1 Hz to 10 kHz samples exactly: constant body rates over whole
/// seconds, so the truth is closed-form and even at 1 Hz the gyroscope reads the exact mean rate of
/// each interval. (`MotionScenario` would do too, but with its 16 sub-steps a sample costs about
/// 25 µs in a debug build: over a second for the 10 kHz recording.) Sensors: white noise per
/// sample, a constant gyroscope bias, no magnetometer (the test is about inclination).
struct PiecewiseRotation {
    /// (seconds, body rate) segments: rest, 10° about x, 10° about (0, −1, 1), rest.
    static let segments: [(Double, SIMD3<Double>)] = [
        (1, .zero), (1, SIMD3(10, 0, 0) * HostileInput.degree), (1, SIMD3(0, -7.071, 7.071) * HostileInput.degree), (2, .zero),
    ]
    static let fastest = 10 * HostileInput.degree  // rad/s
    static let start = Quaternion<Double>(angle: 0.3, axis: SIMD3(0, 0, 1)) * Quaternion(angle: 0.2, axis: SIMD3(0, 1, 0))
    static let gyroscopeBias = SIMD3<Double>(0.004, -0.003, 0.002)  // rad/s, |b| = 0.0054
    static let gyroscopeNoise = 0.003  // rad/s
    static let accelerometerNoise = 0.03  // m/s²

    var timestamps: [Double] = []
    var gyroscope: [SIMD3<Double>] = []
    var accelerometer: [SIMD3<Double>] = []
    var truth: [Quaternion<Double>] = []

    init(rate: Int) {
        var random = SplitMix64(seed: 5)
        var segmentStart = Self.start
        var t0 = 0.0
        for (seconds, w) in Self.segments {
            for i in (timestamps.isEmpty ? 0 : 1)...(Int(seconds) * rate) {
                let q = segmentStart * Quaternion(rotationVector: w * (Double(i) / Double(rate)))
                timestamps.append(t0 + Double(i) / Double(rate))
                truth.append(q)
                gyroscope.append((timestamps.count == 1 ? .zero : w) + Self.gyroscopeBias + Self.gyroscopeNoise * random.gaussianVector())
                accelerometer.append(q.inverseAct(on: ConstantRotation.up) + Self.accelerometerNoise * random.gaussianVector())
            }
            segmentStart = truth.last!
            t0 += seconds
        }
    }

    static let byRate: [Int: PiecewiseRotation] = Dictionary(
        uniqueKeysWithValues: [1, 10, 100, 1000, 10_000].map { ($0, PiecewiseRotation(rate: $0)) })
}

extension HostileInputFilterTests {
    /// The same motion at 1 Hz, 10 Hz, 100 Hz, 1 kHz and 10 kHz, from a 10° inclination error.
    @Test(arguments: FilterCase.all, [1, 10, 100, 1000, 10_000])
    func everySampleRateConverges(_ c: FilterCase, rate: Int) {
        let m = PiecewiseRotation.byRate[rate]!
        let dt = 1 / Double(rate)
        var f = c.make()
        f.initialize(accelerometer: m.accelerometer[0], magnetometer: nil)
        f.reset(to: Quaternion(angle: 10 * HostileInput.degree, axis: SIMD3(1, 0, 0)) * m.truth[0])
        // Bounds, from the sensors and the filters' gains:
        // - 1.5°: the steady lag of a tilt loop, |b| τ ≤ 0.0054 rad/s × 3 s = 0.9° (τ: the inertial
        //   filter's 3 s, the others' 1 s), plus accelerometer noise (0.03 m/s², 0.18° per sample);
        // - Madgwick's normalized gradient step turns the attitude by 2 β Δt every step whatever the
        //   error: that is its floor (11.5° at 1 Hz, 1.1° at 10 Hz);
        // - while it moves, a filter may be one sample interval of motion behind (10° at 1 Hz);
        // - from 2.5 s on (half-way through the second turn), 1° more for what is left of the 10°
        //   start (e^(−2.5) of it for the 1 s loops; Madgwick's 2β is 11.5°/s; the inertial filter
        //   corrects at once, but its bias estimate takes part of that correction for bias and
        //   settles over seconds);
        // - in the last second (4 s to 5 s, 1 s into the final rest), the one interval of motion
        //   has decayed with the tilt loop's time constant τ (3 s inertial, 1 s the others) for 1 s.
        let floor = c.kind == .madgwick ? 2 * 0.1 * dt : 0
        let oneStepOfMotion = PiecewiseRotation.fastest * dt
        let converging = 2.5 * HostileInput.degree + floor + oneStepOfMotion
        let settled = 1.5 * HostileInput.degree + floor + oneStepOfMotion * Double.exp(-1 / (c.kind == .inertial ? 3 : 1))
        // The error at every 100th of a second (every sample up to 100 Hz).
        let every = max(rate / 100, 1)
        var worstConverging = 0.0, worstSettled = 0.0
        for k in 1..<m.timestamps.count {
            f.update(gyroscope: m.gyroscope[k], accelerometer: m.accelerometer[k], magnetometer: nil, dt: dt)
            guard k % every == 0 else { continue }
            let q = f.quaternion
            guard HostileInput.expectUnit(q, c, "\(rate) Hz, sample \(k)") else { return }
            let e = OrientationErrors.angles(estimate: q, reference: m.truth[k]).inclination
            if m.timestamps[k] >= 2.5 { worstConverging = max(worstConverging, e) }
            if m.timestamps[k] >= 4 { worstSettled = max(worstSettled, e) }
        }
        let degree = HostileInput.degree
        #expect(
            worstConverging < converging,
            "\(c.testDescription), \(rate) Hz: \(worstConverging / degree)° from 2.5 s, bound \(converging / degree)°")
        #expect(
            worstSettled < settled,
            "\(c.testDescription), \(rate) Hz: \(worstSettled / degree)° at the end, bound \(settled / degree)°")
    }
}
