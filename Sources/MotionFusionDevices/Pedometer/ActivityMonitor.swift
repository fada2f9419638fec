import Foundation
import MotionFusionCore
import MotionFusionIO

/// The ``ActivityClassifier`` a ``MotionManager`` runs on the accelerometer of every sample its
/// worker takes, with the history of steps and activities that its ``Pedometer``s and
/// ``MotionActivityManager``s read and the handlers they registered.
///
/// The manager calls ``observe(_:)`` on its worker thread (with its own lock held: this class never
/// calls the manager) and ``sourceEnded(error:)`` when the source ends. Handlers are only posted to
/// their queues, never run here.
final class ActivityMonitor: Sendable {
    /// The history kept: a week of the source's time, as Core Motion keeps.
    static let historySeconds = 7 * 24 * 3600.0
    /// Steps closer than this belong to the same walk for the active time, s.
    static let longestActiveInterval = 2.0

    typealias Handler<Value: Sendable> = QueuedHandler<Value>

    struct PedometerUpdates {
        /// The date the updates count from.
        var start: Date
        var handler: Handler<PedometerData>
    }

    struct State {
        var classifier = ActivityClassifier<Double>()
        /// The date of the source's timestamp 0.
        var origin: Date?
        var stepLength = StepLengthModel()
        /// The steps' times on the monitor's timeline (the source's timestamps plus
        /// ``clockOffset``), oldest first.
        var stepTimes: [Double] = []
        /// The distance through each step, m, counted from the start (forgotten steps included).
        var distances: [Double] = []
        /// The distance through the last forgotten step, m.
        var forgottenDistance = 0.0
        /// The time spent walking through each step, s: the intervals between steps of a walk.
        var activeTimes: [Double] = []
        /// The distance covered in those intervals through each step, m.
        var activeDistances: [Double] = []
        var activities: [ActivityReport] = []
        /// The latest reading's time on the monitor's timeline.
        var lastTime: Double?
        var lastAccelerometerReading: Double?
        /// Added to the source's timestamps: grows when the source's clock restarts (see
        /// ``ActivityMonitor/observe(_:)``), so that the timeline never goes back.
        var clockOffset = 0.0
        /// Set when the source ended; `endError` is its failure, if any.
        var ended = false
        var endError: (any Error)?
        var pedometerUpdates: [UUID: PedometerUpdates] = [:]
        var eventHandlers: [UUID: Handler<PedometerEvent>] = [:]
        var activityHandlers: [UUID: Handler<MotionActivity>] = [:]
    }

    let state = Lock(State())

    /// Fixes the date of the source's timestamp 0, unless a sample or an earlier call fixed it.
    func setOrigin(_ origin: Date?) {
        guard let origin else { return }
        state.withLock { s in if s.origin == nil { s.origin = origin } }
    }

    // MARK: Fed by the manager's worker

    /// The longest step back in the source's timestamps that is ignored, s; a longer one (a
    /// source whose clock restarted, a recording played again) starts a new timeline.
    static let longestStepBack = 2.0

    /// Takes one sample's accelerometer reading (an assembled sample's repeated reading once).
    ///
    /// Readings the classifier ignores (a NaN or infinite value, a timestamp that is not finite or
    /// not after the latest) change nothing. A timestamp more than ``longestStepBack`` before the
    /// latest starts a new timeline: the classifier starts afresh (a walk in progress ends there,
    /// without a pause event) and the new timeline continues from the latest date, so the history
    /// and its dates never go back.
    func observe(_ sample: SensorSample) {
        guard let a = sample.accelerometer else { return }
        let raw = sample.accelerometerTimestamp ?? sample.timestamp
        guard raw.isFinite else { return }
        state.withLock { s in
            // As the manager's accelerometer service: a reading repeated by an assembled sample
            // (its accelerometerTimestamp that of the reading already taken) is taken once.
            if sample.accelerometerTimestamp != nil && raw == s.lastAccelerometerReading { return }
            s.lastAccelerometerReading = raw
            var t = raw + s.clockOffset
            if let last = s.lastTime, t < last - Self.longestStepBack {
                s.clockOffset += last - t
                t = raw + s.clockOffset
                s.classifier.reset()
            }
            if s.origin == nil { s.origin = Date(timeIntervalSinceNow: -t) }
            let ignored = s.classifier.steps.ignoredReadings
            let wasWalking = s.classifier.steps.isWalking
            let changed = s.classifier.update(timestamp: t, acceleration: a)
            guard s.classifier.steps.ignoredReadings == ignored else { return }
            s.lastTime = t
            let origin = s.origin!
            let newSteps = s.classifier.steps.newStepTimes
            for step in newSteps { Self.append(step, to: &s) }
            let walking = s.classifier.steps.isWalking
            if wasWalking != walking {
                let event = PedometerEvent(
                    date: origin + (walking ? (newSteps.first ?? t) : t), type: walking ? .resume : .pause)
                for handler in s.eventHandlers.values { handler.call(event, nil) }
            }
            if changed {
                s.activities.append(s.classifier.current)
                let activity = Self.activity(s.classifier.current, origin: origin)
                for handler in s.activityHandlers.values { handler.call(activity, nil) }
            }
            if !newSteps.isEmpty || wasWalking != walking {
                for updates in s.pedometerUpdates.values {
                    updates.handler.call(Self.data(s, from: updates.start, to: origin + t, live: true), nil)
                }
            }
            Self.forget(before: t - Self.historySeconds, in: &s)
        }
    }

    /// The source ended (with `error` if it failed): handlers of the pedometer receive the error.
    func sourceEnded(error: (any Error)?) {
        state.withLock { s in
            s.ended = true
            s.endError = error
            guard let error else { return }
            for updates in s.pedometerUpdates.values { updates.handler.call(nil, error) }
            for handler in s.eventHandlers.values { handler.call(nil, error) }
        }
    }

    // MARK: Read by pedometers and activity managers

    /// What was counted from `from` to `to` (dates); `live` adds the current cadence and pace.
    static func data(_ s: State, from: Date, to: Date, live: Bool) -> PedometerData {
        var data = PedometerData(
            startDate: from, endDate: to, numberOfSteps: 0, distance: 0, currentPace: nil, currentCadence: nil,
            averageActivePace: nil)
        guard let origin = s.origin else { return data }
        let t0 = from.timeIntervalSince(origin)
        let t1 = to.timeIntervalSince(origin)
        let lo = s.stepTimes.partitionPoint { $0 < t0 }
        let hi = s.stepTimes.partitionPoint { $0 <= t1 }
        if hi > lo {
            data.numberOfSteps = hi - lo
            data.distance = s.distances[hi - 1] - (lo > 0 ? s.distances[lo - 1] : s.forgottenDistance)
            // The intervals that end at steps lo+1 … hi−1 (the first step's interval began before
            // `from`), and the distance covered in them.
            let active = s.activeTimes[hi - 1] - s.activeTimes[lo]
            let covered = s.activeDistances[hi - 1] - s.activeDistances[lo]
            if active > 0 && covered > 0 { data.averageActivePace = active / covered }
        }
        if live, let cadence = s.classifier.steps.cadence {
            data.currentCadence = cadence
            data.currentPace = 1 / (cadence * s.stepLength.length)
        }
        return data
    }

    /// The activities from `from` to `to`: each run of reports of one kind as one activity (its
    /// latest confidence), the first possibly starting before `from`.
    static func activities(_ s: State, from: Date, to: Date) -> [MotionActivity] {
        guard let origin = s.origin else { return [] }
        let t0 = from.timeIntervalSince(origin)
        let t1 = to.timeIntervalSince(origin)
        var merged: [ActivityReport] = []
        for report in s.activities {
            if let last = merged.last, last.kind == report.kind {
                merged[merged.count - 1].confidence = report.confidence
                merged[merged.count - 1].reportTime = report.reportTime
            } else {
                merged.append(report)
            }
        }
        var result: [MotionActivity] = []
        for (k, report) in merged.enumerated() where report.startTime <= t1 {
            let end = k + 1 < merged.count ? merged[k + 1].startTime : .infinity
            if end > t0 { result.append(activity(report, origin: origin)) }
        }
        return result
    }

    static func activity(_ report: ActivityReport, origin: Date) -> MotionActivity {
        MotionActivity(
            kind: report.kind, confidence: report.confidence, startDate: origin + report.startTime,
            timestamp: report.reportTime)
    }

    // MARK: Private

    static func append(_ step: Double, to s: inout State) {
        let length = s.stepLength.length
        let previous = s.stepTimes.last
        let interval = previous.map { step - $0 } ?? .infinity
        let active = interval > 0 && interval <= longestActiveInterval
        s.distances.append((s.distances.last ?? s.forgottenDistance) + length)
        s.activeTimes.append((s.activeTimes.last ?? 0) + (active ? interval : 0))
        s.activeDistances.append((s.activeDistances.last ?? 0) + (active ? length : 0))
        s.stepTimes.append(step)
    }

    /// Drops what is older than `limit` (in chunks: an hour past the week at a time).
    static func forget(before limit: Double, in s: inout State) {
        if let first = s.stepTimes.first, first < limit - 3600 {
            let n = s.stepTimes.partitionPoint { $0 < limit }
            s.forgottenDistance = s.distances[n - 1]
            s.stepTimes.removeFirst(n)
            s.distances.removeFirst(n)
            s.activeTimes.removeFirst(n)
            s.activeDistances.removeFirst(n)
        }
        if s.activities.count > 1, s.activities[1].startTime < limit - 3600 {
            let n = s.activities.partitionPoint { $0.startTime < limit } - 1
            if n > 0 { s.activities.removeFirst(n) }
        }
    }
}

extension Array {
    /// The number of leading elements for which `before` holds, in an array partitioned by it (all
    /// elements for which it holds come first): a binary search.
    func partitionPoint(_ before: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if before(self[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
