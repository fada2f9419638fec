import RealModule

/// A seeded simulator of IMU recordings with exact ground truth.
public enum SyntheticMotion {
    /// What to simulate. Every quantity is in the library's units.
    public struct Settings: Sendable, Hashable, Codable {
        /// Samples per second. Default 100.
        public var sampleRate: Double = 100
        /// Total length, s. Default 60.
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
    }

    /// Simulates a recording (truth sensor → ENU, `scored` true inside the motion phase): a smooth
    /// random rotation (a sum of sines per axis with random
    /// frequencies between 0.05 and 1 Hz) and a smooth linear acceleration, faded in and out between
    /// rests, integrated exactly (16 sub-steps per sample) so that the truth has no integration error
    /// worth measuring.
    public static func generate(_ settings: Settings = Settings()) -> IMURecording {
        var random = SplitMix64(seed: settings.seed)
        let count = max(1, Int((settings.duration * settings.sampleRate).rounded()))
        let dt = 1 / settings.sampleRate
        // Three sines per axis, for the rate and for the linear acceleration.
        func waves() -> [(amplitude: Double, frequency: Double, phase: Double)] {
            (0..<9).map { _ in
                (
                    random.uniform(0.3, 1), 2 * .pi * random.uniform(0.05, 1),
                    random.uniform(0, 2 * .pi)
                )
            }
        }
        let rateWaves = waves()
        let accelWaves = waves()
        func sum(_ w: [(amplitude: Double, frequency: Double, phase: Double)], _ t: Double) -> SIMD3<Double> {
            var v = SIMD3<Double>.zero
            for (i, wave) in w.enumerated() {
                v[i % 3] += wave.amplitude * Double.sin(wave.frequency * t + wave.phase)
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

        var recording = IMURecording()
        recording.magnetometer = []
        recording.truth = []
        recording.scored = []
        var q = Quaternion<Double>(angle: random.uniform(-.pi, .pi), axis: SIMD3(0, 0, 1))
            * Quaternion(angle: random.uniform(-0.3, 0.3), axis: SIMD3(1, 0, 0))
        let substeps = 16
        for k in 0..<count {
            let t = Double(k) * dt
            let mean = k > 0 ? SyntheticMotion.integrate(&q, rate: rate, from: t - dt, duration: dt, substeps: substeps) : .zero
            let linear = sum(accelWaves, t) * (settings.linearAcceleration * envelope(t))
            let specificForce = q.inverseAct(on: linear + SIMD3(0, 0, settings.gravity))
            recording.timestamps.append(t)
            recording.gyroscope.append(
                mean + settings.gyroscopeBias + settings.gyroscopeNoise * random.gaussianVector())
            recording.accelerometer.append(
                specificForce + settings.accelerometerNoise * random.gaussianVector())
            recording.magnetometer!.append(
                q.inverseAct(on: settings.earthField) + settings.magnetometerNoise * random.gaussianVector())
            recording.truth!.append(q)
            recording.scored!.append(t >= settings.rest && t <= motionEnd)
        }
        return recording
    }
}

extension SyntheticMotion {
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
