import MotionFusion
import RealModule

/// An endless synthetic recording, made block by block: 10 s at rest, then 60 s of smooth random
/// rotation (up to about 2 rad/s) and linear acceleration, faded in and out over 1 s, over and over.
/// The sensor signals follow from the truth: the gyroscope reports the body rate at the middle of
/// each step plus a constant bias and noise, the accelerometer the specific force, the magnetometer
/// the earth field in the sensor frame, each with noise. The truth is integrated with the midpoint
/// rule (error O(dt³) per step, and the accelerometer and magnetometer are made from that same truth,
/// so they never disagree with it).
///
/// Sines are evaluated at the start of each block from the exact phase and then advanced by rotating
/// phasors, so nothing drifts however long the run.
struct EndlessMotion {
    struct Settings {
        var sampleRate = 100.0
        var rest = 10.0
        var motion = 60.0
        var angularRate = 1.5
        var linearAcceleration = 0.5
        var gyroscopeBias = SIMD3<Double>(0.01, -0.02, 0.015)
        var gyroscopeNoise = 0.005
        var accelerometerNoise = 0.05
        var magnetometerNoise = 0.3
        var earthField = SIMD3<Double>(0, 20, -45)  // µT, ENU
        var gravity = 9.80665
        var seed: UInt64 = 1
    }

    /// One block of samples (structure of arrays).
    struct Block {
        var timestamps: [Double] = []
        var gyroscope: [SIMD3<Double>] = []
        var accelerometer: [SIMD3<Double>] = []
        var magnetometer: [SIMD3<Double>] = []
        var truth: [Quaternion<Double>] = []
        /// True while the sensor moves (the samples scored for accuracy).
        var moving: [Bool] = []
        var count: Int { timestamps.count }

        mutating func removeAll() {
            timestamps.removeAll(keepingCapacity: true)
            gyroscope.removeAll(keepingCapacity: true)
            accelerometer.removeAll(keepingCapacity: true)
            magnetometer.removeAll(keepingCapacity: true)
            truth.removeAll(keepingCapacity: true)
            moving.removeAll(keepingCapacity: true)
        }
    }

    private struct Wave {
        var amplitude: Double
        var frequency: Double  // rad/s
        var phase: Double
    }

    let settings: Settings
    let dt: Double
    private let rateWaves: [Wave]
    private let accelerationWaves: [Wave]
    private var random: SplitMix64
    /// The index of the next sample.
    private(set) var index = 0
    private var q: Quaternion<Double>

    init(_ settings: Settings = Settings()) {
        self.settings = settings
        dt = 1 / settings.sampleRate
        var random = SplitMix64(seed: settings.seed)
        func waves() -> [Wave] {
            (0..<9).map { _ in
                Wave(amplitude: random.uniform(0.3, 1), frequency: 2 * .pi * random.uniform(0.05, 1),
                     phase: random.uniform(0, 2 * .pi))
            }
        }
        rateWaves = waves()
        accelerationWaves = waves()
        q = Quaternion(angle: random.uniform(-.pi, .pi), axis: SIMD3(0, 0, 1))
            * Quaternion(angle: random.uniform(-0.3, 0.3), axis: SIMD3(1, 0, 0))
        self.random = random
    }

    /// 0 at rest, 1 in motion, smoothstep fades of 1 s.
    private func envelope(_ t: Double) -> Double {
        let period = settings.rest + settings.motion
        let s = t - period * (t / period).rounded(.down) - settings.rest
        let x = min(max(min(s, settings.motion - s), 0), 1)
        return x * x * (3 - 2 * x)
    }

    /// Uniform noise with standard deviation `sigma`.
    private mutating func noise(_ sigma: Double) -> SIMD3<Double> {
        let scale = sigma * 3.0.squareRoot() * 0x1p-52
        let r = SIMD3(Double(random.next() >> 12), Double(random.next() >> 12), Double(random.next() >> 12))
        return (r * 2 - 0x1p52) * scale
    }

    /// Replaces `block`'s contents with the next `count` samples.
    mutating func fill(_ block: inout Block, count: Int) {
        block.removeAll()
        // Phasors (cos, sin) for the rate waves at step midpoints and the acceleration waves at the
        // samples, set exactly at the block's start.
        let t0 = Double(index) * dt
        var rateC = rateWaves.map { Double.cos($0.frequency * (t0 - dt / 2) + $0.phase) }
        var rateS = rateWaves.map { Double.sin($0.frequency * (t0 - dt / 2) + $0.phase) }
        let rateStepC = rateWaves.map { Double.cos($0.frequency * dt) }
        let rateStepS = rateWaves.map { Double.sin($0.frequency * dt) }
        var accC = accelerationWaves.map { Double.cos($0.frequency * t0 + $0.phase) }
        var accS = accelerationWaves.map { Double.sin($0.frequency * t0 + $0.phase) }
        let accStepC = accelerationWaves.map { Double.cos($0.frequency * dt) }
        let accStepS = accelerationWaves.map { Double.sin($0.frequency * dt) }
        let g = SIMD3<Double>(0, 0, settings.gravity)
        for _ in 0..<count {
            let t = Double(index) * dt
            var rate = SIMD3<Double>.zero
            var acceleration = SIMD3<Double>.zero
            for i in 0..<9 {
                rate[i % 3] += rateWaves[i].amplitude * rateS[i]
                acceleration[i % 3] += accelerationWaves[i].amplitude * accS[i]
                (rateC[i], rateS[i]) = (rateC[i] * rateStepC[i] - rateS[i] * rateStepS[i],
                                        rateS[i] * rateStepC[i] + rateC[i] * rateStepS[i])
                (accC[i], accS[i]) = (accC[i] * accStepC[i] - accS[i] * accStepS[i],
                                      accS[i] * accStepC[i] + accC[i] * accStepS[i])
            }
            var mid = SIMD3<Double>.zero
            if index > 0 {
                mid = rate * (settings.angularRate * envelope(t - dt / 2) / 1.5)
                q = (q * Quaternion(rotationVector: mid * dt)).normalized()
            }
            let linear = acceleration * (settings.linearAcceleration * envelope(t) / 1.5)
            block.timestamps.append(t)
            block.gyroscope.append(mid + settings.gyroscopeBias + noise(settings.gyroscopeNoise))
            block.accelerometer.append(q.inverseAct(on: linear + g) + noise(settings.accelerometerNoise))
            block.magnetometer.append(q.inverseAct(on: settings.earthField) + noise(settings.magnetometerNoise))
            block.truth.append(q)
            block.moving.append(envelope(t) > 0)
            index += 1
        }
    }
}
