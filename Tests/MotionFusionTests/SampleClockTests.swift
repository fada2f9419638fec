import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

@Suite("Sample clock")
struct SampleClockTests {
    @Test func regularRepeatedBackwardGapAndInvalid() {
        var clock = SampleClock(maximumGap: 1, nominalPeriod: 0.01)
        #expect(clock.step(to: 10.0) == (0, .first))
        #expect(clock.step(to: 10.01) == (10.01 - 10.0, .regular))
        #expect(clock.step(to: 10.01) == (0, .repeated))
        #expect(clock.step(to: 10.02).event == .regular)
        // Backward: no integration, the clock restarts there.
        #expect(clock.step(to: 9.5) == (0, .backward))
        #expect(clock.step(to: 9.51).dt == 9.51 - 9.5)
        // A jump of an hour: the typical period is used instead.
        let (dt, event) = clock.step(to: 3609.51)
        #expect(event == .gap)
        #expect(abs(dt - 0.01) < 1e-9)
        #expect(clock.step(to: .nan) == (0, .invalid))
        #expect(clock.step(to: .infinity) == (0, .invalid))
        #expect(clock.step(to: 3609.52).event == .regular)  // the NaN did not move the clock
        #expect(clock.repeatedCount == 1 && clock.backwardCount == 1 && clock.gapCount == 1)
        #expect(clock.invalidCount == 2)
    }

    @Test func gapBeforeAnyRegularStepUsesNominalPeriod() {
        var clock = SampleClock(maximumGap: 0.5, nominalPeriod: 0.004)
        _ = clock.step(to: 0)
        #expect(clock.step(to: 100) == (0.004, .gap))
    }

    @Test func typicalPeriodFollowsTheRate() {
        var clock = SampleClock()
        for k in 0...1000 { _ = clock.step(to: Double(k) * 0.0035) }
        #expect(abs(clock.typicalPeriod! - 0.0035) < 1e-12)
    }
}
