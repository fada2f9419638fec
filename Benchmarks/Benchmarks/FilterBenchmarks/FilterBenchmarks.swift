// MotionFusion fusion-filter benchmarks, run from another module than the library on purpose: the
// generic filters reach this code only through `@inlinable`, as in an application.
//
// Conventions (see ../../README.md):
// - Every benchmark runs a synthetic 100 Hz recording of 10,000 samples (100 s) made in `setup`,
//   outside the measured region, from a fixed seed.
// - One iteration processes the whole recording 100 times (10⁶ samples) from a fresh filter each
//   pass, with `scalingFactor: .mega`, so the tables report nanoseconds and allocations per sample.
// - Results reach `blackHole` (or a buffer that escapes to the benchmark state), so nothing is
//   optimized away.
//
// Names: `Filter.{6D,9D}.form.Scalar`, Filter one of Inertial (InertialFrameFilter), Madgwick,
// Mahony, Complementary (default
// settings), 6D with `magnetometer: nil`; the forms:
// - filter: the bare `AttitudeFilter.update(gyroscope:accelerometer:magnetometer:dt:)` loop, `dt`
//   from the timestamps (precomputed); the attitude is read once per pass;
// - stream: `FusionStream.update(timestamp:…)` per sample (clock, checks, derived outputs); every
//   field of every `FusionOutput` is folded into an accumulator, as a consumer that uses each
//   output at once;
// - batch: `FusionStream.process(timestamps:…into:)` over contiguous buffers into a preallocated
//   output buffer;
// - streamRestBias (Madgwick only): `stream` with a `GyroscopeBiasEstimator` in front.
// Also `MadgwickStreams.{6D,9D}.lanesN.Scalar`: the many-stream engine (see
// `registerManyStreamBenchmark`), `InertialFrameStreams.{6D,9D}.lanesN.Scalar`: the default filter's
// (see `registerInertialStreamBenchmark`), `GyroscopeBiasEstimator.update.Scalar` alone, and `Baseline.handWrittenMadgwick{6D,9D}.Double`:
// the Madgwick step written out concretely in this module, to compare with `Madgwick.*.filter.Double`.

import Benchmark
import MotionFusion

// MARK: - Suite

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: .seconds(1),
        maxIterations: 1_000
    )

    registerFilterBenchmarks(Float.self, suffix: "Float")
    registerFilterBenchmarks(Double.self, suffix: "Double")
    registerBiasEstimatorBenchmark(Float.self, suffix: "Float")
    registerBiasEstimatorBenchmark(Double.self, suffix: "Double")
    registerSameModuleBaselines()
    registerManyStreamBenchmark(SIMD4<Float>.self, suffix: "Float")
    registerManyStreamBenchmark(SIMD8<Float>.self, suffix: "Float")
    registerManyStreamBenchmark(SIMD16<Float>.self, suffix: "Float")
    registerManyStreamBenchmark(SIMD2<Double>.self, suffix: "Double")
    registerManyStreamBenchmark(SIMD4<Double>.self, suffix: "Double")
    registerManyStreamBenchmark(SIMD8<Double>.self, suffix: "Double")
    registerInertialStreamBenchmark(SIMD8<Float>.self, suffix: "Float")
    registerInertialStreamBenchmark(SIMD16<Float>.self, suffix: "Float")
    registerInertialStreamBenchmark(SIMD4<Double>.self, suffix: "Double")
    registerInertialStreamBenchmark(SIMD8<Double>.self, suffix: "Double")
}

/// Samples in the recording: 100 s at 100 Hz.
let sampleCount = 10_000
/// The recording's nominal sample period, seconds.
let samplePeriod = 0.01

// MARK: - Synthetic recording

/// SplitMix64: a small, fast, seedable generator, so every run measures the same inputs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A standard normal deviate (Box–Muller).
    mutating func gaussian() -> Double {
        let u1 = Double.random(in: Double.ulpOfOne...1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self)
        return (-2 * Double.log(u1)).squareRoot() * Double.cos(2 * Double.pi * u2)
    }

    /// A vector of independent normal deviates with standard deviation `sigma`.
    mutating func gaussian(sigma: Double) -> SIMD3<Double> {
        SIMD3(gaussian(), gaussian(), gaussian()) * sigma
    }
}

/// A smooth, motion-profile weight in [0, 1]: 0 at rest, 1 in motion, with 1 s smoothstep ramps.
/// Rest for 0–3 s and 45–52 s (so the bias estimator detects rest twice), moving otherwise.
func motionWeight(_ t: Double) -> Double {
    func ramp(_ x: Double) -> Double {
        let c = min(max(x, 0), 1)
        return c * c * (3 - 2 * c)
    }
    return ramp(t - 3) * (1 - ramp(t - 44)) + ramp(t - 52)
}

/// True body rate (rad/s, sensor frame): a sum of slow sinusoids up to about 2 rad/s.
func trueRate(_ t: Double) -> SIMD3<Double> {
    let tau = 2 * Double.pi
    let w = SIMD3(
        1.2 * Double.sin(tau * 0.23 * t) + 0.4 * Double.sin(tau * 0.71 * t + 1),
        0.9 * Double.sin(tau * 0.17 * t + 2) + 0.3 * Double.sin(tau * 0.53 * t),
        1.5 * Double.sin(tau * 0.11 * t + 0.5) + 0.5 * Double.sin(tau * 0.37 * t + 3))
    return w * motionWeight(t)
}

/// True linear acceleration (m/s², earth frame NWU): a hand-held device's gentle sway.
func trueLinearAcceleration(_ t: Double) -> SIMD3<Double> {
    let tau = 2 * Double.pi
    let a = SIMD3(
        0.8 * Double.sin(tau * 0.3 * t), 0.6 * Double.sin(tau * 0.45 * t + 1),
        0.4 * Double.sin(tau * 0.6 * t + 2))
    return a * motionWeight(t)
}

/// A synthetic IMU recording in `Scalar`, in buffers allocated once and kept for the benchmark.
///
/// The true attitude (sensor → NWU) is integrated from `trueRate` with ten substeps per sample.
/// Gyroscope: rate + constant bias (≈0.4°/s) + white noise 0.003 rad/s. Accelerometer: specific
/// force (gravity 9.80665 m/s² up plus `trueLinearAcceleration`, seen from the sensor) + noise
/// 0.05 m/s². Magnetometer: a 49 µT field with a 66° dip (20 µT north, 45 µT down) + noise 0.4 µT.
/// Timestamps: 100 Hz with ±0.2 ms jitter.
final class Recording<Scalar: FusionScalar> {
    let timestamps: UnsafeMutableBufferPointer<Double>
    /// The sample period before each sample (0 for the first), as a bare filter needs it.
    let periods: UnsafeMutableBufferPointer<Scalar>
    let gyroscope: UnsafeMutableBufferPointer<SIMD3<Scalar>>
    let accelerometer: UnsafeMutableBufferPointer<SIMD3<Scalar>>
    let magnetometer: UnsafeMutableBufferPointer<SIMD3<Scalar>>
    var count: Int { timestamps.count }

    init(count: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        timestamps = .allocate(capacity: count)
        periods = .allocate(capacity: count)
        gyroscope = .allocate(capacity: count)
        accelerometer = .allocate(capacity: count)
        magnetometer = .allocate(capacity: count)

        let gravity = SIMD3<Double>(0, 0, 9.806_65)
        let field = SIMD3<Double>(20, 0, -45)
        let gyroscopeBias = SIMD3<Double>(0.006, -0.004, 0.003)
        var attitude = Quaternion<Double>(rotationVector: SIMD3(0.3, -0.2, 1.0))
        let substeps = 10
        var previous = 0.0
        for index in 0..<count {
            let nominal = Double(index) * samplePeriod
            let t = index == 0 ? 0 : nominal + Double.random(in: -2e-4...2e-4, using: &rng)
            // Integrate the true attitude from the previous timestamp to this one (midpoint rule).
            if index > 0 {
                let h = (t - previous) / Double(substeps)
                for step in 0..<substeps {
                    let rate = trueRate(previous + (Double(step) + 0.5) * h)
                    attitude = (attitude * Quaternion(rotationVector: rate * h)).normalized()
                }
            }
            let gyro = trueRate(t) + gyroscopeBias + rng.gaussian(sigma: 0.003)
            let specificForce = attitude.inverseAct(on: gravity + trueLinearAcceleration(t))
            let accel = specificForce + rng.gaussian(sigma: 0.05)
            let mag = attitude.inverseAct(on: field) + rng.gaussian(sigma: 0.4)

            (timestamps.baseAddress! + index).initialize(to: t)
            (periods.baseAddress! + index).initialize(to: index == 0 ? 0 : Scalar(t - previous))
            (gyroscope.baseAddress! + index).initialize(to: SIMD3(gyro))
            (accelerometer.baseAddress! + index).initialize(to: SIMD3(accel))
            (magnetometer.baseAddress! + index).initialize(to: SIMD3(mag))
            previous = t
        }
    }

    deinit {
        timestamps.deallocate()
        periods.deallocate()
        gyroscope.deallocate()
        accelerometer.deallocate()
        magnetometer.deallocate()
    }
}

/// The state of one filter benchmark: the recording, a fresh (uninitialized) filter copied at the
/// start of every pass, and the preallocated batch output.
final class FilterState<Filter: AttitudeFilter> {
    let recording: Recording<Filter.Scalar>
    let prototype: Filter
    let output: UnsafeMutableBufferPointer<FusionOutput<Filter.Scalar>>

    init(prototype: Filter, seed: UInt64) {
        recording = Recording(count: sampleCount, seed: seed)
        self.prototype = prototype
        output = .allocate(capacity: sampleCount)
        output.initialize(
            repeating: FusionOutput(
                timestamp: 0, quaternion: .identity, gyroscopeBias: .zero, gravity: .zero,
                linearAcceleration: .zero, earthLinearAcceleration: .zero, flags: []))
    }

    deinit {
        output.deallocate()
    }
}

/// How many passes over the recording make one iteration of `benchmark` (10⁶ samples for `.mega`).
@inline(__always)
func passes(_ benchmark: Benchmark, samples: Int) -> Int {
    let total = benchmark.scaledIterations.count
    precondition(total % samples == 0, "scaling factor must be a multiple of the recording length")
    return total / samples
}

// MARK: - The forms

/// The bare filter: `update` per sample with the recording's sample periods.
@inline(__always)
func measureFilter<Filter: AttitudeFilter>(
    _ benchmark: Benchmark, _ state: FilterState<Filter>, nineD: Bool
) {
    let recording = state.recording
    let periods = recording.periods
    let gyroscope = recording.gyroscope
    let accelerometer = recording.accelerometer
    let magnetometer = recording.magnetometer
    for _ in 0..<passes(benchmark, samples: recording.count) {
        var filter = state.prototype
        if nineD {
            for index in 0..<recording.count {
                filter.update(
                    gyroscope: gyroscope[index], accelerometer: accelerometer[index],
                    magnetometer: magnetometer[index], dt: periods[index])
            }
        } else {
            for index in 0..<recording.count {
                filter.update(
                    gyroscope: gyroscope[index], accelerometer: accelerometer[index],
                    magnetometer: nil, dt: periods[index])
            }
        }
        blackHole(filter.quaternion)
    }
}

/// Folds every field of an output into accumulators (independent additions, off the filter's
/// dependency chain).
@inline(__always)
func accumulate<Scalar: FusionScalar>(
    _ output: FusionOutput<Scalar>, into sum4: inout SIMD4<Scalar>, _ sum3: inout SIMD3<Scalar>,
    _ flags: inout UInt16, _ time: inout Double
) {
    sum4 += output.quaternion.components
    sum3 += output.gravity + output.linearAcceleration + output.earthLinearAcceleration
        + output.gyroscopeBias
    flags |= output.flags.rawValue
    time += output.timestamp
}

/// `FusionStream.update` per sample, each output consumed at once.
@inline(__always)
func measureStream<Filter: AttitudeFilter>(
    _ benchmark: Benchmark, _ state: FilterState<Filter>, nineD: Bool, restBias: Bool = false
) {
    let recording = state.recording
    let timestamps = recording.timestamps
    let gyroscope = recording.gyroscope
    let accelerometer = recording.accelerometer
    let magnetometer = recording.magnetometer
    for _ in 0..<passes(benchmark, samples: recording.count) {
        var stream = FusionStream(
            filter: state.prototype, biasEstimator: restBias ? GyroscopeBiasEstimator() : nil)
        var sum4 = SIMD4<Filter.Scalar>.zero
        var sum3 = SIMD3<Filter.Scalar>.zero
        var flags: UInt16 = 0
        var time = 0.0
        if nineD {
            for index in 0..<recording.count {
                let output = stream.update(
                    timestamp: timestamps[index], gyroscope: gyroscope[index],
                    accelerometer: accelerometer[index], magnetometer: magnetometer[index])
                accumulate(output, into: &sum4, &sum3, &flags, &time)
            }
        } else {
            for index in 0..<recording.count {
                let output = stream.update(
                    timestamp: timestamps[index], gyroscope: gyroscope[index],
                    accelerometer: accelerometer[index], magnetometer: nil)
                accumulate(output, into: &sum4, &sum3, &flags, &time)
            }
        }
        blackHole(sum4)
        blackHole(sum3)
        blackHole(flags)
        blackHole(time)
    }
}

/// `FusionStream.process(…into:)` over the whole recording into the preallocated output buffer.
@inline(__always)
func measureBatch<Filter: AttitudeFilter>(
    _ benchmark: Benchmark, _ state: FilterState<Filter>, nineD: Bool
) {
    let recording = state.recording
    let timestamps = UnsafeBufferPointer(recording.timestamps)
    let gyroscope = UnsafeBufferPointer(recording.gyroscope)
    let accelerometer = UnsafeBufferPointer(recording.accelerometer)
    let magnetometer = nineD ? UnsafeBufferPointer(recording.magnetometer) : nil
    for _ in 0..<passes(benchmark, samples: recording.count) {
        var stream = FusionStream(filter: state.prototype)
        do {
            try stream.process(
                timestamps: timestamps, gyroscope: gyroscope, accelerometer: accelerometer,
                magnetometer: magnetometer, into: state.output)
        } catch {
            benchmark.error("FusionStream.process failed: \(error)")
            return
        }
        blackHole(state.output[recording.count - 1])
    }
}

// MARK: - Registration

enum Form: String, CaseIterable {
    case filter, stream, batch
    /// `stream` with a `GyroscopeBiasEstimator` in front of the filter (`motion fuse --rest-bias`).
    case streamRestBias
}

/// Registers the benchmarks (6D and 9D, each form in `forms`) of one filter type.
func registerForms<Filter: AttitudeFilter>(
    _ name: String, prototype: Filter, suffix: String, seed: UInt64,
    forms: [Form] = [.filter, .stream, .batch]
) {
    for nineD in [false, true] {
        for form in forms {
            Benchmark("\(name).\(nineD ? "9D" : "6D").\(form.rawValue).\(suffix)") {
                (benchmark: Benchmark, state: FilterState<Filter>) in
                switch form {
                case .filter: measureFilter(benchmark, state, nineD: nineD)
                case .stream: measureStream(benchmark, state, nineD: nineD)
                case .batch: measureBatch(benchmark, state, nineD: nineD)
                case .streamRestBias: measureStream(benchmark, state, nineD: nineD, restBias: true)
                }
            } setup: {
                FilterState(prototype: prototype, seed: seed)
            }
        }
    }
}

func registerFilterBenchmarks<S: FusionScalar>(_: S.Type, suffix: String) {
    registerForms("Inertial", prototype: InertialFrameFilter<S>(), suffix: suffix, seed: 100)
    registerForms(
        "Madgwick", prototype: MadgwickFilter<S>(), suffix: suffix, seed: 100,
        forms: [.filter, .stream, .batch, .streamRestBias])
    registerForms("Mahony", prototype: MahonyFilter<S>(), suffix: suffix, seed: 100)
    registerForms("Complementary", prototype: ComplementaryFilter<S>(), suffix: suffix, seed: 100)
}

func registerBiasEstimatorBenchmark<S: FusionScalar>(_: S.Type, suffix: String) {
    Benchmark("GyroscopeBiasEstimator.update.\(suffix)") {
        (benchmark: Benchmark, recording: Recording<S>) in
        let periods = recording.periods
        let gyroscope = recording.gyroscope
        let accelerometer = recording.accelerometer
        for _ in 0..<passes(benchmark, samples: recording.count) {
            var estimator = GyroscopeBiasEstimator<S>()
            var sum = SIMD3<S>.zero
            for index in 0..<recording.count {
                sum += estimator.update(
                    gyroscope: gyroscope[index], accelerometer: accelerometer[index],
                    dt: periods[index])
            }
            blackHole(sum)
            blackHole(estimator.isResting)
        }
    } setup: {
        Recording<S>(count: sampleCount, seed: 100)
    }
}

// MARK: - Same-module baselines

// A hand-written, concrete (non-generic) Madgwick step in this module: the library's equations
// (MadgwickFilter.update, ζ = 0, β = 0.1) on SIMD4<Double>, with the same checks. If the
// cross-module `Madgwick.{6D,9D}.filter.Double` rows are close to these, `@inlinable`
// specialization works as intended.

/// `a ⊗ b` on (w, x, y, z).
@inline(__always)
func hamilton(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
    SIMD4(
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0])
}

/// `v / |v|`, or nil when `|v|²` is not a normal number.
@inline(__always)
func unit(_ v: SIMD3<Double>) -> SIMD3<Double>? {
    let n2 = (v * v).sum()
    guard n2.isNormal else { return nil }
    return v * (1 / n2.squareRoot())
}

/// One Madgwick step (ζ = 0) on the attitude `q` (sensor → NWU), as the library computes it.
@inline(__always)
func handMadgwickStep(
    _ q: inout SIMD4<Double>, gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>,
    magnetometer: SIMD3<Double>?, dt: Double, beta: Double = 0.1
) {
    guard dt > 0, dt.isFinite, (gyroscope * 0) == .zero else { return }
    let w = q[0], x = q[1], y = q[2], z = q[3]
    var gradient = SIMD4<Double>.zero
    if let a = unit(accelerometer) {
        let f1 = 2 * (x * z - w * y) - a.x
        let f2 = 2 * (w * x + y * z) - a.y
        let f3 = 2 * (0.5 - x * x - y * y) - a.z
        gradient = SIMD4(
            -2 * y * f1 + 2 * x * f2,
            2 * z * f1 + 2 * w * f2 - 4 * x * f3,
            -2 * w * f1 + 2 * z * f2 - 4 * y * f3,
            2 * x * f1 + 2 * y * f2)
        if let magnetometer, let m = unit(magnetometer) {
            // h = q ⊗ m ⊗ q*
            let u = SIMD3(x, y, z)
            let t = 2 * SIMD3(u.y * m.z - u.z * m.y, u.z * m.x - u.x * m.z, u.x * m.y - u.y * m.x)
            let h = m + w * t + SIMD3(u.y * t.z - u.z * t.y, u.z * t.x - u.x * t.z, u.x * t.y - u.y * t.x)
            let bx = (h.x * h.x + h.y * h.y).squareRoot()
            let bz = h.z
            let f4 = 2 * bx * (0.5 - y * y - z * z) + 2 * bz * (x * z - w * y) - m.x
            let f5 = 2 * bx * (x * y - w * z) + 2 * bz * (w * x + y * z) - m.y
            let f6 = 2 * bx * (w * y + x * z) + 2 * bz * (0.5 - x * x - y * y) - m.z
            let bx2 = 2 * bx, bz2 = 2 * bz
            let gw = -bz2 * y * f4 + (bz2 * x - bx2 * z) * f5 + bx2 * y * f6
            let gx = bz2 * z * f4 + (bx2 * y + bz2 * w) * f5 + (bx2 * z - 2 * bz2 * x) * f6
            let gy = (-2 * bx2 * y - bz2 * w) * f4 + (bx2 * x + bz2 * z) * f5 + (bx2 * w - 2 * bz2 * y) * f6
            let gz = (bz2 * x - 2 * bx2 * z) * f4 + (bz2 * y - bx2 * w) * f5 + bx2 * x * f6
            gradient += SIMD4(gw, gx, gy, gz)
        }
        let norm2 = (gradient * gradient).sum()
        gradient = norm2.isNormal ? gradient * (1 / norm2.squareRoot()) : .zero
    }
    let qDot = hamilton(q, SIMD4(0, gyroscope.x, gyroscope.y, gyroscope.z)) * 0.5 - beta * gradient
    let next = q + qDot * dt
    q = next * (1 / (next * next).sum().squareRoot())
}

func registerSameModuleBaselines() {
    for nineD in [false, true] {
        Benchmark("Baseline.handWrittenMadgwick\(nineD ? "9D" : "6D").Double") {
            (benchmark: Benchmark, state: FilterState<MadgwickFilter<Double>>) in
            let recording = state.recording
            let periods = recording.periods
            let gyroscope = recording.gyroscope
            let accelerometer = recording.accelerometer
            let magnetometer = recording.magnetometer
            // The library initializes from the first sample; start both from the same attitude.
            let start = AttitudeInitializer.nwu(
                accelerometer: accelerometer[0], magnetometer: nineD ? magnetometer[0] : nil)!
            for _ in 0..<passes(benchmark, samples: recording.count) {
                var q = start.components
                if nineD {
                    for index in 1..<recording.count {
                        handMadgwickStep(
                            &q, gyroscope: gyroscope[index], accelerometer: accelerometer[index],
                            magnetometer: magnetometer[index], dt: periods[index])
                    }
                } else {
                    for index in 1..<recording.count {
                        handMadgwickStep(
                            &q, gyroscope: gyroscope[index], accelerometer: accelerometer[index],
                            magnetometer: nil, dt: periods[index])
                    }
                }
                blackHole(q)
            }
        } setup: {
            FilterState(prototype: MadgwickFilter<Double>(), seed: 100)
        }
    }
}

// MARK: - Many streams

/// Streams and steps per block of the many-stream benchmarks: 160 × 125 = 20,000 samples per block
/// (fits in L2 for Float and Double, 6D and 9D), 50 blocks per 10⁶-sample iteration.
let manyStreamCount = 160
let manyStreamSteps = 125

/// The many-stream engine's state for a benchmark: the block of samples (stream s is the recording
/// started at sample 61 s) and the engine, initialized by one pass.
final class ManyStreamState<Lanes: FusionLanes> {
    let samples: MultiStreamSamples<Lanes>
    var engine: MadgwickStreams<Lanes>

    init(nineD: Bool, seed: UInt64) {
        let recording = Recording<Lanes.Scalar>(count: sampleCount, seed: seed)
        var samples = MultiStreamSamples<Lanes>(
            streamCount: manyStreamCount, stepCount: manyStreamSteps, hasMagnetometer: nineD)
        for s in 0..<manyStreamCount {
            for t in 0..<manyStreamSteps {
                let i = 1 + (t + 61 * s) % (recording.count - 1)
                samples.set(
                    stream: s, step: t, gyroscope: recording.gyroscope[i],
                    accelerometer: recording.accelerometer[i],
                    magnetometer: nineD ? recording.magnetometer[i] : nil, dt: recording.periods[i])
            }
        }
        self.samples = samples
        engine = MadgwickStreams<Lanes>(streamCount: manyStreamCount)
        engine.process(samples)
    }
}

/// `MadgwickStreams.{6D,9D}.lanesN.Scalar`: the many-stream engine on one core, 160 streams,
/// blocks of 125 steps processed over and over (the state carries on, as in a long run).
func registerManyStreamBenchmark<Lanes: FusionLanes>(_: Lanes.Type, suffix: String) {
    for nineD in [false, true] {
        Benchmark("MadgwickStreams.\(nineD ? "9D" : "6D").lanes\(Lanes.scalarCount).\(suffix)") {
            (benchmark: Benchmark, state: ManyStreamState<Lanes>) in
            for _ in 0..<passes(benchmark, samples: manyStreamCount * manyStreamSteps) {
                state.engine.process(state.samples)
            }
            blackHole(state.engine.quaternion(stream: 0))
        } setup: {
            ManyStreamState<Lanes>(nineD: nineD, seed: 100)
        }
    }
}

/// Consecutive blocks of steps the default filter's engine cycles through (8 × 125 steps: 10 s of
/// each stream), so that its rest detector and correction steps see continuous motion rather than
/// one block over and over.
let inertialStreamBlocks = 8

/// The default filter's many-stream engine for a benchmark: `inertialStreamBlocks` consecutive
/// blocks of samples (stream s is the recording started at sample 61 s), cycled, and the engine,
/// initialized by one pass over them.
final class InertialStreamState<Lanes: FusionLanes> {
    let blocks: [MultiStreamSamples<Lanes>]
    var engine: InertialFrameStreams<Lanes>
    var next = 0

    init(nineD: Bool, seed: UInt64) {
        let recording = Recording<Lanes.Scalar>(count: sampleCount, seed: seed)
        blocks = (0..<inertialStreamBlocks).map { b in
            var samples = MultiStreamSamples<Lanes>(
                streamCount: manyStreamCount, stepCount: manyStreamSteps, hasMagnetometer: nineD)
            for s in 0..<manyStreamCount {
                for t in 0..<manyStreamSteps {
                    let i = 1 + (b * manyStreamSteps + t + 61 * s) % (recording.count - 1)
                    samples.set(
                        stream: s, step: t, gyroscope: recording.gyroscope[i],
                        accelerometer: recording.accelerometer[i],
                        magnetometer: nineD ? recording.magnetometer[i] : nil, dt: recording.periods[i])
                }
            }
            return samples
        }
        engine = InertialFrameStreams<Lanes>(streamCount: manyStreamCount)
        for samples in blocks { engine.process(samples) }
    }
}

/// `InertialFrameStreams.{6D,9D}.lanesN.Scalar`: the default filter's many-stream engine on one
/// core, 160 streams, blocks of 125 steps in turn (the state carries on, as in a long run).
func registerInertialStreamBenchmark<Lanes: FusionLanes>(_: Lanes.Type, suffix: String) {
    for nineD in [false, true] {
        Benchmark("InertialFrameStreams.\(nineD ? "9D" : "6D").lanes\(Lanes.scalarCount).\(suffix)") {
            (benchmark: Benchmark, state: InertialStreamState<Lanes>) in
            for _ in 0..<passes(benchmark, samples: manyStreamCount * manyStreamSteps) {
                state.engine.process(state.blocks[state.next])
                state.next = (state.next + 1) % state.blocks.count
            }
            blackHole(state.engine.filter(stream: 0).quaternion)
        } setup: {
            InertialStreamState<Lanes>(nineD: nineD, seed: 100)
        }
    }
}
