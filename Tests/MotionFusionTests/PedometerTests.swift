import Foundation
import MotionFusionTestSupport
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The pedometer and the activity manager over a walk whose steps are known (``SyntheticWalk``: a
/// second at rest, 40 steps 0.55 s apart, three seconds at rest), replayed as fast as possible.
@Suite("Pedometer and motion activity")
struct PedometerTests {
    static let walk = SyntheticWalk(rate: 100, count: 40, period: 0.55, amplitude: 3)
    static let origin = Date(timeIntervalSince1970: 1_800_000_000)

    static func recording() -> IMURecording {
        var recording = IMURecording()
        recording.timestamps = walk.timestamps
        recording.accelerometer = walk.readings
        recording.gyroscope = Array(repeating: .zero, count: walk.timestamps.count)
        return recording
    }

    /// Waits until the handlers posted to a pedometer's queue so far have run (a query's handler
    /// runs after them, on the same serial queue).
    static func drain(_ pedometer: Pedometer) {
        let done = DispatchSemaphore(value: 0)
        pedometer.queryPedometerData(from: origin, to: origin) { _, _ in done.signal() }
        done.wait()
    }

    @Test func countsDistanceCadenceAndEvents() throws {
        let source = GatedSource(Self.recording())
        let pedometer = Pedometer(manager: MotionManager(source: source), timestampOrigin: Self.origin)
        let updates = Lock<[PedometerData]>([])
        let events = Lock<[PedometerEvent]>([])
        pedometer.startUpdates(from: Self.origin) { data, error in
            #expect(error == nil)
            if let data { updates.withLock { $0.append(data) } }
        }
        pedometer.startEventUpdates { event, error in
            #expect(error == nil)
            if let event { events.withLock { $0.append(event) } }
        }
        source.open()
        pedometer.manager.waitUntilFinished()
        Self.drain(pedometer)

        let steps = Self.walk.steps
        let length = 0.415 * 1.70
        let all = updates.withLock { $0 }
        let last = try #require(all.last)
        #expect(last.numberOfSteps == steps.count)
        #expect(abs(last.distance! - Double(steps.count) * length) < 1e-9)
        #expect(last.floorsAscended == nil && last.floorsDescended == nil)
        #expect(last.startDate == Self.origin)
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.numberOfSteps <= $1.numberOfSteps && $0.endDate <= $1.endDate })
        // Mid-walk: the cadence is the walk's (1 / 0.55 s ± 3 %) and the pace 1 / (cadence × length).
        let middle = try #require(all.first { $0.numberOfSteps >= 20 })
        let cadence = try #require(middle.currentCadence)
        #expect(abs(cadence * 0.55 - 1) < 0.05, "cadence \(cadence)")
        #expect(abs(middle.currentPace! - 1 / (cadence * length)) < 1e-12)
        // The walk's pace: a step of `length` every 0.55 s (± 3 % per step in the walk).
        let average = try #require(last.averageActivePace)
        #expect(abs(average - 0.55 / length) < 0.01 * average, "average active pace \(average) s/m")

        let e = events.withLock { $0 }
        #expect(e.map(\.type) == [.resume, .pause])
        #expect(abs(e[0].date.timeIntervalSince(Self.origin) - steps[0]) < 0.1)
        let pause = e[1].date.timeIntervalSince(Self.origin)
        #expect(pause > steps.last! + 1.9 && pause < steps.last! + 2.2, "paused at \(pause)")

        // History: steps 10…19, and a query that is backwards.
        let found = Lock<[PedometerData]>([])
        let failure = Lock<[any Error]>([])
        pedometer.queryPedometerData(from: Self.origin + steps[10] - 0.1, to: Self.origin + steps[19] + 0.1) { data, _ in
            if let data { found.withLock { $0.append(data) } }
        }
        pedometer.queryPedometerData(from: Self.origin + 5, to: Self.origin) { data, error in
            #expect(data == nil)
            if let error { failure.withLock { $0.append(error) } }
        }
        Self.drain(pedometer)
        let ten = try #require(found.withLock { $0.first })
        #expect(ten.numberOfSteps == 10 && abs(ten.distance! - 10 * length) < 1e-9)
        #expect(ten.currentCadence == nil && ten.currentPace == nil)
        let error = try #require(failure.withLock { $0.first } as? MotionHistoryError)
        #expect(error == .invalidInterval(from: Self.origin + 5, to: Self.origin))
        // A step length of the user's own.
        pedometer.stepLength = StepLengthModel(stepLength: 0.8)
        #expect(pedometer.stepLength.length == 0.8)
        #expect(StepLengthModel(height: 1.9).length == 0.415 * 1.9)
        #expect(StepLengthModel(height: .nan, stepLength: 7).length == 0.415 * 1.70)
    }

    @Test func activityUpdatesAndHistory() throws {
        let source = GatedSource(Self.recording())
        let manager = MotionManager(source: source)
        let activities = MotionActivityManager(manager: manager, timestampOrigin: Self.origin)
        let pedometer = Pedometer(manager: manager)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let seen = Lock<[MotionActivity]>([])
        activities.startActivityUpdates(to: queue) { activity in
            if let activity { seen.withLock { $0.append(activity) } }
        }
        source.open()
        manager.waitUntilFinished()
        queue.waitUntilAllOperationsAreFinished()
        let steps = Self.walk.steps
        let live = seen.withLock { $0 }
        // (The second at rest before the walk is just too short to be stationary: `stillDuration`.)
        #expect(live.map(\.kind) == [.unknown, .walking, .walking, .stationary], "\(live.map(\.kind))")
        #expect(live.map(\.confidence) == [.low, .medium, .high, .medium])
        #expect(live.allSatisfy { !$0.automotive && !$0.cycling })
        #expect(live.allSatisfy { [$0.stationary, $0.walking, $0.running, $0.unknown].filter { $0 }.count == 1 })
        let walking = live[1]
        #expect(abs(walking.startDate.timeIntervalSince(Self.origin) - steps[0]) < 0.1)
        #expect(abs(walking.timestamp - (steps[0] + 2)) < 0.1)
        #expect(live[0].startDate == Self.origin && live[0].timestamp == 0)

        // The history as one activity per kind, the walk with its final confidence.
        let history = Lock<[[MotionActivity]]>([])
        activities.queryActivityStarting(from: Self.origin + steps[5], to: Self.origin + steps.last! + 2.5, to: queue) { list, error in
            #expect(error == nil)
            if let list { history.withLock { $0.append(list) } }
        }
        queue.waitUntilAllOperationsAreFinished()
        let list = try #require(history.withLock { $0.first })
        #expect(list.map(\.kind) == [.walking, .stationary])
        #expect(list[0].confidence == .high && list[0].startDate == walking.startDate)
        // The pedometer shares the manager's classifier: the same steps.
        let counted = Lock<Int>(-1)
        pedometer.queryPedometerData(from: Self.origin, to: Self.origin + 100) { data, _ in counted.withLock { $0 = data!.numberOfSteps } }
        Self.drain(pedometer)
        #expect(counted.withLock { $0 } == steps.count)
        #expect(MotionActivityManager.isActivityAvailable() && MotionActivityManager.authorizationStatus() == .authorized)
        #expect(Pedometer.isStepCountingAvailable() && !Pedometer.isFloorCountingAvailable())
    }

    /// A source that gives `count` samples of the walk, then fails.
    final class FailingSource: MotionSource {
        struct Failure: Error, Equatable {}
        let inner: RecordingSource
        var left: Int
        init(after count: Int) {
            inner = RecordingSource(PedometerTests.recording(), pacing: .asFastAsPossible)
            left = count
        }
        var sensors: SensorSet { inner.sensors }
        func next() throws -> SensorSample? {
            guard left > 0 else { throw Failure() }
            left -= 1
            return try inner.next()
        }
    }

    /// A failed source's error reaches the handlers that were running, and those started after it.
    @Test func aFailureReachesEveryHandler() throws {
        let pedometer = Pedometer(source: FailingSource(after: 500))
        let errors = Lock<[String]>([])
        pedometer.startUpdates(from: Self.origin) { _, error in
            if let error { errors.withLock { $0.append("updates \(error is FailingSource.Failure)") } }
        }
        pedometer.manager.waitUntilFinished()
        pedometer.startEventUpdates { _, error in
            if let error { errors.withLock { $0.append("events \(error is FailingSource.Failure)") } }
        }
        Self.drain(pedometer)
        #expect(errors.withLock { $0 } == ["updates true", "events true"])
    }

    /// The monitor's history directly: an assembled sample's repeated accelerometer reading is
    /// taken once; a clock that restarts starts a new timeline after the latest (the walk played
    /// twice counts twice, dates never go back); a week later the first walk is forgotten, and the
    /// distance of what is left is its own.
    @Test func monitorHistory() throws {
        let monitor = ActivityMonitor()
        monitor.state.withLock { $0.origin = Self.origin }
        let walk = Self.walk
        func play(_ shift: Double) {
            for (t, a) in zip(walk.timestamps, walk.readings) {
                // A 200 Hz gyroscope sample between every two accelerometer readings repeats the
                // latest one.
                monitor.observe(SensorSample(timestamp: t + shift, gyroscope: .zero, accelerometer: a, magnetometer: nil))
                monitor.observe(SensorSample(
                    timestamp: t + shift + 0.005, gyroscope: .zero, accelerometer: a, magnetometer: nil, accelerometerTimestamp: t + shift))
            }
        }
        play(0)
        play(0)  // the clock restarted
        let length = StepLengthModel().length
        var (steps, ignored, times) = monitor.state.withLock { ($0.stepTimes.count, $0.classifier.steps.ignoredReadings, $0.stepTimes) }
        #expect(steps == 2 * walk.steps.count && ignored == 0)
        #expect(times == times.sorted())
        let end = walk.timestamps.last!
        #expect(abs(times[walk.steps.count] - (end + walk.steps[0])) < 0.1, "the second walk follows the first")
        // A week and a half later, the same walk again: the first two are forgotten.
        play(10 * 24 * 3600)
        (steps, ignored, times) = monitor.state.withLock { ($0.stepTimes.count, $0.classifier.steps.ignoredReadings, $0.stepTimes) }
        #expect(steps == walk.steps.count && ignored == 0)
        let data = monitor.state.withLock { ActivityMonitor.data($0, from: .distantPast, to: .distantFuture, live: false) }
        #expect(data.numberOfSteps == walk.steps.count)
        #expect(abs(data.distance! - Double(walk.steps.count) * length) < 1e-6)
        #expect(abs(data.averageActivePace! - 0.55 / length) < 0.01 * data.averageActivePace!)
        let activities = monitor.state.withLock { ActivityMonitor.activities($0, from: .distantPast, to: .distantFuture) }
        #expect(activities.map(\.kind) == [.stationary, .unknown, .walking, .stationary], "\(activities.map(\.kind))")
        #expect(activities.map(\.startDate) == activities.map(\.startDate).sorted())
    }

    /// Updates keep the manager's worker running, and stopping the last of them stops it.
    @Test func updatesKeepTheWorkerRunning() throws {
        let manager = MotionManager(source: RecordingSource(Self.recording(), pacing: .realTime(speed: 1)))
        let pedometer = Pedometer(manager: manager)
        pedometer.startEventUpdates { _, _ in }
        // Until the worker has taken a sample (at once on an idle machine; a deadline, not a fixed
        // pause, for a loaded one).
        let deadline = ContinuousClock.now + .seconds(30)
        while manager.sampleCount == 0 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(manager.sampleCount > 0 && !manager.hasEnded)
        pedometer.stopEventUpdates()
        manager.waitUntilFinished()
        let stopped = manager.sampleCount
        Thread.sleep(forTimeInterval: 0.2)
        #expect(manager.sampleCount <= stopped + 1 && !manager.hasEnded)
    }
}

/// The example of the Pedometer and Activity article, compiled and run here; the article must show
/// it unchanged.
@Suite("Pedometer and Activity article")
struct PedometerArticleTests {
    @Test func exampleRunsAndIsInTheArticle() throws {
        let recording = PedometerTests.recording()
        let printed = Lock<[String]>([])
        @Sendable func print(_ items: Any...) { printed.withLock { $0.append(items.map { "\($0)" }.joined(separator: " ")) } }
        // The article's snippet, from here…
        let pedometer = Pedometer(source: RecordingSource(recording, pacing: .realTime(speed: 10)))  // IIOSource on a device
        pedometer.startUpdates(from: Date()) { data, error in
            guard let data else { return }
            print(data.numberOfSteps, "steps,", data.distance ?? 0, "m, cadence", data.currentCadence ?? 0)
        }
        let activities = MotionActivityManager(manager: pedometer.manager)
        let queue = OperationQueue()
        activities.startActivityUpdates(to: queue) { activity in
            if let activity { print(activity.kind, activity.confidence, activity.startDate) }
        }
        pedometer.manager.waitUntilFinished()
        // … to here.
        PedometerTests.drain(pedometer)
        queue.waitUntilAllOperationsAreFinished()
        let lines = printed.withLock { $0 }
        #expect(lines.contains { $0.hasPrefix("40 steps, ") })
        #expect(lines.contains { $0.hasPrefix("walking medium ") } && lines.contains { $0.hasPrefix("walking high ") })
        #expect(try ArticleSnippet.isShown(from: #filePath, in: "PedometerAndActivity.md"))
    }
}
