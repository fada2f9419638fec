import Foundation
import Testing

@testable import MotionFusionCore
@testable import MotionFusionSimulation
import RealModule

@Suite("Step detector")
struct StepDetectorTests {
    /// Every step is counted, once, at every rate from 25 to 400 Hz, with regular and irregular
    /// timestamps, in an arbitrary orientation; each is reported within τ + one sample interval of
    /// its jolt's centre. (The two smoothing low-passes move the peak of a slow wave by 2τ = 90 ms,
    /// which the detector subtracts, and the peak of an impulse by τ: a 0.1 s jolt lies between, so
    /// it is reported up to τ = 45 ms early; sampling adds up to one interval.)
    @Test(arguments: [(25.0, 0.0), (50, 0), (100, 0), (200, 0), (400, 0), (25, 0.4), (100, 0.4), (400, 0.4)])
    func countsEveryStepAtEveryRate(rate: Double, jitter: Double) {
        let walk = SyntheticWalk(rate: rate, jitter: jitter, seed: UInt64(rate) + (jitter > 0 ? 7 : 0))
        var detector = StepDetector<Double>()
        let found = walk.detect(&detector)
        #expect(detector.stepCount == found.count)
        if rate == 25 && jitter > 0 {
            // A 0.1 s jolt spans 2.5 samples at 25 Hz; with timestamps ±16 ms off, two jolts in a
            // row can fall between samples, too weak to count (measured: 58 of 60). Real steps
            // last longer (WeAllWalk is 25 Hz).
            #expect((57...60).contains(found.count), "\(found.count) of \(walk.steps.count)")
            return
        }
        #expect(found.count == walk.steps.count, "\(rate) Hz, jitter \(jitter): \(found.count) of \(walk.steps.count)")
        guard found.count == walk.steps.count else { return }
        let worst = zip(found, walk.steps).map { abs($0 - $1) }.max()!
        #expect(worst < 0.045 + 1 / rate, "\(rate) Hz, jitter \(jitter): worst timing error \(worst) s")
        #expect(zip(found, found.dropFirst()).allSatisfy { $0 < $1 }, "steps out of order")
    }

    /// The cadence is the walk's: 1 / 0.55 s within 3 %, and nil once the walk has ended.
    @Test func reportsTheCadenceWhileWalking() {
        let walk = SyntheticWalk(rate: 100)
        var detector = StepDetector<Double>()
        var cadences: [Double] = []
        for (t, a) in zip(walk.timestamps, walk.readings) {
            if detector.update(timestamp: t, acceleration: a) > 0, let c = detector.cadence { cadences.append(c) }
        }
        #expect(cadences.count > 50)
        for c in cadences.dropFirst(5) { #expect(abs(c * 0.55 - 1) < 0.03, "cadence \(c)") }
        #expect(detector.cadence == nil && !detector.isWalking, "the walk ended three seconds before the end")
    }

    /// Float finds the same steps as Double, within 0.1 ms.
    @Test func floatAgreesWithDouble() {
        let walk = SyntheticWalk(rate: 100, jitter: 0.2, seed: 3)
        var double = StepDetector<Double>()
        var float = StepDetector<Float>()
        let d = walk.detect(&double)
        let f = walk.detect(&float)
        #expect(d.count == walk.steps.count && f.count == d.count)
        for (x, y) in zip(d, f) { #expect(abs(x - y) < 1e-4) }
    }

    /// At rest, with noise ten times a phone's and isolated zero readings, nothing is counted.
    @Test func restIsNotWalking() {
        var random = TestRandom(seed: 5)
        var detector = StepDetector<Double>()
        for k in 0..<6000 {
            var a = SIMD3(0.3, -0.2, 9.8) + 0.5 * random.gaussianVector()
            if k % 500 == 250 { a = .zero }
            detector.update(timestamp: Double(k) * 0.01, acceleration: a)
        }
        detector.finish()
        #expect(detector.stepCount == 0)
    }

    /// NaN and infinite readings or timestamps, repeated timestamps and timestamps that go back are
    /// ignored and counted; the steps are exactly those of the clean walk.
    @Test func ignoresBadReadings() {
        let walk = SyntheticWalk(rate: 100, seed: 9)
        var clean = StepDetector<Double>()
        let expected = walk.detect(&clean)
        #expect(expected.count == walk.steps.count)
        var detector = StepDetector<Double>()
        var found: [Double] = []
        var inserted = 0
        for (k, (t, a)) in zip(walk.timestamps, walk.readings).enumerated() {
            if detector.update(timestamp: t, acceleration: a) > 0 { found += detector.newStepTimes }
            guard k % 37 == 5 else { continue }
            let bad: [(Double, SIMD3<Double>)] = [
                (t + 1e-4, SIMD3(.nan, 0, 9.8)), (t + 1e-4, SIMD3(0, .infinity, 9.8)), (.nan, a), (.infinity, a),
                (t, a * 3), (t - 0.5, a * 3),
            ]
            for (badTime, badReading) in bad {
                #expect(detector.update(timestamp: badTime, acceleration: badReading) == 0)
                inserted += 1
            }
        }
        if detector.finish() > 0 { found += detector.newStepTimes }
        #expect(found == expected)
        #expect(detector.ignoredReadings == inserted)
        #expect(clean.ignoredReadings == 0)
    }

    /// A gap in the timestamps longer than `stopAfter` ends the walk: the steps before it and after
    /// it are counted (the walk restarts with its first steps back-dated), none is invented in it.
    @Test func aGapEndsTheWalk() {
        let walk = SyntheticWalk(rate: 100, seed: 11)
        let from = walk.steps[29] + 0.27
        let to = walk.steps[35] - 0.27
        var detector = StepDetector<Double>()
        var found: [Double] = []
        for (t, a) in zip(walk.timestamps, walk.readings) where t < from || t > to {
            if detector.update(timestamp: t, acceleration: a) > 0 { found += detector.newStepTimes }
        }
        if detector.finish() > 0 { found += detector.newStepTimes }
        let kept = walk.steps.filter { $0 < from || $0 > to }
        #expect(kept.count == 55)
        #expect(found.count == kept.count)
        for (x, y) in zip(found, kept) { #expect(abs(x - y) < 0.045 + 0.01) }
    }

    /// One step of each stride much weaker once the walk is under way (from the tenth step, a jolt
    /// of 1.5 m/s² after each of 3 m/s²: the leg or arm that does not carry the phone): its smoothed
    /// peak (about 0.5 m/s²; a 0.1 s jolt keeps about a third of its height) is under the 0.7 m/s²
    /// floor, but in the middle of a gap of two periods, so it is counted.
    /// Without that rule (the weak floor raised above it) the weak steps are lost: 35 steps. (A walk
    /// whose weak steps are that weak from its first step does not start: its strides, 1.1 s, are
    /// longer than `longestStep`.)
    @Test func countsTheWeakStepOfEachStride() {
        let walk = SyntheticWalk(rate: 100, seed: 19, weakAmplitude: 1.5)
        var detector = StepDetector<Double>()
        let found = walk.detect(&detector)
        // The last step is a weak one: no step after it to close its gap.
        #expect((59...60).contains(found.count), "\(found.count) of 60")
        #expect(StepData.score(found, walk.steps, tolerance: 0.055).matched == found.count)
        var strict = StepDetector<Double>(settings: .init(minimumWeakPeak: 5))
        #expect(walk.detect(&strict).count == 35)
    }

    /// Settings changed between updates take effect at the next one: a floor raised above the jolts
    /// mid-walk stops the count there; lowered again, counting restarts.
    @Test func settingsChangeMidStream() {
        let walk = SyntheticWalk(rate: 100, seed: 23)
        var detector = StepDetector<Double>()
        var found: [Double] = []
        for (t, a) in zip(walk.timestamps, walk.readings) {
            if abs(t - walk.steps[20]) < 0.005 { detector.settings.minimumPeak = 10 }
            if abs(t - walk.steps[40]) < 0.005 { detector.settings.minimumPeak = 0.7 }
            if detector.update(timestamp: t, acceleration: a) > 0 { found += detector.newStepTimes }
        }
        detector.finish()
        #expect(found.filter { $0 > walk.steps[21] + 0.2 && $0 < walk.steps[40] - 0.2 }.isEmpty)
        #expect(found.filter { $0 > walk.steps[40] + 0.2 }.count >= 17, "\(found.count)")
        var smoother = StepDetector<Double>()
        for (k, (t, a)) in zip(walk.timestamps, walk.readings).enumerated() {
            if k == 1000 { smoother.settings.smoothingTimeConstant = 0.02 }
            smoother.update(timestamp: t, acceleration: a)
        }
        #expect(smoother.gains.y > 0.3, "the gains follow the new time constant: \(smoother.gains)")
    }

    /// Settings outside their ranges are refused by `validate()` and moved into them by the
    /// detector.
    @Test func settingsHaveRanges() throws {
        try StepDetector<Double>.Settings().validate()
        var bad = StepDetector<Double>.Settings()
        bad.stepsToStart = 1
        #expect(throws: SettingsError.self) { try bad.validate() }
        bad = .init(minimumMagnitudeShare: 1.5)
        #expect(throws: SettingsError.self) { try bad.validate() }
        bad = .init(shortestStep: 0.5, longestStep: 0.3)
        #expect(throws: SettingsError.self) { try bad.validate() }
        bad = .init(smoothingTimeConstant: .nan, stepsToStart: 20)
        let detector = StepDetector<Double>(settings: bad)
        #expect(detector.settings.smoothingTimeConstant == 0.045)
        #expect(detector.settings.stepsToStart == 8)
        var other = StepDetector<Double>()
        other.settings.longestStep = 0.1
        #expect(other.settings.longestStep == other.settings.shortestStep)
    }

    /// `reset()` forgets the walk and the count, keeps the settings.
    @Test func resetStartsAgain() {
        let walk = SyntheticWalk(rate: 50, seed: 13)
        var detector = StepDetector<Double>(settings: .init(stepsToStart: 4))
        _ = walk.detect(&detector)
        #expect(detector.stepCount == 60)
        detector.reset()
        #expect(detector.stepCount == 0 && detector.settings.stepsToStart == 4)
        #expect(walk.detect(&detector).count == 60)
    }
}

/// The example of the Counting Steps article, compiled and run here; the article must show it
/// unchanged.
@Suite("Counting Steps article")
struct CountingStepsArticleTests {
    @Test func exampleRunsAndIsInTheArticle() throws {
        let walk = SyntheticWalk(rate: 50, seed: 17)
        let readings = zip(walk.timestamps, walk.readings).map { (t: $0, a: $1) }
        var printed: [String] = []
        func print(_ line: String) { printed.append(line) }
        // The article's snippet, from here…
        var detector = StepDetector<Double>()
        func report(_ count: Int) {  // the steps an update or finish() confirmed, oldest first
            for (k, t) in detector.newStepTimes.enumerated() {
                print("step \(detector.stepCount - count + k + 1) at \(t) s")
            }
        }
        for reading in readings {  // (t, accelerometer) in s and m/s²
            report(detector.update(timestamp: reading.t, acceleration: reading.a))
        }
        report(detector.finish())
        // … to here.
        #expect(printed.count == 60 && detector.stepCount == 60)
        #expect(printed.first!.hasPrefix("step 1 at ") && printed.last!.hasPrefix("step 60 at "))
        #expect(try ArticleSnippet.isShown(from: #filePath, in: "CountingSteps.md"))
    }
}
