import Foundation
import MotionFusionCore
import RealModule

/// A seeded simulator of IMU recordings with exact ground truth.
public enum SyntheticMotion {
    /// What to simulate. Every quantity is in the library's units.
    ///
    /// The valid ranges (``validate(memoryLimit:)`` checks them; ``SyntheticMotion/generate(_:)``
    /// throws ``SimulationError`` outside them):
    ///
    /// | setting | range |
    /// |---|---|
    /// | `sampleRate` | 0.001 Hz to 1 MHz |
    /// | `duration` | finite, ≥ 0 s, at most 2⁵³ samples; the recording must fit in the memory limit |
    /// | `rest`, `angularRate`, `linearAcceleration`, the three noises, `gravity` | finite, ≥ 0 |
    /// | `gyroscopeBias`, `earthField` | finite components |
    ///
    /// A recording has ``sampleCount`` samples of ``SyntheticMotion/bytesPerSample`` bytes.
    public struct Settings: Sendable, Hashable, Codable {
        /// Samples per second, 0.001 to 1 000 000. Default 100.
        public var sampleRate: Double = 100
        /// Total length, s, finite and ≥ 0. Default 60.
        public var duration: Double = 60
        /// Rest at the start and at the end, s. Default 3.
        public var rest: Double = 3
        /// Typical angular rate during motion, rad/s. Default 1.5.
        public var angularRate: Double = 1.5
        /// Typical linear acceleration during motion, m/s². Default 0.5.
        public var linearAcceleration: Double = 0.5
        /// Constant gyroscope bias, rad/s. Default (0.01, −0.02, 0.015).
        public var gyroscopeBias = SIMD3<Double>(0.01, -0.02, 0.015)
        /// White noise standard deviations: gyroscope rad/s, accelerometer m/s², magnetometer µT.
        public var gyroscopeNoise: Double = 0.005
        /// See ``gyroscopeNoise``.
        public var accelerometerNoise: Double = 0.05
        /// See ``gyroscopeNoise``.
        public var magnetometerNoise: Double = 0.3
        /// The earth's field in ENU, µT. Default (0, 20, −45): 20 µT north, 45 µT down.
        public var earthField = SIMD3<Double>(0, 20, -45)
        /// Gravity, m/s².
        public var gravity: Double = 9.80665
        /// The random seed: the same settings always give the same recording.
        public var seed: UInt64 = 1

        /// The defaults.
        public init() {}

        /// The number of samples ``SyntheticMotion/generate(_:)`` makes: duration × sampleRate,
        /// rounded, at least 1. Nil when `sampleRate` or `duration` is out of range (see
        /// ``validate(memoryLimit:)``).
        public var sampleCount: Int? {
            try? checkedSampleCount()
        }

        /// Checks every setting against its range (see the table above) and the memory the
        /// recording takes, ``sampleCount`` × ``SyntheticMotion/bytesPerSample``, against
        /// `memoryLimit`. Allocates nothing.
        ///
        /// - Parameter memoryLimit: bytes; by default the machine's physical memory.
        /// - Throws: ``SimulationError/outOfRange(setting:value:range:)`` naming the first setting
        ///   out of range, or ``SimulationError/tooManySamples(count:bytesPerSample:bytes:limit:)``.
        public func validate(
            memoryLimit: Int = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        ) throws(SimulationError) {
            let count = try checkedSampleCount()
            try SimulationLimits.nonNegative(rest, "rest", unit: "s")
            try SimulationLimits.nonNegative(angularRate, "angularRate", unit: "rad/s")
            try SimulationLimits.nonNegative(linearAcceleration, "linearAcceleration", unit: "m/s²")
            try SimulationLimits.finite(gyroscopeBias, "gyroscopeBias")
            try SimulationLimits.nonNegative(gyroscopeNoise, "gyroscopeNoise", unit: "rad/s")
            try SimulationLimits.nonNegative(accelerometerNoise, "accelerometerNoise", unit: "m/s²")
            try SimulationLimits.nonNegative(magnetometerNoise, "magnetometerNoise", unit: "µT")
            try SimulationLimits.finite(earthField, "earthField")
            try SimulationLimits.nonNegative(gravity, "gravity", unit: "m/s²")
            try SimulationLimits.memory(count: count, bytesPerSample: SyntheticMotion.bytesPerSample, limit: memoryLimit)
        }

        func checkedSampleCount() throws(SimulationError) -> Int {
            try SimulationLimits.sampleRate(sampleRate)
            try SimulationLimits.nonNegative(duration, "duration", unit: "s")
            return try SimulationLimits.sampleCount(
                (duration * sampleRate).rounded(), duration: duration, rate: sampleRate, setting: "duration")
        }
    }

    /// The memory one sample of a recording takes: a timestamp, gyroscope, accelerometer and
    /// magnetometer vectors, the true attitude and the `scored` flag (137 bytes on 64-bit platforms).
    public static let bytesPerSample =
        MemoryLayout<Double>.stride + 3 * MemoryLayout<SIMD3<Double>>.stride + MemoryLayout<Quaternion<Double>>.stride
        + MemoryLayout<Bool>.stride

    /// Simulates a recording with the default ``Settings`` (6000 samples, 60 s at 100 Hz). The
    /// defaults are in range, so this cannot fail.
    public static func generate() -> IMURecording {
        let settings = Settings()
        return make(settings, count: max(1, Int((settings.duration * settings.sampleRate).rounded())))
    }

    /// Simulates a recording (truth sensor → ENU, `scored` true inside the motion phase): a smooth
    /// random rotation (a sum of sines per axis with random
    /// frequencies between 0.05 and 1 Hz) and a smooth linear acceleration, faded in and out between
    /// rests, integrated exactly (16 sub-steps per sample) so that the truth has no integration error
    /// worth measuring.
    ///
    /// - Throws: ``SimulationError`` when a setting is out of range or the recording would take
    ///   more than the machine's physical memory (``Settings/validate(memoryLimit:)``), before
    ///   anything is allocated.
    public static func generate(_ settings: Settings) throws(SimulationError) -> IMURecording {
        try settings.validate()
        return make(settings, count: try settings.checkedSampleCount())
    }

    /// The simulation, for valid settings and their sample count.
    static func make(_ settings: Settings, count: Int) -> IMURecording {
        var random = SplitMix64(seed: settings.seed)
        let dt = 1 / settings.sampleRate
        // Three sines per axis, for the rate and for the linear acceleration.
        func waves() -> [Wave] {
            (0..<9).map { _ in
                Wave(
                    amplitude: random.uniform(0.3, 1), frequency: 2 * .pi * random.uniform(0.05, 1),
                    phase: random.uniform(0, 2 * .pi))
            }
        }
        let rateWaves = waves()
        let accelWaves = waves()
        func sum(_ w: [Wave], _ t: Double) -> SIMD3<Double> {
            var v = SIMD3<Double>.zero
            for i in w.indices {
                v[i % 3] += w[i].amplitude * Double.sin(w[i].frequency * t + w[i].phase)
            }
            return v / 1.5
        }
        let motionEnd = settings.duration - settings.rest
        func envelope(_ t: Double) -> Double {
            // Smooth 1 s fades; zero during the rests.
            let rise = min(max((t - settings.rest) / 1, 0), 1)
            let fall = min(max((motionEnd - t) / 1, 0), 1)
            return min(rise, fall) * min(rise, fall) * (3 - 2 * min(rise, fall))
        }
        func rate(_ t: Double) -> SIMD3<Double> { sum(rateWaves, t) * (settings.angularRate * envelope(t)) }

        var timestamps: [Double] = [], gyroscope: [SIMD3<Double>] = [], accelerometer: [SIMD3<Double>] = []
        var magnetometer: [SIMD3<Double>] = [], truth: [Quaternion<Double>] = [], scored: [Bool] = []
        timestamps.reserveCapacity(count)
        gyroscope.reserveCapacity(count)
        accelerometer.reserveCapacity(count)
        magnetometer.reserveCapacity(count)
        truth.reserveCapacity(count)
        scored.reserveCapacity(count)
        var q = Quaternion<Double>(angle: random.uniform(-.pi, .pi), axis: SIMD3(0, 0, 1))
            * Quaternion(angle: random.uniform(-0.3, 0.3), axis: SIMD3(1, 0, 0))
        let substeps = 16
        for k in 0..<count {
            let t = Double(k) * dt
            let mean = k > 0 ? SyntheticMotion.integrate(&q, rate: rate, from: t - dt, duration: dt, substeps: substeps) : .zero
            let linear = sum(accelWaves, t) * (settings.linearAcceleration * envelope(t))
            let specificForce = q.inverseAct(on: linear + SIMD3(0, 0, settings.gravity))
            timestamps.append(t)
            gyroscope.append(mean + settings.gyroscopeBias + settings.gyroscopeNoise * random.gaussianVector())
            accelerometer.append(specificForce + settings.accelerometerNoise * random.gaussianVector())
            magnetometer.append(q.inverseAct(on: settings.earthField) + settings.magnetometerNoise * random.gaussianVector())
            truth.append(q)
            scored.append(t >= settings.rest && t <= motionEnd)
        }
        var recording = IMURecording()
        recording.timestamps = timestamps
        recording.gyroscope = gyroscope
        recording.accelerometer = accelerometer
        recording.magnetometer = magnetometer
        recording.truth = truth
        recording.scored = scored
        return recording
    }
}

extension SyntheticMotion {
    /// One sine of a simulated rate or acceleration: a concrete type, where a tuple in an array
    /// costs a generic-metadata lookup per access in a debug build (most of the time of the
    /// simulations that tests make).
    struct Wave {
        var amplitude: Double
        var frequency: Double  // rad/s
        var phase: Double  // rad
    }

    /// Turns `q` (body → earth) by the body rate `rate(t)` from `start` for `duration` with `substeps`
    /// midpoint steps, so that the truth has no integration error worth measuring; returns the mean
    /// rate over the interval (what an ideal gyroscope sampled at `end` reports).
    static func integrate(
        _ q: inout Quaternion<Double>, rate: (Double) -> SIMD3<Double>, from start: Double, duration: Double,
        substeps: Int
    ) -> SIMD3<Double> {
        let h = duration / Double(substeps)
        var mean = SIMD3<Double>.zero
        for s in 0..<substeps {
            let w = rate(start + (Double(s) + 0.5) * h)
            q = (q * Quaternion(rotationVector: w * h)).normalized()
            mean += w / Double(substeps)
        }
        return mean
    }
}
