import Foundation
import Testing

@testable import MotionFusionCore
import MotionFusionSimulation

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

    /// The filter's rest detector has no rate limit (its Kalman filter refuses a rest mean with a
    /// component beyond biasLimit), the estimator's is the Euclidean length (< maximumBias): a
    /// steady (1.5, 1.5, 1.5)°/s turn is rest for the filter but not for an estimator with
    /// maximumBias 2°/s (length 2.6°/s).
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

    /// The still samples' sums, by hand: the mean of the samples not yet taken, the variance of
    /// that mean, Σ|d|² / (3 n_all) / n_pending, and the still time they cover; taking empties the
    /// pending sum but keeps the noise estimate; an interruption empties both.
    @Test func stillSamplesAreAveragedByHand() {
        var detector = RestDetector<Double>()
        #expect(detector.takeMean() == nil)
        func still(_ rate: SIMD3<Double>, _ d2: Double) {
            detector.hold(still: true, dt: 0.25, minimumDuration: 0.5)
            detector.accumulate(rate, squaredDeviation: d2)
        }
        still(SIMD3(1, 2, 3), 0.3)
        #expect(detector.takeMean() == nil)  // one sample: no noise estimate yet
        still(SIMD3(3, 2, 1), 0.9)
        let first = detector.takeMean()
        #expect(first?.mean == SIMD3(2, 2, 2) && first?.duration == 0.5)
        #expect(first.map { abs($0.variance - 1.2 / 6 / 2) < 1e-15 } == true)
        still(SIMD3(4, 4, 4), 0.3)
        let second = detector.takeMean()
        #expect(second?.mean == SIMD3(4, 4, 4) && second?.duration == 0.25)
        #expect(second.map { abs($0.variance - 1.5 / 9) < 1e-15 } == true)
        #expect(detector.takeMean() == nil)
        still(SIMD3(4, 4, 4), 0.3)
        detector.interrupt()
        #expect(detector.pendingCount == 0 && detector.takenCount == 0 && detector.takenTime == 0)
        #expect(detector.deviationSum == 0 && detector.stillTime == 0)
        #expect(detector.takeMean() == nil)
    }

    /// A raw phone gyroscope (iPhone 6s: 5.7°/s about its long axis, white noise 0.4°/s per sample at
    /// 25 Hz) held still for one second, as a walker stands before setting off: the filter's
    /// default rest measures the bias to within 0.2°/s per axis before the second ends, and its
    /// σ says so. (With the 0.5 release's defaults, a 1.5-s minimum duration and a 2°/s rate
    /// limit, this rest was never declared and the bias stayed 0.)
    @Test func aSecondOfStillnessMeasuresARawPhoneBias() {
        let degree = Double.pi / 180
        let bias = SIMD3<Double>(0.0, -5.71, 0.26) * degree
        let gravity = SIMD3<Double>(0.2, 9.78, 0.5)  // upright in a pocket
        var filter = InertialFrameFilter<Double>()
        var random = SplitMix64(seed: 7)
        for _ in 0..<25 {
            let noise = random.gaussianVector() * (0.4 * degree)
            filter.update(gyroscope: bias + noise, accelerometer: gravity, magnetometer: nil, dt: 0.04)
        }
        let error = (filter.gyroscopeBias - bias) / degree
        #expect(max(abs(error.x), abs(error.y), abs(error.z)) < 0.2, "bias error \(error) °/s")
        let sigma = filter.gyroscopeBiasSigma / degree
        #expect(sigma.max() < 0.3 && sigma.min() > 0.05, "σ \(sigma) °/s")
    }
}
