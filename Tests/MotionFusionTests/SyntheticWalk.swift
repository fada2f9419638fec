import Foundation

@testable import MotionFusionCore
@testable import MotionFusionSimulation
import RealModule

/// A walk whose steps are known: the phone at rest in a random orientation for a second, then
/// `count` steps — each a vertical half-sine jolt of `amplitude` m/s² lasting `width` s centred on
/// the step's time, at a period that varies by ±3 % — then three seconds at rest; sensor noise
/// 0.05 m/s² per axis. Sampled at `rate` Hz, each timestamp moved by up to `jitter` of a period.
struct SyntheticWalk {
    var timestamps: [Double] = []
    var readings: [SIMD3<Double>] = []
    var steps: [Double] = []

    init(
        rate: Double, jitter: Double = 0, count: Int = 60, period: Double = 0.55, amplitude: Double = 3,
        width: Double = 0.1, seed: UInt64 = 1, weakAmplitude: Double? = nil
    ) {
        var random = TestRandom(seed: seed)
        let up = random.rotation().act(on: SIMD3(0, 0, 1))
        var t = 1.0
        for _ in 0..<count {
            steps.append(t)
            t += period * (1 + random.uniform(-0.03, 0.03))
        }
        let end = steps.last! + 3
        let dt = 1 / rate
        var k = 0.0
        while k * dt < end {
            let time = (k + random.uniform(-jitter, jitter)) * dt
            var jolt = 0.0
            for (n, s) in steps.enumerated() where abs(time - s) < width / 2 {
                // Every other step from the tenth on weaker, when asked: the stride's other foot.
                let a = n >= 10 && n % 2 == 1 ? (weakAmplitude ?? amplitude) : amplitude
                jolt += a * Double.sin(.pi * (time - s + width / 2) / width)
            }
            timestamps.append(time)
            readings.append(up * (9.81 + jolt) + 0.05 * random.gaussianVector())
            k += 1
        }
    }

    /// The steps a detector reports over the whole walk, in order.
    func detect<S: FusionScalar>(_ detector: inout StepDetector<S>) -> [Double] {
        var found: [Double] = []
        for (t, a) in zip(timestamps, readings) {
            if detector.update(timestamp: t, acceleration: SIMD3<S>(a)) > 0 { found += detector.newStepTimes }
        }
        if detector.finish() > 0 { found += detector.newStepTimes }
        return found
    }
}
