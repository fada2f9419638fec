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
        rate: SIMD3<Double> = turning, settings: Settings = Settings(), verticalBiasSigma: Double = 0
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
    /// the gain; 60 s at 0.05°/s; none with ψ = 0; the whole budget for σ_bz = 0. (The step that
    /// accepts the reference is undisturbed and earns back 2 × 0.125 s at once.)
    @Test func firstReferenceBudgetFollowsTheVerticalBiasUncertainty() {
        let degree = Double.pi / 180
        let earth = Self.field(50, dip: 1.0)
        func firstReference(sigma: Double, settings: Settings = Settings()) -> MagneticDisturbanceRejection<Double> {
            var r = Self.rejection(spent: 60)
            for _ in 0...40 { _ = Self.judge(&r, earth, settings: settings, verticalBiasSigma: sigma) }
            #expect(r.hasReference && !r.disturbed)
            return r
        }
        var prior = firstReference(sigma: 0.5 * degree)
        #expect(abs(prior.rejectionTime - 49.75) < 1e-9, "\(prior.rejectionTime)")
        // 10.25 s of rejection = 82 steps of 0.125 s (the boundary step may fall either way).
        let disturbed = Self.field(80, dip: 1.0)
        for step in 1...95 {
            let (gain, nominal) = Self.judge(&prior, disturbed, verticalBiasSigma: 0.5 * degree)
            #expect(!nominal)
            if step < 82 { #expect(gain == 0, "step \(step)") }
            if step > 84 { #expect(gain == 0.005, "step \(step)") }
        }
        #expect(firstReference(sigma: 0.05 * degree).rejectionTime == 0)
        #expect(firstReference(sigma: 0).rejectionTime == 0)
        var trusting = Settings()
        trusting.magneticHeadingUncertainty = 0
        #expect(firstReference(sigma: 0.5 * degree, settings: trusting).rejectionTime == 59.75)
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
