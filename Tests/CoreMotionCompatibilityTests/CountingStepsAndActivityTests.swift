import CoreMotionCompatibility
import Foundation
import MotionFusionTestSupport
import Testing

/// Runs the Core Motion pedometer and activity code of CountingStepsAndActivity.swift on the walk
/// of `Walk` and checks what it read.
@Suite("Core Motion pedometer and activity code through CoreMotionCompatibility")
struct CountingStepsAndActivityTests {
    @Test func pedometerCode() throws {
        // The recording took place in the last minute (its steps are before now, today: a test that
        // starts in the first minute of a day waits for the second).
        if Date().timeIntervalSince(Calendar.current.startOfDay(for: Date())) < 60 { Thread.sleep(forTimeInterval: 61) }
        let walk = GatedSource(RecordingSource(Walk.recording(), pacing: .realTime(speed: 10)))
        let counter = StepCounter(origin: Date(timeIntervalSinceNow: -60), source: walk)
        counter.startCounting()
        walk.open()  // both updates run now: the walk's resume cannot pass between their starts
        counter.pedometer.pedometer.manager.waitUntilFinished()
        let done = DispatchSemaphore(value: 0)
        counter.queryToday { done.signal() }
        done.wait()
        counter.stop()
        let log = counter.log.withLock { $0 }
        #expect(log.updates.last == Walk.steps.count)
        #expect(log.updates == log.updates.sorted())
        #expect(abs(log.distance! - 40 * 0.415 * 1.70) < 1e-9)
        #expect(abs(log.cadence! * 0.55 - 1) < 0.05, "cadence \(log.cadence!)")
        #expect(log.events == [.resume, .pause])
        #expect(log.today == Walk.steps.count)
        #expect(!CMPedometer.isFloorCountingAvailable() && CMPedometer.authorizationStatus() == .authorized)
    }

    /// NSHipster's handler on `.main`, run by `waitUntilFinished()` on the main actor: walking,
    /// then not walking (stationary: no mode).
    @MainActor @Test func activityCode() {
        let controller = ActivityViewController()
        controller.startActivity()
        controller.manager.manager.waitUntilFinished()
        controller.manager.stopActivityUpdates()
        #expect(controller.modes == [[], ["🚶"], ["🚶"], []], "\(controller.modes)")
    }
}
