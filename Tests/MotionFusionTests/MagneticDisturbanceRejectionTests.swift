import Foundation
import Testing

@testable import MotionFusionCore

/// MagneticDisturbanceRejection on synthetic fields: a first reference only while turning, gating of
/// norm and dip changes, the undisturbed time to recover, and the rejection budget.
@Suite("MagneticDisturbanceRejection")
struct MagneticDisturbanceRejectionTests {
    typealias Settings = InertialFrameFilter<Double>.Settings
    static let dt = 0.125  // exact in binary: durations below are whole numbers of steps
    static let turning = SIMD3<Double>(0, 0, 0.5)  // 0.5 rad/s > newFieldMinimumRate (20°/s)

    /// A field of norm `norm` µT and dip `dip` rad (downward), at azimuth 0.3 rad.
    static func field(_ norm: Double, dip: Double) -> (Double, SIMD3<Double>) {
        (norm, SIMD3(cos(dip) * cos(0.3), cos(dip) * sin(0.3), -sin(dip)))
    }

    /// A rejection with the default settings and `spent` seconds of its budget spent.
    static func rejection(spent: Double) -> MagneticDisturbanceRejection<Double> {
        var r = MagneticDisturbanceRejection<Double>(settings: Settings())
        r.rejectionTime = spent
        return r
    }

    /// One step with no current low-pass (gain 1) and a fixed reference (gain 0); returns the
    /// heading gain (nominal 0.01) and whether it is nominal.
    static func judge(
        _ rejection: inout MagneticDisturbanceRejection<Double>, _ f: (Double, SIMD3<Double>),
        rate: SIMD3<Double> = turning, settings: Settings = Settings(),
        verticalBiasSigma: Double = 0
    ) -> (gain: Double, nominal: Bool) {
        var gain = 0.01
        rejection.parameters = .init(settings)
        let nominal = rejection.judge(
            norm: f.0, direction: f.1, lowPassRate: rate, dt: dt, currentGain: 1, referenceGain: 0,
            verticalBiasSigma: verticalBiasSigma, gain: &gain)
        return (gain, nominal)
    }

    /// The budget the first reference makes available is ψ / σ_bz (magneticHeadingUncertainty 5°
    /// over the vertical bias's standard deviation), at most maximumRejectionDuration (60 s): 10 s
    /// at the 0.5°/s prior, so a disturbance right after it is rejected for 10 s, then used at half
    /// the gain; 60 s at 0.05°/s (ψ / σ = 100 s, capped); the whole budget for σ_bz = 0; none with
    /// ψ = 0 (whatever σ) or a NaN σ; a maximum raised after the rejection was made counts. (The
    /// step that accepts the reference is undisturbed and earns back 2 × 0.125 s at once.)
    @Test func firstReferenceBudgetFollowsTheVerticalBiasUncertainty() {
        let degree = Double.pi / 180
        let earth = Self.field(50, dip: 1.0)
        func firstReference(
            sigma: Double, settings: Settings = Settings()
        ) -> MagneticDisturbanceRejection<Double> {
            var r = Self.rejection(spent: 60)
            for _ in 0...40 {
                _ = Self.judge(&r, earth, settings: settings, verticalBiasSigma: sigma)
            }
            #expect(r.hasReference && !r.disturbed)
            return r
        }
        var prior = firstReference(sigma: 0.5 * degree)
        #expect(abs(prior.rejectionTime - 49.75) < 1e-9, "\(prior.rejectionTime)")
        // Rejected while the time spent is ≤ 60 s before the step, 49.75 + (k − 1) 0.125 ≤ 60:
        // steps 1 to 83 (the last may fall either way: 49.75 is computed from 5° / 0.5°/s).
        let disturbed = Self.field(80, dip: 1.0)
        for step in 1...95 {
            let (gain, nominal) = Self.judge(&prior, disturbed, verticalBiasSigma: 0.5 * degree)
            #expect(!nominal)
            if step <= 82 { #expect(gain == 0, "step \(step)") }
            if step >= 84 { #expect(gain == 0.005, "step \(step)") }
        }
        #expect(firstReference(sigma: 0.05 * degree).rejectionTime == 0)
        #expect(firstReference(sigma: 0).rejectionTime == 0)
        #expect(firstReference(sigma: .nan).rejectionTime == 59.75)
        var trusting = Settings()
        trusting.magneticHeadingUncertainty = 0
        #expect(firstReference(sigma: 0.5 * degree, settings: trusting).rejectionTime == 59.75)
        #expect(firstReference(sigma: 0, settings: trusting).rejectionTime == 59.75)
        var longer = Settings()
        longer.maximumRejectionDuration = 120  // the rejection was made with 60
        let raised = firstReference(sigma: 0.5 * degree, settings: longer).rejectionTime
        #expect(abs(raised - 109.75) < 1e-9, "\(raised)")
    }

    /// InertialFrameFilter passes the bias's standard deviation along the earth's vertical: with
    /// bias estimation off, the variance is what setGyroscopeBias set, so a device turning at
    /// 0.5 rad/s about the vertical in a steady field gets its first reference with 60 − ψ / σ − 2 T
    /// spent (T = 0.125 s, the correction step that accepts it; 8 samples of 1/64 s, exact in
    /// binary): 49.75 s at σ = 0.5°/s, 0 at 0.05°/s.
    @Test func theFilterPassesItsVerticalBiasSigma() {
        let degree = Double.pi / 180
        for (sigma, spent) in [(0.5 * degree, 49.75), (0.05 * degree, 0.0)] {
            var settings = Settings()
            settings.correctionInterval = 0.125
            settings.estimatesBiasAtRest = false
            settings.estimatesBiasInMotion = false
            var filter = InertialFrameFilter<Double>(settings: settings)
            filter.setGyroscopeBias(.zero, sigma: sigma)
            let earth = SIMD3<Double>(20, 0, -45)
            var accepted: Double?
            let dt = 1.0 / 64
            for i in 0..<1000 where accepted == nil {
                let q = Quaternion<Double>(angle: 0.5 * Double(i) * dt, axis: SIMD3(0, 0, 1))
                filter.update(
                    gyroscope: SIMD3(0, 0, 0.5), accelerometer: SIMD3(0, 0, 9.81),
                    magnetometer: q.inverseAct(on: earth), dt: i == 0 ? 0 : dt)
                if filter.magnetic.hasReference { accepted = filter.magnetic.rejectionTime }
            }
            #expect(accepted != nil, "no first reference in 15.6 s of turning")
            guard let time = accepted else { continue }
            #expect(abs(time - spent) < 1e-6, "σ \(sigma / degree)°/s: \(time) s spent")
        }
    }

    /// The first reference needs firstFieldDuration (5 s = 40 steps) of a consistent field while
    /// turning; until then the field counts as disturbed with the budget spent (gain 0 once, then
    /// halved); a still sensor never gets a reference.
    @Test func firstReferenceOnlyWhileTurning() {
        var rejection = Self.rejection(spent: 60)
        let earth = Self.field(50, dip: 1.0)
        for _ in 0..<100 { _ = Self.judge(&rejection, earth, rate: .zero) }
        #expect(!rejection.hasReference && rejection.disturbed)
        #expect(Self.judge(&rejection, earth, rate: .zero).gain == 0.005)
        var fresh = Self.rejection(spent: 60)
        #expect(Self.judge(&fresh, earth) == (0, false))  // candidate seeded; budget 60 ≤ 60: rejected
        for step in 1...40 {
            let (gain, nominal) = Self.judge(&fresh, earth)
            // Candidate time reaches 5 s at the 40th consistent step.
            #expect(nominal == (step == 40) && gain == (step == 40 ? 0.01 : 0.005), "step \(step)")
        }
        #expect(fresh.hasReference && !fresh.disturbed && fresh.rejectionTime == 0)
        #expect(abs(fresh.reference.x - 50) < 1e-12 && abs(fresh.reference.y - 1.0) < 1e-12)
    }

    /// With a reference: a norm 15 % off or a dip 15° off is rejected (gain 0), 5 % and 5° are not;
    /// after a disturbance the field must be back for undisturbedDuration (0.5 s = 4 steps).
    @Test func gatesNormAndDipChanges() {
        var rejection = Self.rejection(spent: 60)
        rejection.reference = SIMD2(50, 1.0)
        rejection.disturbed = false
        rejection.rejectionTime = 0
        rejection.undisturbedTime = 1
        let degree = Double.pi / 180
        #expect(Self.judge(&rejection, Self.field(52.5, dip: 1.0 + 5 * degree)) == (0.01, true))
        #expect(Self.judge(&rejection, Self.field(57.5, dip: 1.0)) == (0, false))
        for step in 1...4 {
            #expect(Self.judge(&rejection, Self.field(50, dip: 1.0)).nominal == (step == 4), "step \(step)")
        }
        #expect(Self.judge(&rejection, Self.field(50, dip: 1.0 + 15 * degree)) == (0, false))
        #expect(Self.judge(&rejection, Self.field(50, dip: 1.0 - 15 * degree)).gain == 0)
    }

    /// The rejection budget: with maximumRejectionDuration 0.5 s the gain is 0 while the time spent
    /// rejecting is ≤ 0.5 s (5 steps: 0, …, 0.5 before each), then divided by rejectionGainFactor.
    @Test func rejectionBudget() {
        var settings = Settings()
        settings.maximumRejectionDuration = 0.5
        var rejection = Self.rejection(spent: 0.5)
        rejection.reference = SIMD2(50, 1.0)
        rejection.disturbed = false
        rejection.rejectionTime = 0
        let disturbed = Self.field(80, dip: 1.0)
        for step in 1...8 {
            let (gain, nominal) = Self.judge(&rejection, disturbed, rate: .zero, settings: settings)
            #expect(!nominal && gain == (step <= 5 ? 0 : 0.005), "step \(step)")
        }
        // Earned back at rejectionGainFactor (2) s per s undisturbed, after the 0.5 s to recover.
        let spent = rejection.rejectionTime
        for _ in 1...6 { _ = Self.judge(&rejection, Self.field(50, dip: 1.0), rate: .zero, settings: settings) }
        #expect(abs(rejection.rejectionTime - max(spent - 2 * 3 * Self.dt, 0)) < 1e-15)
    }
}
