// Core Motion pedometer and activity code as published, compiled in Swift 6 language mode (the
// package's) against CoreMotionCompatibility, with only the import and the constructors changed
// (`CMPedometer()` → `CMPedometer(source: …)`, `CMMotionActivityManager()` →
// `CMMotionActivityManager(source: …)`):
//   - `ActivityViewController.startActivity()`: NSHipster's "CMMotionActivity" (Mattt,
//     https://nshipster.com/cmmotionactivity/), the handler on `.main`, verbatim but the
//     constructor (and `print` collected into `modes`, so that the test can read it).
//   - `StepCounter`: `queryPedometerData(from: startOfDay, to: Date())` and `startUpdates(from:)`
//     as the kristoforusdavid/Pedometer sample writes them (`ViewController.swift`), the data read
//     as Apple's CMPedometerData reference documents it (`numberOfSteps.intValue`,
//     `distance?.doubleValue`, `currentCadence?.doubleValue`), the availability checks, and
//     `startEventUpdates` switching over `.pause` and `.resume`.
// Apple runs a pedometer's handlers on a private serial queue: what they share with the rest of
// the program is the program's to protect (here in a `Locked`, as an app would).

import CoreMotionCompatibility
import Foundation

/// A walk for the sources: a phone lying flat, a second at rest, then 40 steps 0.55 s apart (each a
/// 3 m/s² vertical half-sine jolt of 0.1 s), then three seconds at rest; 100 Hz.
enum Walk {
    static let steps = (0..<40).map { 1 + 0.55 * Double($0) }

    static func recording() -> IMURecording {
        var recording = IMURecording()
        var t = 0.0
        while t < steps.last! + 3 {
            var jolt = 0.0
            for s in steps where abs(t - s) < 0.05 { jolt += 3 * sin(Double.pi * (t - s + 0.05) / 0.1) }
            recording.timestamps.append(t)
            recording.accelerometer.append(SIMD3(0, 0, 9.81 + jolt))
            recording.gyroscope.append(.zero)
            t += 0.01
        }
        return recording
    }
}

final class StepCounter {
    let pedometer: CMPedometer
    let log = Locked<(updates: [Int], distance: Double?, cadence: Double?, events: [CMPedometerEventType], today: Int?)>(
        ([], nil, nil, [], nil))

    /// The recording's timestamp 0 at `origin`. Replayed at ten times real time (2.6 s), as a
    /// device would give it: as fast as possible, the whole walk could pass between the updates'
    /// start and the events' start, and the events would miss the walk's resume. (The test gives a
    /// source that starts when told, so that a loaded machine cannot pass the walk's start between
    /// the two either.)
    init(origin: Date, source: any MotionSource = RecordingSource(Walk.recording(), pacing: .realTime(speed: 10))) {
        pedometer = CMPedometer(source: source, timestampOrigin: origin)
    }

    func startCounting() {
        guard CMPedometer.isStepCountingAvailable() else { return }
        pedometer.startUpdates(from: Date(timeIntervalSinceNow: -3600), withHandler: { (data, error) in
            guard let data = data, error == nil else { return }
            let steps = data.numberOfSteps.intValue
            let distance = CMPedometer.isDistanceAvailable() ? data.distance?.doubleValue : nil
            let cadence = CMPedometer.isCadenceAvailable() ? data.currentCadence?.doubleValue : nil
            self.log.withLock {
                $0.updates.append(steps)
                $0.distance = distance
                if let cadence { $0.cadence = cadence }
            }
        })
        if CMPedometer.isPedometerEventTrackingAvailable() {
            pedometer.startEventUpdates { event, error in
                guard let event = event else { return }
                switch event.type {
                case .pause: self.log.withLock { $0.events.append(.pause) }
                case .resume: self.log.withLock { $0.events.append(.resume) }
                }
            }
        }
    }

    func queryToday(done: @escaping @Sendable () -> Void) {
        let calendar = Calendar.current
        pedometer.queryPedometerData(from: calendar.startOfDay(for: Date()), to: Date()) { (data, error) in
            self.log.withLock { $0.today = data?.numberOfSteps.intValue }
            done()
        }
    }

    func stop() {
        pedometer.stopUpdates()
        pedometer.stopEventUpdates()
    }
}

@MainActor final class ActivityViewController {
    let manager = CMMotionActivityManager(source: RecordingSource(Walk.recording(), pacing: .asFastAsPossible))
    var modes: [Set<String>] = []

    func startActivity() {
        let manager = self.manager
        manager.startActivityUpdates(to: .main) { (activity) in
            guard let activity = activity else {
                return
            }

            var modes: Set<String> = []
            if activity.walking {
                modes.insert("🚶")
            }

            if activity.running {
                modes.insert("🏃")
            }

            if activity.cycling {
                modes.insert("🚴")
            }

            if activity.automotive {
                modes.insert("🚗")
            }

            self.modes.append(modes)
        }
    }
}
