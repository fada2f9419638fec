import CoreMotionCompatibility
import Foundation
import Testing
import XCTest

/// Runs the Core Motion-style code of GettingProcessedDeviceMotionData.swift on the simulated
/// default synthetic recording (SyntheticMotion, 60 s at 100 Hz) and checks what it read.
@Suite("Core Motion code through CoreMotionCompatibility")
struct CoreMotionCompatibilityTests {
    static let recording = SyntheticMotion.generate()

    /// The timestamps a 1/60 s update interval delivers from the 100 Hz recording (the manager's
    /// decimation: the first sample at or after each interval).
    static var decimatedTimestamps: [Double] {
        var kept: [Double] = []
        for t in recording.timestamps where kept.last.map({ t >= $0 + 1.0 / 60.0 - 1e-9 }) ?? true { kept.append(t) }
        return kept
    }

    /// What every reading must satisfy: Core Motion's units, ranges and identities.
    static func check(_ readings: [MotionReading]) {
        for r in readings {
            let g = r.gravity
            #expect(abs((g.x * g.x + g.y * g.y + g.z * g.z).squareRoot() - 1) < 1e-9, "gravity is a unit vector in g")
            #expect(r.heading >= 0 && r.heading < 360, "heading \(r.heading)")
            // No calibration was given: the online calibration finds the simulated field calibrated
            // already (it is) and says how well it fits once it has seen enough directions.
            #expect(r.magneticFieldAccuracy != .low, "the simulated field is a calibrated one")
            let field = r.magneticField
            #expect((field.x * field.x + field.y * field.y + field.z * field.z).squareRoot() > 10, "µT")
            #expect(r.userAcceleration.y.isFinite && r.rotationRate.z.isFinite)
            #expect(abs(r.pitch) <= .pi / 2 && abs(r.roll) <= .pi && abs(r.yaw) <= .pi)
            // rotationMatrix is reference → device: its third column is −gravity, and m11 is the
            // quaternion's 1 − 2(y² + z²).
            let q = r.quaternion
            #expect(abs(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1) < 1e-9)
            #expect(abs(r.rotationMatrix.m11 - (1 - 2 * (q.y * q.y + q.z * q.z))) < 1e-12)
            #expect(abs(r.rotationMatrix.m13 + g.x) < 1e-9 && abs(r.rotationMatrix.m23 + g.y) < 1e-9)
            #expect(abs(r.rotationMatrix.m33 + g.z) < 1e-9)
        }
    }

    static func isIdentity(_ relative: CMQuaternion) -> Bool { relative.angle(to: .identity) < 1e-12 }

    /// Listing 1: the handler on `.main`, with the test blocking the main queue in
    /// `waitUntilFinished()`, which runs the main-queue handlers meanwhile.
    @MainActor @Test func handlerOnTheMainQueue() throws {
        let controller = MotionViewController()
        controller.startDeviceMotion()
        #expect(controller.motion.showsDeviceMovementDisplay)
        #expect(controller.motion.isDeviceMotionActive && controller.motion.attitudeReferenceFrame == .xMagneticNorthZVertical)
        controller.motion.waitUntilFinished()
        let readings = controller.readings.withLock { $0 }
        #expect(readings.map(\.timestamp) == Self.decimatedTimestamps, "\(readings.count) samples")
        #expect(controller.errors.withLock { $0.isEmpty })
        let first = try #require(readings.first)
        #expect(Self.isIdentity(first.relativeAttitude), "the first sample relative to itself")
        #expect(readings.dropFirst().contains { !Self.isIdentity($0.relativeAttitude) })
        Self.check(readings)
        controller.stopDeviceMotion()
    }

    /// Listing 2: queued updates on an `OperationQueue()` (concurrent: the readings may come out of
    /// order, each sample once).
    @Test func queuedUpdates() {
        let controller = MotionViewController()
        controller.startQueuedUpdates()
        controller.motion.waitUntilFinished()
        controller.queue.waitUntilAllOperationsAreFinished()
        let readings = controller.readings.withLock { $0 }
        #expect(readings.map(\.timestamp).sorted() == Self.decimatedTimestamps, "\(readings.count) samples")
        #expect(readings.contains { Self.isIdentity($0.relativeAttitude) })
        Self.check(readings)
    }

    /// Pull: a 60 Hz frame loop reading `deviceMotion` while the recording plays at 20× real time,
    /// until the recording has ended (3 s when the machine keeps up; a loaded machine — the
    /// sanitizer's run beside other suites — may take much longer, so the bound is a deadline,
    /// not a count of frames).
    @Test func pullLoop() throws {
        let controller = MotionViewController()
        controller.startPolling()
        let deadline = ContinuousClock.now + .seconds(120)
        while controller.motion.isDeviceMotionActive && !controller.motion.hasEnded && ContinuousClock.now < deadline {
            controller.updateFrame()
            Thread.sleep(forTimeInterval: 1.0 / 60.0)
        }
        #expect(controller.motion.hasEnded, "the recording played to its end within two minutes")
        controller.updateFrame()
        controller.stopDeviceMotion()
        let readings = controller.readings.withLock { $0 }
        // About 180 frames on an idle machine; a starved frame loop sees fewer (the paced source
        // catches up with the clock), so the count asks only for a sequence.
        #expect(readings.count >= 2, "\(readings.count) frames with a sample")
        let first = try #require(readings.first)
        #expect(Self.isIdentity(first.relativeAttitude))
        let timestamps = readings.map(\.timestamp)
        #expect(timestamps == timestamps.sorted(), "pulled samples never go back in time")
        #expect(timestamps.last == Self.decimatedTimestamps.last, "the last frame sees the last sample")
        Self.check(readings)
    }

    /// What the `@MainActor` view controller must have read: the samples a plain manager delivers
    /// from the same recording at the same interval, value for value, and the heading label of the
    /// last one.
    @MainActor static func check(_ controller: ViewController) async {
        let reference = CMMotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        reference.deviceMotionUpdateInterval = 1.0 / 60.0
        var expected: [CMDeviceMotion] = []
        for await motion in reference.deviceMotionUpdates(using: .xMagneticNorthZVertical) { expected.append(motion) }
        let samples = controller.samples
        #expect(samples.map(\.timestamp) == decimatedTimestamps, "\(samples.count) samples")
        #expect(samples == expected, "the controller saw the manager's samples")
        for data in samples {
            let g = data.gravity
            #expect(abs((g * g).sum().squareRoot() - 1) < 1e-9 && data.heading >= 0 && data.heading < 360)
        }
        #expect(controller.headingText == samples.last.map { "\(Int($0.heading.rounded()) % 360)°" })
        #expect(!controller.motion.isDeviceMotionActive || controller.motion.hasEnded)
    }

    /// The `@MainActor` view controller, with the test blocking the main queue in
    /// `waitUntilFinished()`: the `.main` handler, isolated to the main actor because it is written
    /// in the class, runs there (under `swift test` on a pool thread, the main queue's after
    /// `dispatchMain()`), and calls `self.update(data)` as Core Motion code does.
    @MainActor @Test func mainActorViewControllerInsideWaitUntilFinished() async {
        let controller = ViewController()
        controller.startDeviceMotion()
        controller.motion.waitUntilFinished()
        await Self.check(controller)
    }

    /// The same controller with nobody blocking the main queue: the main queue runs the handlers by
    /// itself, as an app's run loop does.
    @Test func mainActorViewControllerOnTheMainQueue() async throws {
        let controller = ViewController()
        await controller.startDeviceMotion()
        let expected = Self.decimatedTimestamps.count
        let deadline = ContinuousClock.now + .seconds(120)
        while await controller.samples.count < expected, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        await Self.check(controller)
    }

    /// Device motion through the usual `AsyncStream` wrapper around a handler on an
    /// `OperationQueue()`: every delivered sample once (in any order: the queue is concurrent), and
    /// leaving the loop stops the updates.
    @Test func asyncStreamWrapper() async {
        let wrapper = MotionStream()
        let expected = Self.decimatedTimestamps
        var timestamps: [Double] = []
        for await motion in wrapper.deviceMotionUpdates() {
            timestamps.append(motion.timestamp)
            if timestamps.count == expected.count { break }
        }
        #expect(timestamps.sorted() == expected, "\(timestamps.count) samples")
        #expect(!wrapper.motion.isDeviceMotionActive, "ending the stream stopped device motion")
    }

    @Test func coreMotionNamesMeanMotionFusionsTypes() {
        #expect(CMMotionManager.availableAttitudeReferenceFrames() == Set(CMAttitudeReferenceFrame.allCases))
        let field = CMCalibratedMagneticField()
        #expect(field.field == .zero && field.accuracy == .uncalibrated)
        let quaternion = CMQuaternion(x: 0, y: 0, z: 0, w: 1)
        #expect(quaternion == .identity)
        let matrix = CMRotationMatrix(m11: 1, m12: 2, m13: 3, m21: 4, m22: 5, m23: 6, m31: 7, m32: 8, m33: 9)
        #expect(matrix.m12 == 2 && matrix.m21 == 4 && matrix.m33 == 9)
        let attitude: CMAttitude = .identity
        #expect((attitude.copy() as? CMAttitude) == attitude)
        let motion: CMDeviceMotion? = nil
        #expect(motion?.sensorLocation != .headphoneLeft)
        let handler: CMDeviceMotionHandler = { _, _ in }
        handler(nil, nil)
    }
}

/// The `@MainActor` view controller on the real main thread, as in an app or a command-line program
/// (XCTest on Linux runs its test methods there; it cannot call a `@MainActor` method itself, so the
/// test enters the main actor with `MainActor.assumeIsolated`, which the main thread satisfies).
final class MainActorViewControllerMainThreadTests: XCTestCase {
    func testMainQueueHandlerOnTheMainThread() {
        XCTAssertTrue(Thread.isMainThread)
        MainActor.assumeIsolated {
            let controller = ViewController()
            controller.startDeviceMotion()
            controller.motion.waitUntilFinished()
            XCTAssertEqual(controller.samples.map(\.timestamp), CoreMotionCompatibilityTests.decimatedTimestamps)
            XCTAssertFalse(controller.headingText.isEmpty)
        }
    }

    /// Apple's Timer listing on the main run loop, with the recording replayed at the default pace
    /// (real time), as a device gives its samples: over 1.5 s of frames, the samples read span about
    /// 1.5 s of the recording (not the whole minute, as an unpaced replay would), never go back, and
    /// almost every frame has one.
    func testTimerPullOnTheMainRunLoopSeesSamplesInRealTime() throws {
        XCTAssertTrue(Thread.isMainThread)
        let controller = MainActor.assumeIsolated {
            let controller = TimerViewController(source: RecordingSource(CoreMotionCompatibilityTests.recording))
            controller.startDeviceMotion()
            return controller
        }
        let started = Date()
        // 1.5 s, and longer until 46 frames had a sample (a deadline, not a fixed time: on a loaded
        // machine the timer fires less often; the paced source catches up with the clock).
        while Date().timeIntervalSince(started) < 1.5
            || (controller.frames.withLock { $0.count } <= 45 && Date().timeIntervalSince(started) < 60)
        {
            RunLoop.current.run(until: Date().addingTimeInterval(0.1))
        }
        let elapsed = Date().timeIntervalSince(started)
        MainActor.assumeIsolated { controller.stopDeviceMotion() }
        let frames = controller.frames.withLock { $0 }
        XCTAssertGreaterThan(frames.count, 45, "frames with a sample (about 90 in 1.5 s)")
        let timestamps = frames.map(\.timestamp)
        XCTAssertEqual(timestamps, timestamps.sorted(), "pulled samples never go back in time")
        let span = try XCTUnwrap(timestamps.last) - timestamps[0]
        XCTAssertGreaterThan(span, 0.5 * elapsed, "recording time read in \(elapsed) s of frames")
        XCTAssertLessThan(span, elapsed + 0.1, "no faster than real time")
        for frame in frames {
            XCTAssertTrue(abs(frame.pitch) <= .pi / 2 && abs(frame.roll) <= .pi && abs(frame.yaw) <= .pi)
            XCTAssertTrue(frame.userAcceleration.x.isFinite)
        }
    }
}
