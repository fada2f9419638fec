import Testing

@testable import MotionFusionCore

/// Two parts of ``InertialFrameFilter`` on hand-made inputs: the accelerometer's low-pass in I with
/// its start-up, and the heading's start-up. Expected values are worked out here: running means by
/// hand, the Butterworth step from its difference equation.
@Suite("Inertial filter parts")
struct InertialFilterPartsTests {
    /// For the first τ_a seconds the output is the running mean of the averages (time-weighted);
    /// after that, the second-order Butterworth continues from the steady state of that mean, and a
    /// restart begins a new mean from the next average.
    @Test func accelerometerLowPassStartsAsARunningMeanThenFilters() {
        let tau = 1.0, interval = 0.25
        let filter = ButterworthLowPass<Double>(tau: tau, dt: interval)
        var lowPass = InertialAccelerometerLowPass<Double>()
        let inputs: [SIMD3<Double>] = [
            SIMD3(0, 0, 9), SIMD3(0, 2, 10), SIMD3(1, 0, 11), SIMD3(-1, 0, 10), SIMD3(0, 0, 12), SIMD3(0, 0, 8),
        ]
        // Steps 1–4 cover 1 s = τ_a: the output is the mean of the inputs so far.
        var sum = SIMD3<Double>.zero
        for k in 0..<4 {
            sum += inputs[k]
            let out = lowPass.step(inputs[k], interval: interval, filter: filter, timeConstant: tau)
            let mean = sum / Double(k + 1)
            #expect(((out - mean) * (out - mean)).sum() < 1e-24, "step \(k + 1): \(out) against \(mean)")
            #expect(lowPass.isStarting == (k < 3), "step \(k + 1)")
        }
        // Then y = b0 x + z1; z1' = 2 b0 x − a1 y + z2; z2' = b0 x − a2 y, from the steady state of the
        // mean m: z2 = (b0 − a2) m, z1 = (2 b0 − a1) m + z2 (y = m for x = m).
        let m = sum / 4
        var z2 = (filter.b0 - filter.a2) * m
        var z1 = (2 * filter.b0 - filter.a1) * m + z2
        for k in 4..<6 {
            let x = inputs[k]
            let y = filter.b0 * x + z1
            z1 = 2 * filter.b0 * x - filter.a1 * y + z2
            z2 = filter.b0 * x - filter.a2 * y
            let out = lowPass.step(x, interval: interval, filter: filter, timeConstant: tau)
            #expect(((out - y) * (out - y)).sum() < 1e-24, "step \(k + 1)")
            #expect(!lowPass.isStarting)
        }
        lowPass.restart()
        let first = lowPass.step(SIMD3(3, 0, 9), interval: interval, filter: filter, timeConstant: tau)
        #expect(first == SIMD3(3, 0, 9) && lowPass.isStarting)
        let second = lowPass.step(SIMD3(5, 0, 9), interval: interval, filter: filter, timeConstant: tau)
        #expect(second == SIMD3(4, 0, 9))
    }

    /// The first field sets the heading (gain 1); during τ_m the N-th counted field has gain at least
    /// 1/N, an uncounted one (disturbed against a reference) keeps the usual gain and does not count;
    /// after τ_m the step is nominal and the gain is the usual one. An attitude given to the filter
    /// has a heading: no start-up.
    @Test func headingStartUpAveragesForTheTimeConstant() {
        var startUp = HeadingStartUp<Double>()
        let usual = 0.01, tau = 1.0, interval = 0.25
        var gain = usual
        #expect(!startUp.adjust(gain: &gain, interval: interval, counts: true, timeConstant: tau))
        #expect(gain == 1)
        let expected: [(counts: Bool, gain: Double, nominal: Bool)] = [
            (true, 1.0 / 2, false),  // t = 0.25
            (false, usual, false),  // 0.5: not counted
            (true, 1.0 / 3, false),  // 0.75
            (true, 1.0 / 4, false),  // 1.0: the start-up ends with this step
            (true, usual, true),
        ]
        for (k, step) in expected.enumerated() {
            gain = usual
            let nominal = startUp.adjust(gain: &gain, interval: interval, counts: step.counts, timeConstant: tau)
            #expect(gain == step.gain && nominal == step.nominal, "step \(k + 1): gain \(gain)")
        }
        // A larger usual gain wins over 1/N.
        startUp.seedFromField()
        gain = 0.9
        #expect(!startUp.adjust(gain: &gain, interval: interval, counts: true, timeConstant: tau))
        #expect(gain == 0.9)
        // A given attitude: nominal at once; a restart waits for a field again.
        startUp.seedFromAttitude()
        gain = usual
        #expect(startUp.adjust(gain: &gain, interval: interval, counts: true, timeConstant: tau) && gain == usual)
        startUp.restart()
        #expect(!startUp.adjust(gain: &gain, interval: interval, counts: false, timeConstant: tau) && gain == 1)
    }
}
