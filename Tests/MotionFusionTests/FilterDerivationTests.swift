import Foundation
import Testing
import RealModule

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Filter behaviour checked against closed-form derivations where no independent implementation
/// shares the definition: the complementary filter's exponential decay, Madgwick's bias drift
/// compensation, the bias estimator.
@Suite("Filters against derivations")
struct FilterDerivationTests {
    @Test func complementaryTiltDecaysWithItsTimeConstant() {
        // At rest, flat in ENU, started with a 0.3 rad tilt about x: the error angle after n steps of
        // Δt is exactly 0.3·e^(−nΔt/τ), at any sample rate.
        for (dt, tau) in [(0.01, 1.0), (0.0035, 0.5), (0.1, 2.0)] {
            var filter = ComplementaryFilter<Double>(settings: .init(accelerometerTimeConstant: tau))
            filter.reset(to: Quaternion(angle: 0.3, axis: SIMD3(1, 0, 0)))
            let steps = Int((1.5 / dt).rounded())
            for _ in 0..<steps {
                filter.update(gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: nil, dt: dt)
            }
            let expected = 0.3 * exp(-Double(steps) * dt / tau)
            #expect(abs(filter.quaternion.angle - expected) < 1e-12, "dt \(dt), τ \(tau)")
            // The correction is a pure tilt: the axis stays x.
            #expect(abs(abs(filter.quaternion.axis.x) - 1) < 1e-12)
        }
    }

    @Test func complementaryHeadingDecaysAndLeavesTiltAlone() {
        let tau = 2.0, dt = 0.01
        var filter = ComplementaryFilter<Double>(settings: .init(magnetometerTimeConstant: tau))
        let start = Quaternion<Double>(angle: 0.5, axis: SIMD3(0, 0, 1))  // yaw error 0.5 rad
        filter.reset(to: start)
        // Truth: flat, aligned with ENU; field points north and down.
        for _ in 0..<300 {
            filter.update(gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: SIMD3(0, 20, -45), dt: dt)
        }
        let expected = 0.5 * exp(-300 * dt / tau)
        let yaw = filter.quaternion.eulerAngles(.aerospace).angles[0]
        #expect(abs(yaw - expected) < 1e-12)
        #expect(abs(filter.quaternion.axis.z - 1) < 1e-12)
    }

    @Test func complementaryHeadingDecaysWithChangingSteps() {
        // The same decay when Δt alternates between 10 and 25 ms, so that the gains and both series'
        // coefficients are recomputed at every step (stale heading coefficients would decay at the
        // other step's rate): the yaw error is 0.2·e^(−T/τ_m) for the elapsed time T.
        let tau = 1.5
        var filter = ComplementaryFilter<Double>(settings: .init(magnetometerTimeConstant: tau))
        filter.reset(to: Quaternion<Double>(angle: 0.2, axis: SIMD3(0, 0, 1)))
        var elapsed = 0.0
        for step in 0..<200 {
            let dt = step % 2 == 0 ? 0.01 : 0.025
            filter.update(gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: SIMD3(0, 20, -45), dt: dt)
            elapsed += dt
        }
        let yaw = filter.quaternion.eulerAngles(.aerospace).angles[0]
        #expect(abs(yaw - 0.2 * exp(-elapsed / tau)) < 1e-12, "\(yaw) vs \(0.2 * exp(-elapsed / tau))")
    }

    @Test func complementaryWithoutCorrectionIntegratesExactly() {
        // A constant rate for 1000 steps is one rotation by ω·T: closed form.
        var filter = ComplementaryFilter<Double>(settings: .init(accelerometerTimeConstant: .infinity, magnetometerTimeConstant: .infinity))
        filter.reset(to: .identity)
        let omega = SIMD3<Double>(0.3, -1.1, 0.7)
        for _ in 0..<1000 {
            filter.update(gyroscope: omega, accelerometer: SIMD3(0.1, 0.2, 9.8), magnetometer: nil, dt: 0.002)
        }
        #expect(filter.quaternion.angle(to: Quaternion(rotationVector: omega * 2)) < 1e-12)
    }

    /// The larger of the relative error of `sine` against sin(kθ/2)/sin θ (k/2 at θ = 0) and the
    /// error of `cosine` against cos(kθ/2), for θ = 2 asin √y, computed with libm in Double.
    static func halfAngleSeriesError(
        fraction k: Double, halfAngleSineSquared y: Double, sine: Double, cosine: Double
    ) -> Double {
        let theta = 2 * asin(y.squareRoot())
        let expectedSine = y > 0 ? sin(k * theta / 2) / sin(theta) : k / 2
        return max(
            abs(sine - expectedSine) / max(expectedSine, .leastNormalMagnitude),
            abs(cosine - cos(k * theta / 2)))
    }

    @Test func complementaryHeadingSeriesEqualsTheTrigonometry() {
        // headingRotation(halfAngleSineSquared:) (the tilt's series with the heading gain's
        // coefficients) against libm: with ψ = 2 asin √y, sin(k_m ψ/2)/sin ψ and cos(k_m ψ/2), over the
        // series' whole range (y ≤ 0.01, with small y as often) and every fraction k_m in [0, 1], with a
        // tilt gain that differs, so that mixing up the two coefficient sets fails.
        var random = SplitMix64(seed: 8)
        var worst = 0.0
        for trial in 0..<20_000 {
            let k = random.uniform(0, 1)
            let y = trial % 2 == 0 ? random.uniform(0, 0.01) : random.uniform(0, 1e-5)
            var filter = ComplementaryFilter<Double>(
                settings: .init(accelerometerTimeConstant: 0.37, magnetometerTimeConstant: 1))
            filter.refreshGains(dt: -log1p(-k))  // k_m = 1 − e^(−Δt/τ_m) = k for τ_m = 1
            #expect(!filter.headingCoefficientsCurrent)
            filter.refreshHeadingCoefficients()  // what a heading step does before it uses the series
            let (sine, cosine) = filter.headingRotation(halfAngleSineSquared: y)
            worst = max(worst, Self.halfAngleSeriesError(
                fraction: filter.gains.y, halfAngleSineSquared: y, sine: sine, cosine: cosine))
        }
        #expect(worst < 1e-15, "worst relative error \(worst)")
    }

    @Test func complementarySeriesCoefficientsEqualTheTaylorCoefficients() {
        // rotationSeriesCoefficients(gain:) against the Taylor coefficients in y of
        // sin(k asin √y)/sin(2 asin √y) and cos(k asin √y), computed independently with mpmath
        // (50 digits, numerical differentiation of the trigonometric functions, not the recurrences):
        //   taylor(lambda y: sin(k*asin(sqrt(y)))/sin(2*asin(sqrt(y))), 0, 7, singular=True)
        //   taylor(lambda y: cos(k*asin(sqrt(y))), 0, 7, singular=True)
        // Every coefficient is checked, also the last ones, whose terms are below the series tests'
        // tolerances.
        let expected: [(k: Double, sine: [Double], cosine: [Double])] = [
            (1, [0.5, 0.25, 0.1875, 0.15625, 0.13671875, 0.123046875, 0.11279296875, 0.104736328125],
             [1, -0.5, -0.125, -0.0625, -0.0390625, -0.02734375, -0.0205078125, -0.01611328125]),
            (0.5, [0.25, 0.15625, 0.123046875, 0.104736328125, 0.09273529052734375, 0.084094047546386719,
                   0.077490508556365967, 0.07223222404718399],
             [1, -0.125, -0.0390625, -0.0205078125, -0.013092041015625, -0.009273529052734375,
              -0.0070078372955322266, -0.0055350363254547119]),
            (0.01, [0.005, 0.00333325, 0.00266658333375, 0.0022856365084920625, 0.0020316737219422382,
                    0.0018469742638804693, 0.0017048981365471872, 0.0015912374489211192],
             [1, -5.0e-5, -1.666625e-5, -8.8886111125e-6, -5.7140912712301562e-6, -4.0633474438844764e-6,
              -3.0782904398007822e-6, -2.4355687664959816e-6]),
        ]
        for (k, sine, cosine) in expected {
            let (s, c) = ComplementaryFilter<Double>.rotationSeriesCoefficients(gain: k)
            let (sf, cf) = ComplementaryFilter<Float>.rotationSeriesCoefficients(gain: Float(k))
            for n in 0..<8 {
                #expect(abs(s[n] - sine[n]) <= 1e-14 * abs(sine[n]), "k \(k): s\(n) \(s[n]) vs \(sine[n])")
                #expect(abs(c[n] - cosine[n]) <= 1e-14 * abs(cosine[n]), "k \(k): c\(n) \(c[n]) vs \(cosine[n])")
                if n < 4 {  // the terms Float uses
                    #expect(abs(Double(sf[n]) - sine[n]) <= 1e-6 * abs(sine[n]), "Float k \(k): s\(n)")
                    #expect(abs(Double(cf[n]) - cosine[n]) <= 1e-6 * abs(cosine[n]), "Float k \(k): c\(n)")
                }
            }
        }
    }

    @Test func complementaryStaysUnitOverManyFastSteps() {
        // 200,000 steps on the fast paths (small rotations, tilt and heading errors within a few
        // degrees): every rotation is unit only to rounding, so without the Newton factor |q| would
        // random-walk away from 1 (about 1e-13 in Double, 1e-4 in Float here). It must stay within a
        // few ulp.
        var random = SplitMix64(seed: 21)
        var double = ComplementaryFilter<Double>(settings: .init(accelerometerTimeConstant: 0.5, frame: .nwu))
        var single = ComplementaryFilter<Float>(settings: .init(accelerometerTimeConstant: 0.5, frame: .nwu))
        double.reset(to: .identity)
        single.reset(to: .identity)
        var worst = 0.0, worstFloat = 0.0, largestTilt = 0.0
        for _ in 0..<200_000 {
            let gyro = random.gaussianVector() * 0.5
            // The specific force and field of the current attitude, a little off: corrections stay small.
            let q = double.nwuQuaternion
            let up = q.inverseAct(on: SIMD3(0, 0, 1)) + random.gaussianVector() * 0.02
            let field = q.inverseAct(on: SIMD3(20, 0, -40) + random.gaussianVector() * 0.5)
            double.update(gyroscope: gyro, accelerometer: up * 9.81, magnetometer: field, dt: 0.01)
            single.update(gyroscope: SIMD3<Float>(gyro), accelerometer: SIMD3<Float>(up * 9.81),
                          magnetometer: SIMD3<Float>(field), dt: 0.01)
            worst = max(worst, abs(double.nwuQuaternion.length - 1))
            worstFloat = max(worstFloat, abs(Double(single.nwuQuaternion.length) - 1))
            largestTilt = max(largestTilt, double.tiltError)
        }
        #expect(largestTilt < 0.2, "the steps left the fast path: tilt error \(largestTilt)")
        #expect(worst <= 4 * Double.ulpOfOne, "Double: \(worst)")
        #expect(worstFloat <= 4 * Double(Float.ulpOfOne), "Float: \(worstFloat)")
    }

    @Test func complementaryTiltSeriesEqualsTheTrigonometry() {
        // tiltRotation(halfAngleSineSquared:) against libm: sin(kθ/2)/sin θ and cos(kθ/2), θ = 2 asin √y,
        // over the series' whole range (y ≤ 0.01, with small y as often) and every fraction k in
        // [0, 1]; Double to 1e-15, Float to 2.5e-7.
        var random = SplitMix64(seed: 7)
        var worst = 0.0
        var worstFloat = 0.0
        for trial in 0..<20_000 {
            let k = random.uniform(0, 1)
            let y = trial % 2 == 0 ? random.uniform(0, 0.01) : random.uniform(0, 1e-5)
            var filter = ComplementaryFilter<Double>(settings: .init(accelerometerTimeConstant: 1))
            filter.refreshGains(dt: -log1p(-k))  // k_a = 1 − e^(−Δt/τ) = k for τ = 1
            let (sine, cosine) = filter.tiltRotation(halfAngleSineSquared: y)
            worst = max(worst, Self.halfAngleSeriesError(
                fraction: filter.gains.x, halfAngleSineSquared: y, sine: sine, cosine: cosine))
            var single = ComplementaryFilter<Float>(settings: .init(accelerometerTimeConstant: 1))
            single.refreshGains(dt: Float(-log1p(-k)))
            let yF = Float(y)
            let (sineF, cosineF) = single.tiltRotation(halfAngleSineSquared: yF)
            worstFloat = max(worstFloat, Self.halfAngleSeriesError(
                fraction: Double(single.gains.x), halfAngleSineSquared: Double(yF),
                sine: Double(sineF), cosine: Double(cosineF)))
        }
        #expect(worst < 1e-15, "worst relative error \(worst)")
        // Float's own error is about 1.1e-7; a missing or wrong y³ term adds up to 4.6e-7.
        #expect(worstFloat < 2.5e-7, "Float: worst relative error \(worstFloat)")
    }

    @Test(arguments: [false, true])
    func complementaryStepEqualsTheDefinition(magnetometer: Bool) {
        // One step of the filter, from random attitudes with small and large tilt errors (the
        // scalar fast path and the general one), against the definition written out with plain
        // quaternion operations: p = q ⊗ exp(½ωΔt), rotate by k_a·θ toward up about g × up, then
        // the heading by k_m·ψ about the vertical, normalize.
        var random = SplitMix64(seed: 11)
        var worst = 0.0
        for trial in 0..<5_000 {
            let dt = random.uniform(0.001, 0.05)
            let settings = ComplementaryFilter<Double>.Settings(
                accelerometerTimeConstant: random.uniform(0.2, 5), magnetometerTimeConstant: random.uniform(0.5, 10),
                frame: .nwu)
            var filter = ComplementaryFilter<Double>(settings: settings)
            let q = random.rotation()
            filter.reset(to: q)
            let gyro = random.gaussianVector() * 2
            // A specific force within 0.5° (fast path) or 20° (both paths) of the predicted up.
            let spread = trial % 2 == 0 ? 0.01 : 0.35
            let up = q.inverseAct(on: SIMD3(0, 0, 1))
            let accel = (up + random.gaussianVector() * spread) * 9.81
            // A field anywhere, or within about 3° of north in the earth frame (the heading's fast path).
            let nearNorth = q.inverseAct(on: SIMD3(30, 0, -40) + random.gaussianVector() * 1.5)
            let field: SIMD3<Double>? = magnetometer ? (trial % 4 < 2 ? nearNorth : random.gaussianVector() * 30) : nil
            filter.update(gyroscope: gyro, accelerometer: accel, magnetometer: field, dt: dt)

            var p = q * Quaternion(rotationVector: gyro * dt)
            let g = p.act(on: accel / (accel * accel).sum().squareRoot())
            let s = (g.x * g.x + g.y * g.y).squareRoot()
            let ka = -expm1(-dt / settings.accelerometerTimeConstant)
            if s > 0 {
                p = Quaternion(angle: ka * Double.atan2(y: s, x: g.z), axis: SIMD3(g.y, -g.x, 0) / s) * p
            }
            if let field {
                let h = p.act(on: field)
                let km = -expm1(-dt / settings.magnetometerTimeConstant)
                p = Quaternion(angle: -km * Double.atan2(y: h.y, x: h.x), axis: SIMD3(0, 0, 1)) * p
            }
            worst = max(worst, filter.quaternion.angle(to: p.normalized()))
            #expect(abs(filter.quaternion.length - 1) < 1e-15)
        }
        #expect(worst < 1e-13, "worst angle between the filter's step and the definition \(worst) rad")
    }

    @Test func complementaryTimeConstantsOutsideTheirRange() {
        // τ = 0 (and −0) corrects in full at every step (the tilt is gone after one step); a negative or NaN
        // τ turns the correction off (the attitude stays), and nothing becomes NaN.
        let tilted = Quaternion<Double>(angle: 0.05, axis: SIMD3(1, 0, 0))
        for (tau, expected) in [(0.0, 0.0), (-0.0, 0.0), (-1.0, 0.05), (Double.nan, 0.05), (Double.infinity, 0.05)] {
            var filter = ComplementaryFilter<Double>(settings: .init(accelerometerTimeConstant: tau, frame: .nwu))
            filter.reset(to: tilted)
            filter.update(gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: nil, dt: 0.01)
            #expect(filter.quaternion.isFinite && abs(filter.quaternion.length - 1) < 1e-15, "τ \(tau)")
            #expect(abs(filter.quaternion.angle - expected) < 1e-12, "τ \(tau): \(filter.quaternion.angle)")
        }
    }

    @Test func complementaryReportsErrorsOfHalfATurn() {
        // Upside down: the measured up direction is (0, 0, −1), a tilt error of π; a field pointing
        // south: a heading error of π (in magnitude).
        var filter = ComplementaryFilter<Double>(settings: .init(frame: .nwu))
        filter.reset(to: Quaternion(w: 0, x: 1, y: 0, z: 0))
        filter.update(gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: nil, dt: 0.01)
        #expect(abs(filter.tiltError - .pi) < 1e-12)
        var heading = ComplementaryFilter<Double>(settings: .init(frame: .nwu))
        heading.reset(to: .identity)
        heading.update(gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: SIMD3(-20, 0, -40), dt: 0.01)
        #expect(abs(abs(heading.headingError) - .pi) < 1e-12)
    }

    @Test func complementaryHeadingStepStaysUnit() {
        // A heading correction of about 0.02 rad (k_m·ψ for ψ = 0.1 and a gain near 0.2): the
        // attitude must stay unit to a few ulp (an earlier series once lacked a term, 1.3e-15).
        var filter = ComplementaryFilter<Double>(settings: .init(magnetometerTimeConstant: 0.044839, frame: .nwu))
        filter.reset(to: .identity)
        filter.update(gyroscope: .zero, accelerometer: SIMD3(0, 0, 1), magnetometer: SIMD3(cos(0.1), sin(0.1), 0), dt: 0.01)
        #expect(abs(filter.nwuQuaternion.length - 1) < 5e-16, "\(filter.nwuQuaternion.length - 1)")
    }

    @Test func madgwickBiasCompensationFollowsEquations47To49() {
        // One step from a known state, compared with the equations written out independently.
        var filter = MadgwickFilter<Double>(settings: .init(beta: 0.2, zeta: 0.05, frame: .nwu))
        let q0 = Quaternion<Double>(w: 0.9, x: 0.1, y: -0.3, z: 0.2).normalized()
        filter.reset(to: q0)
        let gyro = SIMD3<Double>(0.2, -0.1, 0.05), acc = SIMD3<Double>(0.5, 1.0, 9.6), dt = 0.01
        filter.update(gyroscope: gyro, accelerometer: acc, magnetometer: nil, dt: dt)

        let a = acc / acc.length
        let (w, x, y, z) = (q0.w, q0.x, q0.y, q0.z)
        let f = [2 * (x * z - w * y) - a.x, 2 * (w * x + y * z) - a.y, 2 * (0.5 - x * x - y * y) - a.z]
        let jacobian: [[Double]] = [[-2 * y, 2 * z, -2 * w, 2 * x], [2 * x, 2 * w, 2 * z, 2 * y], [0, -4 * x, -4 * y, 0]]
        var gradient = SIMD4<Double>.zero
        for row in 0..<3 { for col in 0..<4 { gradient[col] += jacobian[row][col] * f[row] } }
        gradient /= (gradient * gradient).sum().squareRoot()
        let omegaError = 2 * (q0.conjugate * Quaternion(components: gradient)).vector  // eq. 47
        let bias = 0.05 * omegaError * dt  // eq. 48, from zero
        let corrected = gyro - bias  // eq. 49
        let qDot = 0.5 * (q0 * Quaternion(real: 0, imaginary: corrected)).components - 0.2 * gradient
        let expected = Quaternion(components: q0.components + qDot * dt).normalized()
        #expect((filter.gyroscopeBias - bias).length < 1e-17)
        #expect(filter.quaternion.angle(to: expected) < 1e-15)
    }

    @Test func madgwickBiasCompensationConvergesToTheTrueBias() {
        // At rest with a constant gyroscope bias, ζ > 0 drives the estimate to the bias.
        let trueBias = SIMD3<Double>(0.02, -0.015, 0.01)
        var filter = MadgwickFilter<Double>(settings: .init(beta: 0.05, zeta: 0.02))
        filter.reset(to: .identity)
        for _ in 0..<60_000 {
            filter.update(gyroscope: trueBias, accelerometer: SIMD3(0, 0, 9.81), magnetometer: SIMD3(0, 20, -45), dt: 0.01)
        }
        #expect((filter.gyroscopeBias - trueBias).length < 2e-3)
    }

    @Test func biasEstimatorFindsRestAndAveragesTheBias() {
        var estimator = GyroscopeBiasEstimator<Double>()
        var random = TestRandom(seed: 21)
        let bias = SIMD3<Double>(0.01, -0.02, 0.005), noise = 0.003, dt = 0.005
        var restSeenAt: Double?
        for k in 0..<2000 {  // 10 s at rest
            let gyro = bias + noise * random.gaussianVector()
            let acc = SIMD3<Double>(0, 0, 9.81) + 0.02 * random.gaussianVector()
            estimator.update(gyroscope: gyro, accelerometer: acc, dt: dt)
            if estimator.isResting && restSeenAt == nil { restSeenAt = Double(k) * dt }
        }
        // Rest is declared after the minimum duration (1.5 s), not before.
        #expect(restSeenAt.map { $0 >= 1.5 && $0 < 1.6 } == true, "\(String(describing: restSeenAt))")
        // The average over the ~8.5 s of rest: each axis within 4 standard errors.
        let standardError = noise / (8.5 / dt).squareRoot()
        let error = estimator.bias - bias
        #expect(max(abs(error.x), max(abs(error.y), abs(error.z))) < 4 * standardError)
        let uncertainty = estimator.biasUncertainty!
        #expect(uncertainty.x > standardError / 3 && uncertainty.x < standardError * 3)
        // Motion ends the rest; the estimate is held.
        let held = estimator.bias
        estimator.update(gyroscope: SIMD3(1, 0, 0), accelerometer: SIMD3(0, 0, 9.81), dt: dt)
        #expect(!estimator.isResting && estimator.bias == held)
        // NaN is ignored and ends rest.
        estimator.update(gyroscope: SIMD3(.nan, 0, 0), accelerometer: SIMD3(0, 0, 9.81), dt: dt)
        #expect(estimator.bias == held)
    }

    @Test func biasEstimatorDoesNotMistakeSteadyRotationForBias() {
        var estimator = GyroscopeBiasEstimator<Double>()
        for _ in 0..<4000 {  // 20 s turning at 10°/s, smoothly: low deviation, but above maximumBias
            estimator.update(gyroscope: SIMD3(0, 0, 10 * .pi / 180), accelerometer: SIMD3(0, 0, 9.81), dt: 0.005)
        }
        #expect(!estimator.isResting)
        #expect(estimator.bias == .zero)
    }
}
