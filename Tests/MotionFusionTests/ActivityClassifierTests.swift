import Foundation
import Testing

@testable import MotionFusionCore
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// What a classifier reported over a recording: each reading's time and the activity in force after
/// it (the live answer, as a handler would have seen it).
struct ActivityTimeline {
    var times: [Double] = []
    var kinds: [ActivityKind] = []
    var reports: [ActivityReport] = []

    init(_ timestamps: [Double], _ readings: [SIMD3<Double>], settings: ActivityClassifier<Double>.Settings = .init()) {
        var classifier = ActivityClassifier<Double>(settings: settings)
        for (t, a) in zip(timestamps, readings) {
            if classifier.update(timestamp: t, acceleration: a) { reports.append(classifier.current) }
            times.append(t)
            kinds.append(classifier.current.kind)
        }
    }

    /// A recording's `t,ax,ay,az` (any file `SensorCSVReader` reads as an accelerometer).
    init(path: String) throws {
        let reader = try SensorCSVReader(path: path, sensor: .accelerometer)
        var t: [Double] = []
        var a: [SIMD3<Double>] = []
        while let r = try reader.next() {
            t.append(r.timestamp)
            a.append(r.value)
        }
        self.init(t, a)
    }

    /// The share of the time, over the readings `include` selects, during which `kind` was reported
    /// (each reading weighs the interval to the next).
    func share(of kind: ActivityKind, where include: (Int, Double) -> Bool) -> (share: Double, seconds: Double) {
        var inKind = 0.0
        var total = 0.0
        for k in 0..<(times.count - 1) where include(k, times[k]) {
            let dt = times[k + 1] - times[k]
            total += dt
            if kinds[k] == kind { inKind += dt }
        }
        return (total > 0 ? inKind / total : 0, total)
    }
}

@Suite("Activity classifier")
struct ActivityClassifierTests {
    /// A known walk at 100 Hz: unknown at the first reading, walking (medium) from the first step,
    /// high after 10 s, stationary once the walk has ended and the phone lies still; never running.
    @Test func walkThenRest() {
        let walk = SyntheticWalk(rate: 100, count: 40, period: 0.55, amplitude: 3)
        let timeline = ActivityTimeline(walk.timestamps, walk.readings)
        let r = timeline.reports
        #expect(r.first == ActivityReport(kind: .unknown, confidence: .low, startTime: walk.timestamps[0], reportTime: walk.timestamps[0]))
        let walking = r.first { $0.kind == .walking }!
        #expect(walking.confidence == .medium)
        #expect(abs(walking.startTime - walk.steps[0]) < 0.1, "walk starts at \(walking.startTime), first step \(walk.steps[0])")
        // Reported `minimumWalk` (2 s) after the first step was found (its time within 0.1 s).
        #expect(walking.reportTime >= walking.startTime + 2 && walking.reportTime < walking.startTime + 2.02)
        let high = r.first { $0.kind == .walking && $0.confidence == .high }!
        #expect(abs(high.reportTime - (walking.startTime + 10)) < 0.02)
        #expect(high.startTime == walking.startTime)
        #expect(!r.contains { $0.kind == .running })
        let last = r.last!
        #expect(last.kind == .stationary)
        #expect(last.startTime > walk.steps.last! && last.startTime < walk.steps.last! + 2.5)
        // Start times never go back.
        #expect(zip(r, r.dropFirst()).allSatisfy { $0.startTime <= $1.startTime && $0.reportTime < $1.reportTime })
    }

    /// Running needs both: the running cadence (0.36 s a step) with hard landings (12 m/s² jolts) is
    /// running; the same cadence with a walk's 3 m/s² jolts, and a walk's cadence with the hard
    /// landings, are walking.
    @Test(arguments: [(0.36, 12.0, ActivityKind.running), (0.36, 3.0, .walking), (0.55, 12.0, .walking)])
    func runningNeedsCadenceAndImpact(period: Double, amplitude: Double, expected: ActivityKind) {
        let walk = SyntheticWalk(rate: 200, count: 60, period: period, amplitude: amplitude)
        let timeline = ActivityTimeline(walk.timestamps, walk.readings)
        let (share, _) = timeline.share(of: expected) { _, t in t > walk.steps[12] && t < walk.steps.last! }
        #expect(share == 1, "period \(period), jolts \(amplitude): \(share) of the walk \(expected)")
    }

    /// A device at rest (0.05 m/s² noise) is stationary after `stillDuration`, from its first
    /// reading, high after `confidentAfter`; a gap of 3 s makes it unknown again.
    @Test func stillnessAndGaps() {
        var random = TestRandom(seed: 7)
        var classifier = ActivityClassifier<Double>()
        var reports: [ActivityReport] = []
        var t = 0.0
        while t < 12 {
            if classifier.update(timestamp: t, acceleration: SIMD3(0.3, -0.2, 9.8) + 0.05 * random.gaussianVector()) {
                reports.append(classifier.current)
            }
            t += 0.01
        }
        #expect(reports.map(\.kind) == [.unknown, .stationary, .stationary])
        #expect(reports.map(\.confidence) == [.low, .medium, .high])
        #expect(abs(reports[1].reportTime - 1) < 0.015 && reports[1].startTime == 0)
        #expect(abs(reports[2].reportTime - 10) < 0.015)
        // NaN and repeated timestamps are ignored and change nothing.
        let nan = classifier.update(timestamp: t, acceleration: SIMD3(.nan, 0, 9.8))
        let backward = classifier.update(timestamp: t - 1, acceleration: SIMD3(0, 0, 9.8))
        #expect(!nan && !backward)
        #expect(classifier.steps.ignoredReadings == 2)
        // After a 3 s gap nothing is known.
        let afterGap = classifier.update(timestamp: t + 3, acceleration: SIMD3(0.3, -0.2, 9.8))
        #expect(afterGap)
        #expect(classifier.current.kind == .unknown && classifier.current.startTime == t + 3)
    }

    /// Turning a phone in the hand is neither still nor walking.
    @Test func turningInTheHandIsUnknown() {
        var classifier = ActivityClassifier<Double>()
        var t = 0.0
        while t < 20 {
            let angle = 1.2 * Foundation.sin(2 * Double.pi * 0.7 * t)
            classifier.update(timestamp: t, acceleration: 9.81 * SIMD3(Foundation.sin(angle), 0, Foundation.cos(angle)))
            #expect(t < 0.1 || classifier.current.kind == .unknown)
            t += 0.01
        }
    }

    /// Settings outside their ranges are moved in, and `validate()` names them, the step detector's too.
    @Test func settingsRanges() {
        var settings = ActivityClassifier<Double>.Settings()
        settings.runningExitFraction = 2
        settings.stillAcceleration = -1
        #expect(throws: SettingsError.self) { try settings.validate() }
        let classifier = ActivityClassifier<Double>(settings: settings)
        #expect(classifier.settings.runningExitFraction == 1)
        #expect(classifier.settings.stillAcceleration == 0.25)
        var steps = ActivityClassifier<Double>.Settings()
        steps.steps.minimumMagnitudeShare = 3
        #expect(throws: SettingsError.self) { try steps.validate() }
        #expect(ActivityClassifier<Double>(settings: steps).steps.settings.minimumMagnitudeShare == 1)
        #expect(throws: Never.self) { try ActivityClassifier<Double>.Settings().validate() }
    }

    /// Float gives the same activities as Double on a synthetic walk.
    @Test func floatAgreesWithDouble() {
        let walk = SyntheticWalk(rate: 100, count: 30)
        var double = ActivityClassifier<Double>()
        var float = ActivityClassifier<Float>()
        var a: [ActivityKind] = []
        var b: [ActivityKind] = []
        for (t, r) in zip(walk.timestamps, walk.readings) {
            if double.update(timestamp: t, acceleration: r) { a.append(double.current.kind) }
            if float.update(timestamp: t, acceleration: SIMD3<Float>(r)) { b.append(float.current.kind) }
        }
        #expect(a == b && a.contains(.walking))
    }
}

/// The activity on labelled real data (`scripts/score_activity` prints the whole confusion matrix):
/// BROAD's rest phases (the sensor lies still) and movement phases (handled by an experimenter who
/// does not walk), the phone dataset's running trials, and the walks of both step datasets (between
/// true steps less than 2.5 s apart).
@Suite(
    "Activity on real recordings",
    .enabled(if: BroadData.required && TyrexData.required && StepData.required, "reference data not found"))
struct ActivityRealDataTests {
    /// BROAD: rest is stationary ≥ 95 % of its time (measured 0.95–0.99; the rest is the second
    /// after movement stops), handling is never stationary for more than 1 % and never running;
    /// turning the sensor (01, 06) and the phone vibrating against it (26) are never walking.
    @Test func broadRestAndHandling() throws {
        let results = try concurrentMap(BroadData.trials.count) { k in
            let trial = BroadData.trials[k]
            let path = BroadData.folder.appendingPathComponent(trial + ".csv").path
            let timeline = try ActivityTimeline(path: path)
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            let column = lines[0].split(separator: ",").firstIndex(of: "movement")!
            let moving = lines.dropFirst().map { $0.split(separator: ",")[column] == "1" }
            #expect(moving.count == timeline.times.count)
            let rest = timeline.share(of: .stationary) { k, _ in !moving[k] }
            let stillWhileHandled = timeline.share(of: .stationary) { k, _ in moving[k] }
            let walking = timeline.share(of: .walking) { k, _ in moving[k] }
            let running = timeline.share(of: .running) { _, _ in true }
            return (trial, rest.share, stillWhileHandled.share, walking.share, running.share)
        }
        for (trial, rest, still, walking, running) in results {
            #expect(rest >= 0.95, "\(trial): rest stationary \(rest)")
            #expect(still < 0.01, "\(trial): handled but stationary \(still)")
            #expect(running == 0, "\(trial): running \(running)")
            if ["01", "06", "26"].contains(String(trial.prefix(2))) { #expect(walking == 0, "\(trial): walking \(walking)") }
        }
    }

    /// The six running trials are running ≥ 90 % of the time from 5 s after their start to 5 s
    /// before their end (measured 0.93–0.99; the rest is walking while the cadence builds up).
    @Test func tyrexRunning() throws {
        let trials = try StepData.names(in: TyrexData.folder, ending: ".imu.csv.gz").filter { $0.contains("Running") }
        #expect(trials.count == 6)
        let shares = try concurrentMap(trials.count) { k in
            let timeline = try ActivityTimeline(path: TyrexData.folder.appendingPathComponent(trials[k] + ".imu.csv.gz").path)
            let (from, to) = (timeline.times.first! + 5, timeline.times.last! - 5)
            return timeline.share(of: .running) { _, t in t > from && t < to }.share
        }
        for (trial, share) in zip(trials, shares) { #expect(share >= 0.9, "\(trial): running \(share)") }
    }

    /// Walks with step truth (Oxford's foot switches, WeAllWalk's heel strikes): over all of them,
    /// walking ≥ 94 % of the walking time (measured 0.956: Oxford 0.979, WeAllWalk 0.950; most of the
    /// rest is the 2 s before a walk is reported, and cane walkers' slow turns), running under 1 %.
    @Test func walksWithStepTruth() throws {
        var inputs: [(path: String, truth: [Double])] = []
        for name in try StepData.names(in: StepData.oxford, ending: ".accel.csv.gz") {
            inputs.append((
                StepData.oxford.appendingPathComponent(name + ".accel.csv.gz").path,
                try StepData.rows(StepData.oxford.appendingPathComponent(name + ".steps.csv")).map(\.time)))
        }
        for name in try StepData.names(in: StepData.weAllWalk, ending: ".imu.csv.gz") {
            inputs.append((
                StepData.weAllWalk.appendingPathComponent(name + ".imu.csv.gz").path,
                try StepData.column(StepData.weAllWalk.appendingPathComponent(name + ".events.csv"), kind: "step")))
        }
        let walks = inputs
        let results = try concurrentMap(walks.count) { k in
            let timeline = try ActivityTimeline(path: walks[k].path)
            let steps = walks[k].truth.sorted()
            let intervals = zip(steps, steps.dropFirst()).filter { $1 - $0 <= 2.5 }
            var w = 0
            let inWalk: (Int, Double) -> Bool = { _, t in
                while w < intervals.count && intervals[w].1 < t { w += 1 }
                return w < intervals.count && intervals[w].0 <= t
            }
            w = 0
            let walking = timeline.share(of: .walking, where: inWalk)
            w = 0
            let running = timeline.share(of: .running, where: inWalk)
            return (walking.share * walking.seconds, running.share * running.seconds, walking.seconds)
        }
        let seconds = results.map(\.2).reduce(0, +)
        let walking = results.map(\.0).reduce(0, +) / seconds
        let running = results.map(\.1).reduce(0, +) / seconds
        #expect(walking >= 0.94, "walking \(walking) of \(seconds) s")
        #expect(running < 0.01, "running \(running)")
    }
}
