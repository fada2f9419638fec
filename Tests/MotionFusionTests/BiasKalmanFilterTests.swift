import Foundation
import Testing

@testable import MotionFusionCore
import MotionFusionSimulation

/// BiasKalmanFilter, InertialFrameFilter's bias-and-sensitivity estimator: single steps whose
/// covariance and state follow by hand from the scalar Kalman equations (the measurements here
/// touch one axis each, so the 6 × 6 update decouples).
private func square(_ x: Double) -> Double { x * x }

@Suite("BiasKalmanFilter")
struct BiasKalmanFilterTests {
    typealias Settings = InertialFrameFilter<Double>.Settings
    typealias StepGains = InertialFrameFilter<Double>.StepGains

    /// The prior is diag(σ_b², σ_b², σ_b², σ_k², σ_k², σ_k²); the rate is corrected as (ω − b̂) / (1 + k̂).
    @Test func priorAndCorrectedRate() {
        let settings = Settings()
        var kalman = BiasKalmanFilter<Double>(settings: settings)
        let d = kalman.covariance.diagonal
        let s0 = settings.biasInitialSigma * settings.biasInitialSigma
        let k0 = settings.gyroscopeScaleUncertainty * settings.gyroscopeScaleUncertainty
        #expect(d == SIMD8(s0, s0, s0, k0, k0, k0, 0, 0))
        kalman.setBias(SIMD3(0.1, 0.2, 0.3), sigma: 0.01)
        kalman.scaleError = SIMD3(0.5, 0, -0.5)
        kalman.inverseScale = 1 / (1 + kalman.scaleError)
        #expect(kalman.covariance.diagonal == SIMD8(1e-4, 1e-4, 1e-4, k0, k0, k0, 0, 0))
        #expect(kalman.correctedRate(SIMD3(1.6, 0.2, -0.2)) == SIMD3(1, 0, -1))
    }

    /// One rest step: the prior variance s0 (at its ceiling, so the growth is cut), the measurement
    /// variance w = max(white, σ_r⁴ / V + σ_r²) (V the growth per step, white the variance of the
    /// mean handed in, which covers one step), gain K = s0 / (s0 + w): the bias moves to K r and its variance to
    /// s0 w / (s0 + w); the sensitivity is untouched. Twice: a mean of many quiet samples (the floor
    /// σ_r applies) and one of a few noisy samples (its own variance applies).
    @Test(arguments: [1e-12, 1e-4])
    func restStepByHand(white: Double) {
        var settings = Settings()
        settings.estimatesBiasInMotion = false
        var kalman = BiasKalmanFilter<Double>(settings: settings)
        let interval = 0.1
        let rate = SIMD3<Double>(0.004, -0.002, 0.001)
        kalman.step(
            interval: interval, rateSum: .zero, sixD: .identity, restMeasurement: (rate, white, interval),
            accCorrectionRate: nil, headingCorrectionRate: nil,
            accelerometerLowPass: StepGains(settings: settings, dt: interval).acc, headingGain: StepGains(settings: settings, dt: interval).mag)
        let s0 = square(0.5 * .pi / 180)
        let k0 = 0.003 * 0.003
        let growth = square(0.1 * .pi / 180) / 100 * interval
        let r2 = square(0.03 * .pi / 180)
        let floor = r2 * r2 / growth + r2  // 2.5e-5 rad²/s², (0.28°/s)²
        let w = max(white, floor)
        #expect((w == floor) == (white < floor))
        let gain = s0 / (s0 + w)
        let posterior: Double = s0 * w / (s0 + w)
        let diagonal = kalman.covariance.diagonal
        for i in 0..<3 {
            let expectedBias: Double = gain * rate[i]
            #expect(abs(kalman.bias[i] - expectedBias) < 1e-12 * abs(rate[i]))
            #expect(abs(diagonal[i] - posterior) < 1e-9 * posterior)
            #expect(diagonal[3 + i] == k0)
        }
        #expect(kalman.scaleError == .zero)
    }

    /// rᵀ P_b r for the bias block P_b = [[4, 1, 0.5], [1, 3, 0.2], [0.5, 0.2, 2]] and
    /// r = (1, 2, 2) / 3: (4 + 4·3 + 4·2 + 2·2·1 + 2·2·0.5 + 2·4·0.2) / 9 = 31.6 / 9; the
    /// bias–sensitivity covariances (7) do not enter; a rounding below zero reads 0, NaN stays NaN.
    @Test func biasVarianceAlongAVector() {
        var kalman = BiasKalmanFilter<Double>(settings: Settings())
        let bias: [[Double]] = [[4, 1, 0.5], [1, 3, 0.2], [0.5, 0.2, 2]]
        for i in 0..<3 {
            for j in 0..<3 { kalman.covariance[i, j] = bias[i][j] }
            for j in 3..<6 { kalman.covariance[i, j] = 7 }
        }
        let r = SIMD3<Double>(1, 2, 2) / 3
        #expect(abs(kalman.biasVariance(along: r) - 31.6 / 9) < 1e-14)
        #expect(kalman.biasVariance(along: SIMD3(0, 0, 1)) == 2)
        kalman.covariance = Covariance6(diagonal: SIMD8(-1e-30, 0, 0, 1, 1, 1, 0, 0))
        #expect(kalman.biasVariance(along: SIMD3(1, 0, 0)) == 0)
        kalman.covariance = Covariance6(diagonal: SIMD8(.nan, 0, 0, 1, 1, 1, 0, 0))
        #expect(kalman.biasVariance(along: SIMD3(1, 0, 0)).isNaN)
    }

    /// A rest whose mean has a component beyond biasLimit is a steady turn: not measured. Within
    /// it, a 5.7°/s bias (a raw iPhone gyroscope's) is measured in full, not clipped at 2°/s as
    /// before.
    @Test func restBeyondTheBiasLimitIsRefused() {
        var settings = Settings()
        settings.estimatesBiasInMotion = false
        let limit = settings.biasLimit
        #expect(abs(limit - 10 * Double.pi / 180) < 1e-15)
        func rested(_ mean: SIMD3<Double>) -> BiasKalmanFilter<Double> {
            var kalman = BiasKalmanFilter<Double>(settings: settings)
            for _ in 0..<10 {
                kalman.step(
                    interval: 0.1, rateSum: .zero, sixD: .identity, restMeasurement: (mean, 1e-6, 0.1),
                    accCorrectionRate: nil, headingCorrectionRate: nil,
                    accelerometerLowPass: StepGains(settings: settings, dt: 0.1).acc,
                    headingGain: StepGains(settings: settings, dt: 0.1).mag)
            }
            return kalman
        }
        let turning = rested(SIMD3(0, 1.01 * limit, 0))
        #expect(turning.bias == .zero)
        #expect(turning.covariance.diagonal[1] == square(settings.biasInitialSigma))
        let raw = SIMD3<Double>(0, -5.7, 0.26) * (.pi / 180)
        let phone = rested(raw)
        // Ten measurements at the floor variance w = 2.47e-5 (their own, 1e-6, is smaller) against
        // the prior (0.5°/s)² = 7.6e-5: the bias is n s0 / (w + n s0) = 0.968 of the mean.
        for i in 1...2 {
            let fraction = phone.bias[i] / raw[i]
            #expect(fraction > 0.96 && fraction < 0.975, "\(i): \(fraction)")
        }
    }

    /// One motion step level and not turning (R = I, ω = 0, so the sensitivity rows are zero): an
    /// inclination correction rate c is explained by a bias −c in x and y, with the scalar gain
    /// s0 / (s0 + v_m), v_m from biasMotionSigma (no accelerometer error seen yet); z, which nothing
    /// observes in 6D, keeps its estimate (zero) and its variance (the prior, at its ceiling).
    @Test func motionStepByHand() {
        let settings = Settings()
        var kalman = BiasKalmanFilter<Double>(settings: settings)
        let interval = 0.1
        let c = SIMD2<Double>(0.003, -0.001)
        kalman.step(
            interval: interval, rateSum: .zero, sixD: .identity, restMeasurement: nil,
            accCorrectionRate: c, headingCorrectionRate: nil,
            accelerometerLowPass: StepGains(settings: settings, dt: interval).acc, headingGain: StepGains(settings: settings, dt: interval).mag)
        let s0 = square(0.5 * .pi / 180)
        let growth = square(0.1 * .pi / 180) / 100 * interval
        let m2 = square(0.1 * .pi / 180)
        let vm = m2 * m2 / growth + m2
        let gain: Double = s0 / (s0 + vm)
        let expected: SIMD2<Double> = -gain * c
        let horizontal: Double = s0 * vm / (s0 + vm)
        let vertical: Double = s0
        let diagonal = kalman.covariance.diagonal
        #expect(abs(kalman.bias.x - expected.x) < 1e-12 * c.x)
        #expect(abs(kalman.bias.y - expected.y) < 1e-12 * abs(c.y))
        #expect(kalman.bias.z == 0)
        #expect(abs(diagonal[0] - horizontal) < 1e-9 * s0)
        #expect(abs(diagonal[2] - vertical) < 1e-9 * s0)
        #expect(kalman.scaleError == .zero)
    }

    /// The gravity norm is seeded after the fast start by the first norm, then follows with gain
    /// 1 − exp(−T / biasForgettingTime), and the squared deviation with 1 − exp(−T / τ_a).
    @Test func gravityNormTracking() {
        let settings = Settings()
        let gains = StepGains(settings: settings, dt: 0.1)
        var kalman = BiasKalmanFilter<Double>(settings: settings)
        kalman.trackGravityNorm(SIMD3(0, 0, 9), interval: 0.1, starting: true, accelerometerGain: gains.accFirstOrder)
        #expect(kalman.gravityNorm == 0 && kalman.filteredAcc == SIMD3(0, 0, 9))
        kalman.trackGravityNorm(SIMD3(0, 6, 8), interval: 0.1, starting: false, accelerometerGain: gains.accFirstOrder)
        #expect(kalman.gravityNorm == 10)
        kalman.trackGravityNorm(SIMD3(0, 0, 10.5), interval: 0.1, starting: false, accelerometerGain: gains.accFirstOrder)
        #expect(abs(kalman.gravityNorm - (10 + 0.5 * (1 - exp(-0.1 / 100)))) < 1e-14)
        #expect(abs(kalman.gravityNormDeviation2 - 0.25 * (1 - exp(-0.1 / 4))) < 1e-15)
        kalman.restartMeasurements()
        #expect(kalman.gravityNorm == 0 && kalman.gravityNormDeviation2 == 0 && !kalman.lowPassSeeded)
    }

    /// The covariance is kept in the filter's own precision. Float and Double estimators fed the
    /// same 6000 correction steps (10 minutes at 0.1 s: rest, then motion with the device turning,
    /// 9D and 6D, inputs made in Double and rounded to Float once) keep the same covariance: every
    /// variance within 1e-3 of Double's (relative; measured: 2.4e-5 at most), every variance
    /// positive, the bias within 1e-5 rad/s. Two whole filters in two precisions follow slightly
    /// different trajectories, which also make different covariances; this isolates the arithmetic.
    @Test func floatCovarianceFollowsDouble() {
        func run<S: FusionScalar>(_: S.Type) -> (BiasKalmanFilter<S>, smallest: Double) {
            let settings = InertialFrameFilter<S>.Settings()
            var kalman = BiasKalmanFilter<S>(settings: settings)
            let interval = 0.1
            let gains = InertialFrameFilter<S>.StepGains(settings: settings, dt: S(interval))
            var random = SplitMix64(seed: 42)
            let trueBias = SIMD3<Double>(0.004, -0.003, 0.002)
            var attitude = Quaternion<Double>.identity
            var smallest = Double.infinity
            for k in 0..<6000 {
                let t = Double(k) * interval
                let resting = t < 60 || (t >= 300 && t < 330)
                let rate = resting ? SIMD3<Double>.zero
                    : SIMD3(0.8 * sin(0.7 * t), 0.5 * cos(0.3 * t), 0.6 + 0.4 * sin(0.11 * t))
                attitude = (attitude * Quaternion(rotationVector: rate * interval)).normalized()
                func noise(_ sigma: Double) -> Double { sigma * (Double.random(in: -1...1, using: &random)) }
                let restRate = trueBias + SIMD3(noise(1e-4), noise(1e-4), noise(1e-4))
                let correction = SIMD2(noise(2e-3), noise(2e-3))
                let heading = k % 2 == 0 ? noise(1e-3) : nil  // 9D and 6D steps
                kalman.trackGravityNorm(
                    SIMD3<S>(SIMD3(noise(0.05), noise(0.05), 9.81 + noise(0.05))), interval: S(interval),
                    starting: k < 40, accelerometerGain: gains.accFirstOrder)
                kalman.step(
                    interval: S(interval), rateSum: SIMD3<S>(rate * interval), sixD: Quaternion<S>(attitude),
                    restMeasurement: resting ? (SIMD3<S>(restRate), S(1e-8), S(interval)) : nil,
                    accCorrectionRate: resting ? nil : SIMD2<S>(correction), headingCorrectionRate: heading.map { S($0) },
                    accelerometerLowPass: gains.acc, headingGain: gains.mag)
                let d = kalman.covariance.diagonal
                for i in 0..<6 { smallest = min(smallest, Double(d[i])) }
            }
            return (kalman, smallest)
        }
        let (single, smallestSingle) = run(Float.self)
        let (double, smallestDouble) = run(Double.self)
        #expect(smallestSingle > 0 && smallestDouble > 0, "smallest variance: Float \(smallestSingle), Double \(smallestDouble)")
        let f = single.covariance.diagonal
        let d = double.covariance.diagonal
        for i in 0..<6 {
            let relative = abs(Double(f[i]) - d[i]) / d[i]
            #expect(relative < 1e-3, "variance \(i): Float \(f[i]), Double \(d[i])")
        }
        let biasDifference = SIMD3<Double>(single.bias) - double.bias
        #expect(biasDifference.max() < 1e-5 && biasDifference.min() > -1e-5, "\(biasDifference)")
        // Not a test that cannot fail: the estimates did move (the bias toward the true one).
        #expect(abs(double.bias.x - 0.004) < 0.002, "\(double.bias)")
    }
}
