import Foundation
import Testing

@testable import MotionFusionCore

/// RestDetector, shared by InertialFrameFilter and GyroscopeBiasEstimator: its stillness timer, and
/// both owners' rules on a hand-built signal whose rest starts and ends at known samples.
@Suite("RestDetector")
struct RestDetectorTests {
    /// Rest is declared once stillness has lasted the minimum duration, and any motion ends it.
    @Test func stillnessTimer() {
        var detector = RestDetector<Double>()
        let dt = 0.25
        for i in 1...6 {
            let resting = detector.hold(still: true, dt: dt, minimumDuration: 1.5)
            #expect(resting == (Double(i) * dt >= 1.5) && detector.isResting == resting)
        }
        let moving = detector.hold(still: false, dt: dt, minimumDuration: 1.5)
        #expect(!moving && detector.stillTime == 0)
        let again = detector.hold(still: true, dt: dt, minimumDuration: 1.5)
        #expect(!again)
        detector.interrupt()
        #expect(detector.stillTime == 0 && !detector.isResting)
        let immediate = detector.hold(still: true, dt: dt, minimumDuration: 0)
        #expect(immediate)
    }

    /// A still sensor (constant bias, gravity) for 4 s at 8 Hz, then a turn of 0.2 rad/s: with a
    /// minimum duration of 1.5 s (12 samples of 0.125 s) the filter declares rest at its 12th
    /// update after initialization, and ends it at the first turning sample.
    @Test func filterRestOnAHandBuiltSignal() {
        var settings = InertialFrameFilter<Double>.Settings()
        settings.restMinimumDuration = 1.5
        var filter = InertialFrameFilter<Double>(settings: settings)
        let bias = SIMD3<Double>(0.01, -0.005, 0.002)
        let gravity = SIMD3<Double>(0.3, -0.2, 9.8)
        filter.update(gyroscope: bias, accelerometer: gravity, magnetometer: nil, dt: 0.125)  // initializes
        for i in 1...32 {
            filter.update(gyroscope: bias, accelerometer: gravity, magnetometer: nil, dt: 0.125)
            #expect(filter.isRestDetected == (i >= 12), "update \(i)")
        }
        filter.update(gyroscope: bias + SIMD3(0, 0, 0.2), accelerometer: gravity, magnetometer: nil, dt: 0.125)
        #expect(!filter.isRestDetected)
    }

    /// The same signal through GyroscopeBiasEstimator, whose first sample only seeds: rest at its
    /// 13th sample, the estimate then the low-passed rate (here the bias itself), ended by the turn.
    @Test func biasEstimatorRestOnAHandBuiltSignal() {
        var estimator = GyroscopeBiasEstimator<Double>()
        let bias = SIMD3<Double>(0.01, -0.005, 0.002)
        let gravity = SIMD3<Double>(0.3, -0.2, 9.8)
        for i in 1...33 {
            estimator.update(gyroscope: bias, accelerometer: gravity, dt: 0.125)
            #expect(estimator.isResting == (i >= 13), "sample \(i)")
        }
        #expect(estimator.bias.indices.allSatisfy { abs(estimator.bias[$0] - bias[$0]) < 1e-15 })
        estimator.update(gyroscope: bias + SIMD3(0, 0, 0.2), accelerometer: gravity, dt: 0.125)
        #expect(!estimator.isResting && estimator.restDuration == 0)
    }

    /// The filter's low-pass rate limit is its largest component (≤ biasLimit), the estimator's the
    /// Euclidean length (< maximumBias): a steady (1.5, 1.5, 1.5)°/s turn is rest for the filter
    /// with biasLimit 2°/s (largest 1.5°/s) but not for an estimator with maximumBias 2°/s
    /// (length 2.6°/s).
    @Test func theTwoRateLimitsDiffer() {
        let degree = Double.pi / 180
        let rate = SIMD3<Double>(repeating: 1.5 * degree)
        let gravity = SIMD3<Double>(0, 0, 9.81)
        var filter = InertialFrameFilter<Double>()
        var estimatorSettings = GyroscopeBiasEstimator<Double>.Settings()
        estimatorSettings.maximumBias = 2 * degree
        var estimator = GyroscopeBiasEstimator<Double>(settings: estimatorSettings)
        for _ in 0..<40 {
            filter.update(gyroscope: rate, accelerometer: gravity, magnetometer: nil, dt: 0.125)
            estimator.update(gyroscope: rate, accelerometer: gravity, dt: 0.125)
        }
        #expect(filter.isRestDetected)
        #expect(!estimator.isResting)
    }
}
