import Foundation
import Testing
import RealModule

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Motion events on scripted synthetic gestures with known times, through the whole pipeline
/// (InertialFrameFilter → device motion → detectors), and the detectors on exact inputs.
@Suite("Motion events")
struct MotionEventTests {
    /// Runs a scenario through device motion and the detectors.
    static func events(_ scenario: MotionScenario) throws -> [MotionEvent] {
        let recording = try scenario.generate()
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xArbitraryCorrectedZVertical)
        var detector = MotionEventDetector()
        var events: [MotionEvent] = []
        for i in 0..<recording.count {
            let motion = processor.update(
                timestamp: recording.timestamps[i], gyroscope: recording.gyroscope[i],
                accelerometer: recording.accelerometer[i], magnetometer: recording.magnetometer?[i])
            detector.update(motion, into: &events)
        }
        detector.finish(at: recording.timestamps.last!, into: &events)
        return events
    }

    static func times(_ events: [MotionEvent], _ name: String) -> [Double] {
        events.filter { $0.name == name }.map(\.timestamp)
    }

    @Test func gesturesAreRecognizedWithin50Milliseconds() throws {
        let scenario = try #require(MotionScenario.named("gestures"))
        let plan = scenario.schedule
        let events = try Self.events(scenario)
        let shake = ShakeDetector.Settings()
        // Expected times from the scripted waveforms: a shake a·sin(2πft) is recognized at the
        // swing that makes the second reversal, when |a| crosses the threshold; it ends when |a| has
        // stayed below half the threshold for the quiet time.
        var expectedBegan: [Double] = []
        var expectedEnded: [Double] = []
        for s in plan {
            guard case .shake(_, _, let f, let amplitude) = s.segment else { continue }
            expectedBegan.append(s.start + (Double(shake.reversals) + Double.asin(shake.threshold / amplitude) / .pi) / (2 * f))
            expectedEnded.append(s.end - Double.asin(shake.threshold / 2 / amplitude) / (2 * .pi * f) + shake.quietDuration)
        }
        let began = Self.times(events, "shakeBegan")
        let ended = Self.times(events, "shakeEnded")
        #expect(began.count == expectedBegan.count && ended.count == expectedEnded.count, "\(events)")
        for (a, b) in zip(began, expectedBegan) { #expect(abs(a - b) <= 0.05, "shake began at \(a), expected \(b)") }
        for (a, b) in zip(ended, expectedEnded) { #expect(abs(a - b) <= 0.05, "shake ended at \(a), expected \(b)") }
        #expect(Self.times(events, "shakeCancelled").isEmpty)

        // Orientation: a rotation by 90° with the half-sine rate profile reaches the 0.75 g component
        // (48.6°) at t = T acos(1 − 2·48.6/90)/π into it; the change is reported 0.2 s later.
        let orientations = events.compactMap { e -> (Double, DeviceOrientation)? in
            if case .orientationChanged(let t, _, let to) = e { return (t, to) }
            return nil
        }
        #expect(orientations.map(\.1) == [.faceUp, .portrait, .landscapeLeft], "\(orientations)")
        let rotations = plan.filter { $0.segment.name == "rotate" }
        let crossing = Double.acos(1 - 2 * (Double.asin(0.75) * 180 / .pi) / 90) / .pi
        for (change, rotation) in zip(orientations.dropFirst(), rotations) {
            let expected = rotation.start + crossing * (rotation.end - rotation.start) + 0.2
            #expect(abs(change.0 - expected) <= 0.05, "\(change.1) at \(change.0), expected \(expected)")
        }

        // Pushes and the tap: one movement each, in the pushed direction, at the 0.3 g crossing.
        let movements = events.compactMap { e -> (Double, MovementDirection)? in
            if case .movement(let t, let d, _) = e { return (t, d) }
            return nil
        }
        for (segment, direction) in zip(plan.filter { ["push", "tap"].contains($0.segment.name) }, [MovementDirection.right, .down, .towardUser]) {
            let found = movements.filter { $0.0 >= segment.start && $0.0 <= segment.end + 0.5 }
            #expect(found.count == 1 && found.first?.1 == direction, "\(segment): \(found)")
            if case .push(_, let peak, let seconds) = segment.segment, let t = found.first?.0 {
                let expected = segment.start + Double.asin(0.3 / peak) * seconds / (2 * .pi)
                #expect(abs(t - expected) <= 0.05, "push detected at \(t), expected \(expected)")
            }
        }
    }

    @Test func tenMinutesOfWalkingMakeNoShake() throws {
        let scenario = try #require(MotionScenario.named("walking"))
        #expect(scenario.duration >= 600)
        let events = try Self.events(scenario)
        #expect(Self.times(events, "shakeBegan").isEmpty, "\(events.filter { $0.name.hasPrefix("shake") })")
    }

    @Test func everyOrientationInTurn() throws {
        let events = try Self.events(#require(MotionScenario.named("orientations")))
        let sequence = events.compactMap { e -> DeviceOrientation? in
            if case .orientationChanged(_, _, let to) = e { return to }
            return nil
        }
        // The last 180° turn about y passes through landscape left for about a second.
        #expect(
            sequence == [
                .faceUp, .portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight, .faceDown, .landscapeLeft,
                .faceUp,
            ])
    }

    @Test func orientationFromCoreMotionsDocumentedGravity() {
        #expect(DeviceOrientationDetector.classify(gravity: SIMD3<Double>(0, 0, -1)) == .faceUp)
        #expect(DeviceOrientationDetector.classify(gravity: SIMD3<Double>(0, -1, 0)) == .portrait)
        #expect(DeviceOrientationDetector.classify(gravity: SIMD3<Double>(0.707, -0.707, 0)) == nil)  // 45°: no change
        #expect(DeviceOrientationDetector.classify(gravity: SIMD3<Double>(-0.9, 0.3, 0.1)) == .landscapeLeft)
        #expect(DeviceOrientationDetector.classify(gravity: SIMD3<Double>(0, 0, 1)) == .faceDown)
        #expect(DeviceOrientationDetector.classify(gravity: SIMD3<Double>(.nan, 0, 1)) == nil)
        // Hysteresis: a tilt to 45° keeps portrait; a short excursion does not switch.
        var detector = DeviceOrientationDetector()
        var changes: [MotionEvent] = []
        func feed(_ g: SIMD3<Double>, from t0: Double, to t1: Double) {
            var t = t0
            while t < t1 {
                if let e = detector.update(timestamp: t, gravity: g) { changes.append(e) }
                t += 0.01
            }
        }
        feed(SIMD3(0, -1, 0), from: 0, to: 1)
        feed(SIMD3(0.707, -0.707, 0), from: 1, to: 2)
        feed(SIMD3(1, 0, 0), from: 2, to: 2.1)  // 0.1 s: too short
        feed(SIMD3(0, -1, 0), from: 2.1, to: 3)
        #expect(changes.count == 1 && detector.orientation == .portrait, "\(changes)")
    }

    @Test func shakeIsCancelledWhenTooLongOrInterrupted() {
        var detector = ShakeDetector()
        var events: [MotionEvent] = []
        var t = 0.0
        while t < 8 {  // an endless 5 Hz shake
            let a = SIMD3<Double>(2.5 * Double.sin(2 * .pi * 5 * t), 0, 0)
            if let e = detector.update(timestamp: t, userAcceleration: a) { events.append(e) }
            t += 0.01
        }
        #expect(events.map(\.name).prefix(2) == ["shakeBegan", "shakeCancelled"], "\(events)")
        if events.count >= 2 { #expect(abs(events[1].timestamp - events[0].timestamp - 5) < 0.02) }
        // Interrupted: the samples stop in the middle of a shake.
        var interrupted = ShakeDetector()
        var got: [MotionEvent] = []
        t = 0
        while t < 1 {
            if let e = interrupted.update(timestamp: t, userAcceleration: SIMD3<Double>(2.5 * Double.sin(2 * .pi * 5 * t), 0, 0)) {
                got.append(e)
            }
            t += 0.01
        }
        if let e = interrupted.update(timestamp: 3, userAcceleration: SIMD3<Double>.zero) { got.append(e) }
        #expect(got.map(\.name) == ["shakeBegan", "shakeCancelled"], "\(got)")
        // Lockout: after the cancellation (at 3 s), the shake must go quiet and the lockout pass
        // before a new one begins: a fresh shake at 3.2 s is ignored, one at 5 s is recognized.
        var late: [MotionEvent] = []
        t = 3.01
        while t < 7 {
            let shaking = (t > 3.2 && t < 3.6) || t > 5
            let a = SIMD3<Double>(shaking ? 2.5 * Double.sin(2 * .pi * 5 * t) : 0, 0, 0)
            if let e = interrupted.update(timestamp: t, userAcceleration: a) { late.append(e) }
            t += 0.01
        }
        #expect(late.first?.name == "shakeBegan" && (late.first?.timestamp ?? 0) > 5, "\(late)")
    }

    @Test func filtersFollowTheirTimeConstants() {
        var low = LowPassFilter<Double>(timeConstant: 0.5)
        var high = HighPassFilter<Double>(timeConstant: 0.5)
        low.update(.zero, dt: 0)
        high.update(.zero, dt: 0)
        var t = 0.0
        while t < 0.5 - 1e-9 {  // a unit step for one time constant, irregular steps
            let dt = t < 0.25 ? 0.01 : 0.025
            low.update(SIMD3(1, 1, 1), dt: dt)
            high.update(SIMD3(1, 1, 1), dt: dt)
            t += dt
        }
        #expect(abs(low.value.x - (1 - Double.exp(-1))) < 1e-12)
        #expect(abs(high.value.x - Double.exp(-1)) < 1e-12)
        low.update(SIMD3(.nan, 0, 0), dt: 0.01)
        #expect(low.value.x.isFinite)
    }
}
