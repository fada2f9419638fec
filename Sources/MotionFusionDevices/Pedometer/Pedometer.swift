import Foundation
import MotionFusionCore
import MotionFusionIO

/// Core Motion's `CMPedometer` for any ``MotionSource``: steps, distance, cadence and pace, live
/// and over what the source has given, and the pause and resume of walks.
///
/// A pedometer reads the accelerometer of a ``MotionManager``'s samples: the manager's
/// ``ActivityClassifier`` (shared with its other pedometers and ``MotionActivityManager``s) counts
/// the steps of every sample the manager's worker takes, while any of its services, pedometer
/// updates or activity updates runs. ``queryPedometerData(from:to:withHandler:)`` reads that
/// history (the last week of it, as Core Motion keeps); updates and events keep the worker running.
///
/// **Dates.** Samples carry the source's timestamps (s). The first sample the manager takes fixes
/// the date of each timestamp: that sample's date is the moment it arrived (so for a live source
/// the dates are the wall clock's), unless ``MotionManager``'s pedometers were given a
/// `timestampOrigin` (the date of timestamp 0) before it. The dates of a recording replayed
/// faster than real time run ahead of the wall clock: give the date it was recorded at instead.
///
/// **Handlers** run on the pedometer's own serial queue, one at a time, in order, as Core Motion's
/// do: dispatch to the main queue from them to update a user interface. A source that fails reaches
/// the update and event handlers once with its error (handlers started after the failure, at their
/// start).
///
/// **Timestamps** that go back by up to 2 s are ignored (as ``StepDetector`` ignores them); a
/// longer step back — a source whose clock restarted, a recording played again — starts a new
/// timeline that continues from the latest date, the step count starting afresh from there.
///
/// **Distance** is the steps times ``stepLength``'s length (see ``StepLengthModel`` for the model
/// and its accuracy). Floors are not counted (no barometer): their fields are nil.
public final class Pedometer: Sendable {
    /// The manager whose samples are counted (for ``MotionManager/waitUntilFinished()``).
    public let manager: MotionManager
    private let queue = HandlerQueue(DispatchQueue(label: "MotionFusion.Pedometer"))
    private let updates: MonitorSubscription<ActivityMonitor.PedometerUpdates>
    private let events: MonitorSubscription<ActivityMonitor.Handler<PedometerEvent>>

    /// A pedometer over a manager's samples, shared with whatever else uses the manager.
    /// `timestampOrigin`, when given, is the date of the source's timestamp 0 (see the type's
    /// documentation); it applies when given before the manager takes its first sample.
    public init(manager: MotionManager, timestampOrigin: Date? = nil) {
        self.manager = manager
        updates = MonitorSubscription(manager, \.pedometerUpdates)
        events = MonitorSubscription(manager, \.eventHandlers)
        manager.activityMonitor.setOrigin(timestampOrigin)
    }

    /// A pedometer with a manager of its own over `source` (Core Motion's `CMPedometer()`, with the
    /// source it counts).
    public convenience init(source: any MotionSource, timestampOrigin: Date? = nil) {
        self.init(manager: MotionManager(source: source), timestampOrigin: timestampOrigin)
    }

    // MARK: Availability

    /// True: steps are counted from any source with an accelerometer.
    public static func isStepCountingAvailable() -> Bool { true }
    /// True: distance comes from ``StepLengthModel``.
    public static func isDistanceAvailable() -> Bool { true }
    /// False: no barometer.
    public static func isFloorCountingAvailable() -> Bool { false }
    public static func isPaceAvailable() -> Bool { true }
    public static func isCadenceAvailable() -> Bool { true }
    public static func isPedometerEventTrackingAvailable() -> Bool { true }
    /// Always ``AuthorizationStatus/authorized``: nothing here asks for permission.
    public static func authorizationStatus() -> AuthorizationStatus { .authorized }

    /// The step length that gives distance and pace (shared by the manager's pedometers); a change
    /// applies to the steps counted from then on.
    public var stepLength: StepLengthModel {
        get { manager.activityMonitor.state.withLock { $0.stepLength } }
        set { manager.activityMonitor.state.withLock { $0.stepLength = newValue } }
    }

    // MARK: Updates

    /// Core Motion's `CMPedometerHandler`.
    public typealias Handler = (PedometerData?, (any Error)?) -> Void
    /// Core Motion's `CMPedometerEventHandler`.
    public typealias EventHandler = (PedometerEvent?, (any Error)?) -> Void

    /// Delivers, at every step counted and when a walk starts or stops, what was counted from
    /// `start` (which may be in the past: the steps since then are included) to the latest sample,
    /// with the current cadence and pace. Replaces the updates already running. If the source has
    /// already failed, the handler receives its error once.
    public func startUpdates(from start: Date, withHandler handler: @escaping Handler) {
        let registration = ActivityMonitor.PedometerUpdates(start: start, handler: .init(queue: queue, body: handler))
        updates.start(registration) { s in
            if let error = s.endError { registration.handler.call(nil, error) }
        }
    }

    /// Stops the updates.
    public func stopUpdates() { updates.stop() }

    /// Delivers once what was counted from `start` to `end`, over the history the manager has seen
    /// (no current cadence or pace); ``MotionHistoryError/invalidInterval(from:to:)`` if `start` is
    /// after `end`.
    public func queryPedometerData(from start: Date, to end: Date, withHandler handler: @escaping Handler) {
        let handler = ActivityMonitor.Handler(queue: queue, body: handler)
        guard start <= end else { return handler.call(nil, MotionHistoryError.invalidInterval(from: start, to: end)) }
        let data = manager.activityMonitor.state.withLock { ActivityMonitor.data($0, from: start, to: end, live: false) }
        handler.call(data, nil)
    }

    /// Delivers a ``PedometerEvent`` when a walk (or run) resumes or pauses. Replaces the event
    /// updates already running. If the source has already failed, the handler receives its error
    /// once.
    public func startEventUpdates(handler: @escaping EventHandler) {
        let handler = ActivityMonitor.Handler(queue: queue, body: handler)
        events.start(handler) { s in
            if let error = s.endError { handler.call(nil, error) }
        }
    }

    /// Stops the event updates.
    public func stopEventUpdates() { events.stop() }
}
