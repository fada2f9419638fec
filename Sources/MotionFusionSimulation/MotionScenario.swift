import Foundation
import MotionFusionCore
import RealModule

/// A scripted, seeded IMU recording: a sequence of gestures (rests, rotations, shakes, taps, pushes,
/// walking, running) with gyroscope bias and noise, optional accelerometer saturation and magnetic
/// disturbances, simulated with exact truth and the exact time of every gesture, for testing event
/// detection, device motion and the filters.
///
/// Kinematics: the attitude (device → ENU) starts at ``Settings-swift.struct/initialAttitude`` and
/// turns only in ``Segment/rotate(axis:degrees:seconds:)`` segments, with a smooth (half-sine) rate
/// profile, and in ``Segment/run(seconds:running:)`` segments (the arm's swing and the loops, see
/// ``Running``), integrated with 16 sub-steps per sample. Linear accelerations are exact functions of
/// time; the accelerometer reads specific force (`a + gravity up`, m/s², clipped to
/// ``Settings-swift.struct/accelerometerFullScale`` when set), the gyroscope the mean rate over the
/// sample interval plus bias and noise (rad/s), the magnetometer the earth's field (plus any
/// disturbance, µT) in the device frame.
public struct MotionScenario: Sendable {
    /// One scripted gesture. Axes are in the device frame (x right edge, y top edge, z out of the
    /// screen); accelerations in g.
    public enum Segment: Sendable, Hashable {
        /// Holding still.
        case rest(seconds: Double)
        /// Turning by `degrees` about a device axis (right-handed), over `seconds`.
        case rotate(axis: SIMD3<Double>, degrees: Double, seconds: Double)
        /// Shaking along a device axis: acceleration `amplitude · sin(2π f t)` g.
        case shake(axis: SIMD3<Double>, seconds: Double, frequency: Double = 5, amplitude: Double = 2.5)
        /// A tap: one half-sine acceleration pulse of `peak` g lasting `seconds`.
        case tap(axis: SIMD3<Double>, peak: Double = 3, seconds: Double = 0.03)
        /// A push that starts and stops: one full sine period of acceleration along the axis (speeding
        /// up, then slowing down), peak `peak` g, lasting `seconds`.
        case push(axis: SIMD3<Double>, peak: Double = 0.6, seconds: Double = 0.4)
        /// Walking with the device held still in the hand: a vertical bounce of `amplitude` g at the
        /// step frequency and a forward sway of a third of it.
        case walk(seconds: Double, stepFrequency: Double = 1.8, amplitude: Double = 0.3)
        /// Running in loops with the device in the hand: foot strikes, sway, the arm's swing and
        /// turns about the vertical (see ``Running``).
        case run(seconds: Double, running: Running = Running())

        /// The segment's length, seconds (a negative length counts as 0 here;
        /// ``MotionScenario/validate(memoryLimit:)`` rejects it).
        public var duration: Double {
            switch self {
            case .rest(let s), .rotate(_, _, let s), .shake(_, let s, _, _), .tap(_, _, let s), .push(_, _, let s),
                .walk(let s, _, _), .run(let s, _):
                max(s, 0)
            }
        }

        /// A short name: rest, rotate, shake, tap, push, walk, run.
        public var name: String {
            switch self {
            case .rest: "rest"
            case .rotate: "rotate"
            case .shake: "shake"
            case .tap: "tap"
            case .push: "push"
            case .walk: "walk"
            case .run: "run"
            }
        }
    }

    /// A magnetic disturbance: `field` µT (device frame, as from a magnet carried with the device) from
    /// `start` for `seconds`.
    public struct Disturbance: Sendable, Hashable {
        public var start: Double
        public var seconds: Double
        public var field: SIMD3<Double>

        public init(start: Double, seconds: Double, field: SIMD3<Double>) {
            self.start = start
            self.seconds = seconds
            self.field = field
        }
    }

    /// Sensor and environment settings (their valid ranges: ``MotionScenario/validate(memoryLimit:)``).
    public struct Settings: Sendable, Hashable {
        /// Samples per second, 0.001 to 1 000 000. Default 100.
        public var sampleRate: Double = 100
        /// Device → ENU at the start. Default: lying face up, its top edge pointing north.
        public var initialAttitude: Quaternion<Double> = .identity
        /// Constant gyroscope bias, rad/s. Default (0.005, −0.004, 0.003).
        public var gyroscopeBias = SIMD3<Double>(0.005, -0.004, 0.003)
        /// White noise: gyroscope rad/s, accelerometer m/s², magnetometer µT.
        public var gyroscopeNoise = 0.003
        public var accelerometerNoise = 0.03
        public var magnetometerNoise = 0.2
        /// The accelerometer's full scale per axis, m/s²: a reading (noise included) beyond ±this
        /// reads ±this, as a phone's ±2 g accelerometer (19.6 m/s²) saturates while its owner runs.
        /// Nil (the default): no clipping.
        public var accelerometerFullScale: Double? = nil
        /// The earth's field in ENU, µT.
        public var earthField = SIMD3<Double>(0, 20, -45)
        /// Gravity, m/s².
        public var gravity = 9.80665
        /// Magnetic disturbances.
        public var disturbances: [Disturbance] = []
        /// The random seed.
        public var seed: UInt64 = 1

        public init() {}
    }

    /// A gesture as scheduled: its segment and its start and end times, seconds.
    public struct ScheduledSegment: Sendable, Hashable {
        public var segment: Segment
        public var start: Double
        public var end: Double
    }

    /// The gestures, in order.
    public var segments: [Segment]
    /// The sensors and environment.
    public var settings: Settings

    public init(_ segments: [Segment], settings: Settings = Settings()) {
        self.segments = segments
        self.settings = settings
    }

    /// The gestures with their start and end times.
    public var schedule: [ScheduledSegment] {
        var t = 0.0
        return segments.map { s in
            defer { t += s.duration }
            return ScheduledSegment(segment: s, start: t, end: t + s.duration)
        }
    }

    /// The total length, seconds.
    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// The number of samples the recording has: one at each multiple of 1 / sampleRate from 0 to
    /// ``duration``. Nil when the sample rate or a segment's length is out of range (see
    /// ``validate(memoryLimit:)``).
    public var sampleCount: Int? { try? checkedSampleCount() }

    /// The memory one sample of a generated recording takes: a timestamp, gyroscope, accelerometer
    /// and magnetometer vectors and the true attitude (136 bytes on 64-bit platforms).
    public static let bytesPerSample =
        MemoryLayout<Double>.stride + 3 * MemoryLayout<SIMD3<Double>>.stride + MemoryLayout<Quaternion<Double>>.stride

    /// Checks the scenario against the valid ranges and the memory its recording takes,
    /// ``sampleCount`` × ``bytesPerSample``, against `memoryLimit`. Allocates nothing.
    ///
    /// | what | range |
    /// |---|---|
    /// | `settings.sampleRate` | 0.001 Hz to 1 MHz |
    /// | a segment's `seconds` | finite, ≥ 0 |
    /// | ``duration`` (the segments' total) | finite, at most 2⁵³ samples |
    /// | a segment's `axis`, `degrees`, `peak`, `amplitude` | finite |
    /// | a segment's `frequency`, `stepFrequency` | finite, ≥ 0 Hz |
    /// | ``Running``'s `stepFrequency`, `turnSeconds`, `straightSeconds` | finite, ≥ 0 (their sum finite) |
    /// | ``Running``'s `peakForce` | finite, ≥ π/2 g |
    /// | ``Running``'s other settings | finite |
    /// | the three noises, `gravity` | finite, ≥ 0 |
    /// | `accelerometerFullScale` | nil, or finite and > 0 |
    /// | `gyroscopeBias`, `earthField`, `initialAttitude` | finite components; the attitude not zero |
    /// | a disturbance's `start` and `field` | finite; its `seconds` finite, ≥ 0 |
    ///
    /// - Parameter memoryLimit: bytes; by default the machine's physical memory.
    /// - Throws: ``SimulationError/outOfRange(setting:value:range:)`` naming the first setting out
    ///   of range (segments as `segments[i].seconds`, `segments[i].running.peakForce` and so on), or
    ///   ``SimulationError/tooManySamples(count:bytesPerSample:bytes:limit:)``.
    public func validate(
        memoryLimit: Int = Int(clamping: ProcessInfo.processInfo.physicalMemory)
    ) throws(SimulationError) {
        let count = try checkedSampleCount()
        try SimulationLimits.memory(count: count, bytesPerSample: Self.bytesPerSample, limit: memoryLimit)
    }

    /// Every range check of ``validate(memoryLimit:)``, and the sample count.
    func checkedSampleCount() throws(SimulationError) -> Int {
        try SimulationLimits.sampleRate(settings.sampleRate)
        for (i, segment) in segments.enumerated() {
            let name = "segments[\(i)]"
            switch segment {
            case .rest(let seconds):
                try SimulationLimits.nonNegative(seconds, "\(name).seconds", unit: "s")
            case .rotate(let axis, let degrees, let seconds):
                try SimulationLimits.finite(axis, "\(name).axis")
                try SimulationLimits.finite(degrees, "\(name).degrees")
                try SimulationLimits.nonNegative(seconds, "\(name).seconds", unit: "s")
            case .shake(let axis, let seconds, let frequency, let amplitude):
                try SimulationLimits.finite(axis, "\(name).axis")
                try SimulationLimits.nonNegative(seconds, "\(name).seconds", unit: "s")
                try SimulationLimits.nonNegative(frequency, "\(name).frequency", unit: "Hz")
                try SimulationLimits.finite(amplitude, "\(name).amplitude")
            case .tap(let axis, let peak, let seconds), .push(let axis, let peak, let seconds):
                try SimulationLimits.finite(axis, "\(name).axis")
                try SimulationLimits.finite(peak, "\(name).peak")
                try SimulationLimits.nonNegative(seconds, "\(name).seconds", unit: "s")
            case .walk(let seconds, let stepFrequency, let amplitude):
                try SimulationLimits.nonNegative(seconds, "\(name).seconds", unit: "s")
                try SimulationLimits.nonNegative(stepFrequency, "\(name).stepFrequency", unit: "Hz")
                try SimulationLimits.finite(amplitude, "\(name).amplitude")
            case .run(let seconds, let running):
                try SimulationLimits.nonNegative(seconds, "\(name).seconds", unit: "s")
                try running.validate(name)
            }
        }
        let total = duration
        try SimulationLimits.finite(total, "duration (the segments' total seconds)")
        try SimulationLimits.finite(settings.initialAttitude.w, "initialAttitude.w")
        try SimulationLimits.finite(settings.initialAttitude.vector, "initialAttitude")
        guard settings.initialAttitude.components != .zero else {
            throw .outOfRange(setting: "initialAttitude (length)", value: 0, range: "a nonzero quaternion")
        }
        try SimulationLimits.finite(settings.gyroscopeBias, "gyroscopeBias")
        try SimulationLimits.nonNegative(settings.gyroscopeNoise, "gyroscopeNoise", unit: "rad/s")
        try SimulationLimits.nonNegative(settings.accelerometerNoise, "accelerometerNoise", unit: "m/s²")
        try SimulationLimits.nonNegative(settings.magnetometerNoise, "magnetometerNoise", unit: "µT")
        if let fullScale = settings.accelerometerFullScale {
            try SimulationLimits.positive(fullScale, "accelerometerFullScale", unit: "m/s²")
        }
        try SimulationLimits.finite(settings.earthField, "earthField")
        try SimulationLimits.nonNegative(settings.gravity, "gravity", unit: "m/s²")
        for (i, d) in settings.disturbances.enumerated() {
            try SimulationLimits.finite(d.start, "disturbances[\(i)].start")
            try SimulationLimits.nonNegative(d.seconds, "disturbances[\(i)].seconds", unit: "s")
            try SimulationLimits.finite(d.field, "disturbances[\(i)].field")
        }
        return try SimulationLimits.sampleCount(
            (total * settings.sampleRate).rounded(.down) + 1, duration: total, rate: settings.sampleRate,
            setting: "duration (the segments' total seconds)")
    }

    /// Simulates the recording (with truth; `scored` is nil): the samples of ``samples()``,
    /// collected.
    ///
    /// - Throws: ``SimulationError`` when a setting is out of range or the recording would take
    ///   more than the machine's physical memory (``validate(memoryLimit:)``), before anything is
    ///   allocated. For a recording of any length, iterate over ``samples()`` instead.
    public func generate() throws(SimulationError) -> IMURecording {
        try validate()
        let samples = try samples()
        var timestamps: [Double] = [], gyroscope: [SIMD3<Double>] = [], accelerometer: [SIMD3<Double>] = []
        var magnetometer: [SIMD3<Double>] = [], truth: [Quaternion<Double>] = []
        timestamps.reserveCapacity(samples.count)
        gyroscope.reserveCapacity(samples.count)
        accelerometer.reserveCapacity(samples.count)
        magnetometer.reserveCapacity(samples.count)
        truth.reserveCapacity(samples.count)
        for sample in samples {
            timestamps.append(sample.timestamp)
            gyroscope.append(sample.gyroscope)
            accelerometer.append(sample.accelerometer)
            magnetometer.append(sample.magnetometer)
            truth.append(sample.truth)
        }
        var recording = IMURecording()
        recording.timestamps = timestamps
        recording.gyroscope = gyroscope
        recording.accelerometer = accelerometer
        recording.magnetometer = magnetometer
        recording.truth = truth
        return recording
    }

    /// The samples of the recording one at a time, computed as they are taken: memory does not
    /// grow with the length (the values are those of ``generate()``).
    ///
    /// - Throws: ``SimulationError/outOfRange(setting:value:range:)`` when a setting is out of
    ///   range (there is no memory limit).
    public func samples() throws(SimulationError) -> Samples {
        Samples(scenario: self, count: try checkedSampleCount())
    }

    /// One simulated sample: time (s), gyroscope (rad/s), accelerometer (specific force, m/s²),
    /// magnetometer (µT), all in the device frame, and the true attitude device → ENU.
    public struct Sample: Sendable, Hashable {
        public var timestamp: Double
        public var gyroscope: SIMD3<Double>
        public var accelerometer: SIMD3<Double>
        public var magnetometer: SIMD3<Double>
        public var truth: Quaternion<Double>
    }

    /// The samples of a scenario, computed one at a time (see ``MotionScenario/samples()``).
    public struct Samples: Sequence, IteratorProtocol, Sendable {
        /// The number of samples in all.
        public let count: Int
        let plan: [ScheduledSegment]
        /// The attitude at each segment's start, as scripted (the truth is their integration).
        let starts: [Quaternion<Double>]
        let dt: Double
        let gravity: Double
        let earthField: SIMD3<Double>
        let gyroscopeBias: SIMD3<Double>
        let noise: (gyroscope: Double, accelerometer: Double, magnetometer: Double)
        let fullScale: Double?
        let disturbances: [Disturbance]
        var random: SplitMix64
        var q: Quaternion<Double>
        /// The next sample's index, and the segment `linear` last found.
        var k = 0
        var index = 0

        init(scenario: MotionScenario, count: Int) {
            self.count = count
            let settings = scenario.settings
            gravity = settings.gravity
            earthField = settings.earthField
            gyroscopeBias = settings.gyroscopeBias
            noise = (settings.gyroscopeNoise, settings.accelerometerNoise, settings.magnetometerNoise)
            fullScale = settings.accelerometerFullScale
            disturbances = settings.disturbances
            plan = scenario.schedule
            dt = 1 / scenario.settings.sampleRate
            random = SplitMix64(seed: scenario.settings.seed)
            q = scenario.settings.initialAttitude.normalized()
            var attitude = q
            starts = plan.map { s in
                defer {
                    switch s.segment {
                    case .rotate(let axis, let degrees, _):
                        attitude = (attitude * Quaternion(angle: degrees * .pi / 180, axis: axis)).normalized()
                    case .run(let seconds, let running):
                        attitude = running.attitude(seconds, start: attitude).normalized()
                    case .rest, .shake, .tap, .push, .walk:
                        break
                    }
                }
                return attitude
            }
        }

        public var underestimatedCount: Int { count - k }

        public mutating func next() -> Sample? {
            guard k < count else { return nil }
            let t = Double(k) * dt
            let (plan, starts) = (self.plan, self.starts)
            let mean =
                k > 0
                ? SyntheticMotion.integrate(&q, rate: { Self.rate(plan, starts, $0) }, from: t - dt, duration: dt, substeps: 16)
                : .zero
            let (device, earth) = linear(t)
            let specificForce = device + q.inverseAct(on: earth + SIMD3(0, 0, gravity))
            var field = q.inverseAct(on: earthField)
            for d in disturbances where t >= d.start && t < d.start + d.seconds { field += d.field }
            let gyroscope = mean + gyroscopeBias + noise.gyroscope * random.gaussianVector()
            var accelerometer = specificForce + noise.accelerometer * random.gaussianVector()
            if let fullScale { accelerometer.clamp(lowerBound: SIMD3(repeating: -fullScale), upperBound: SIMD3(repeating: fullScale)) }
            let magnetometer = field + noise.magnetometer * random.gaussianVector()
            k += 1
            return Sample(timestamp: t, gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer, truth: q)
        }

        /// The segment at time t and the time into it; t never decreases from one call to the next.
        mutating func segment(at t: Double) -> (ScheduledSegment, Double)? {
            while index < plan.count && t >= plan[index].end { index += 1 }
            guard index < plan.count, t >= plan[index].start else { return nil }
            return (plan[index], t - plan[index].start)
        }

        /// Body rate (device frame) at time t; `starts` are the attitudes at the segments' starts.
        static func rate(_ plan: [ScheduledSegment], _ starts: [Quaternion<Double>], _ t: Double) -> SIMD3<Double> {
            for (i, s) in plan.enumerated() where t >= s.start && t < s.end {
                switch s.segment {
                case .rotate(let axis, let degrees, let seconds) where seconds > 0:
                    let u = axis / Swift.max((axis * axis).sum().squareRoot(), .leastNormalMagnitude)
                    let angle = degrees * .pi / 180
                    return u * (angle * .pi / (2 * seconds) * .sin(.pi * (t - s.start) / seconds))
                case .run(_, let running):
                    return running.rate(t - s.start, start: starts[i])
                default:
                    return .zero
                }
            }
            return .zero
        }

        /// Linear acceleration: (device-frame part, earth-frame part), m/s².
        mutating func linear(_ t: Double) -> (device: SIMD3<Double>, earth: SIMD3<Double>) {
            let g0 = gravity
            guard let (s, local) = segment(at: t) else { return (.zero, .zero) }
            func unit(_ v: SIMD3<Double>) -> SIMD3<Double> { v / Swift.max((v * v).sum().squareRoot(), .leastNormalMagnitude) }
            switch s.segment {
            case .shake(let axis, _, let f, let amplitude):
                return (unit(axis) * (amplitude * g0 * .sin(2 * .pi * f * local)), .zero)
            case .tap(let axis, let peak, let seconds):
                return (unit(axis) * (peak * g0 * .sin(.pi * local / seconds)), .zero)
            case .push(let axis, let peak, let seconds):
                return (unit(axis) * (peak * g0 * .sin(2 * .pi * local / seconds)), .zero)
            case .walk(_, let f, let amplitude):
                let w = 2 * .pi * f * local
                return (.zero, SIMD3(0, amplitude / 3 * g0 * .sin(w / 2), amplitude * g0 * .sin(w)))
            case .run(_, let running):
                return (.zero, running.acceleration(local, gravity: g0))
            case .rest, .rotate:
                return (.zero, .zero)
            }
        }
    }
}

extension MotionScenario {
    /// The named scenarios of `motion simulate`.
    public static let names = ["gestures", "walking", "orientations", "disturbance", "running", "pocket"]

    /// A named scenario: `gestures` (rotations between orientations, a shake, pushes, a tap),
    /// `walking` (ten minutes of walking with the device in the hand), `orientations` (every
    /// device orientation in turn), `disturbance` (turns back and forth, with a magnet near the device
    /// from 20 s to 40 s), `running` (two minutes of running in loops with a phone in the hand, then
    /// 5 s of rest; see below), `pocket` (a raw phone gyroscope in a trouser pocket: one second of
    /// standing, then walking with turns; see below).
    /// Nil for an unknown name.
    ///
    /// `running` is the hard case for in-motion gyroscope bias estimation: accelerometer errors
    /// seen while the device turns about the vertical look like gyroscope drift. It starts already
    /// running (``Running``'s defaults: 2.7 steps/s, 2.8 g at each foot strike, the arm swinging
    /// ±25°, three 10-s loops to the left then 5 s straight, over and over) with the phone upright
    /// in the right hand, its screen facing the body and its top tilted 30° forward; the gyroscope
    /// bias is (0.5, −0.3, −0.5)°/s and the accelerometer saturates at ±2 g per axis
    /// (``Settings-swift.struct/accelerometerFullScale``), as phones' do.
    ///
    /// `pocket` is a raw phone walk, after WeAllWalk's iPhone 6s recordings: 25 Hz, the phone
    /// upright in a trouser pocket (its top edge up, the screen facing the walker's side) with a
    /// raw gyroscope 5.7°/s off about its long axis, the axis that stays vertical while walking and
    /// that the accelerometer therefore cannot see (bias (0, −5.7, 0.26)°/s, white noise 0.4°/s per
    /// sample). The walker stands for one second, then walks four 20-s corridors joined by turns of
    /// +90°, −90° and 180° (3 s each). Only the second of standing tells the bias; without it the
    /// heading drifts 114° per corridor.
    public static func named(_ name: String, seed: UInt64 = 1) -> MotionScenario? {
        let x = SIMD3<Double>(1, 0, 0)
        let y = SIMD3<Double>(0, 1, 0)
        let z = SIMD3<Double>(0, 0, 1)
        var settings = Settings()
        settings.seed = seed
        switch name {
        case "gestures":
            return MotionScenario(
                [
                    .rest(seconds: 4),
                    .rotate(axis: x, degrees: 90, seconds: 1.5),  // face up → portrait
                    .rest(seconds: 3),
                    .shake(axis: x, seconds: 1.2),
                    .rest(seconds: 3),
                    .push(axis: x),  // right
                    .rest(seconds: 2),
                    .push(axis: -y),  // down
                    .rest(seconds: 2),
                    .tap(axis: z),
                    .rest(seconds: 2),
                    .rotate(axis: z, degrees: 90, seconds: 1.5),  // portrait → landscape left
                    .rest(seconds: 3),
                    .shake(axis: y, seconds: 1.5, frequency: 4, amplitude: 3),
                    .rest(seconds: 3),
                ], settings: settings)
        case "walking":
            var rotated = settings
            rotated.initialAttitude = Quaternion(angle: .pi / 3, axis: SIMD3(1, 0, 0))  // held up at 60°
            return MotionScenario([.rest(seconds: 3), .walk(seconds: 600), .rest(seconds: 3)], settings: rotated)
        case "orientations":
            return MotionScenario(
                [
                    .rest(seconds: 3),
                    .rotate(axis: x, degrees: 90, seconds: 1.5), .rest(seconds: 2),  // portrait
                    .rotate(axis: z, degrees: 90, seconds: 1.5), .rest(seconds: 2),  // landscape left
                    .rotate(axis: z, degrees: 90, seconds: 1.5), .rest(seconds: 2),  // upside down
                    .rotate(axis: z, degrees: 90, seconds: 1.5), .rest(seconds: 2),  // landscape right
                    .rotate(axis: y, degrees: 90, seconds: 1.5), .rest(seconds: 2),  // face down
                    .rotate(axis: y, degrees: 180, seconds: 2), .rest(seconds: 3),  // face up
                ], settings: settings)
        case "disturbance":
            settings.disturbances = [Disturbance(start: 20, seconds: 20, field: SIMD3(30, -10, 15))]
            // Turns of 90° in 3 s (peak 47°/s) on a level device; a magnet adds 35 µT from 20 s to 40 s.
            var turns: [Segment] = [.rest(seconds: 3)]
            for k in 0..<10 { turns.append(.rotate(axis: z, degrees: k % 2 == 0 ? 90 : -90, seconds: 3)); turns.append(.rest(seconds: 1)) }
            turns.append(.rest(seconds: 20))
            return MotionScenario(turns, settings: settings)
        case "running":
            // Upright (top edge up), screen facing left (the body, for the right hand), top tilted
            // forward by 30°, for a runner facing north.
            settings.initialAttitude =
                Quaternion(angle: -30 * .pi / 180, axis: x) * Quaternion(angle: -.pi / 2, axis: z) * Quaternion(angle: .pi / 2, axis: x)
            settings.gyroscopeBias = SIMD3(0.5, -0.3, -0.5) * (.pi / 180)
            settings.accelerometerFullScale = 2 * settings.gravity
            return MotionScenario([.run(seconds: 120), .rest(seconds: 5)], settings: settings)
        case "pocket":
            // Upright (top edge up), screen facing west, for a walker facing north.
            settings.initialAttitude = Quaternion(angle: -.pi / 2, axis: z) * Quaternion(angle: .pi / 2, axis: x)
            settings.sampleRate = 25
            settings.gyroscopeBias = SIMD3(0, -5.7, 0.26) * (.pi / 180)
            settings.gyroscopeNoise = 0.4 * .pi / 180
            return MotionScenario(
                [
                    .rest(seconds: 1), .walk(seconds: 20),
                    .rotate(axis: y, degrees: 90, seconds: 3), .walk(seconds: 20),
                    .rotate(axis: y, degrees: -90, seconds: 3), .walk(seconds: 20),
                    .rotate(axis: y, degrees: 180, seconds: 3), .walk(seconds: 20),
                ], settings: settings)
        default:
            return nil
        }
    }
}
