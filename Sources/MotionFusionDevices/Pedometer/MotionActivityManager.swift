import Foundation
import MotionFusionCore
import MotionFusionIO

/// Core Motion's `CMMotionActivityManager` for any ``MotionSource``: stationary, walking, running or
/// unknown, with a confidence and a start date, live and over what the source has given.
///
/// It reads the ``ActivityClassifier`` a ``MotionManager`` runs on its samples, shared with the
/// manager's ``Pedometer``s: the dates, the history (a week) and when the classifier runs are as
/// ``Pedometer`` describes. Automotive and cycling are never reported (no labelled data to tell
/// them apart): ``MotionActivity/automotive`` and ``MotionActivity/cycling`` are false, and such
/// trips are unknown (or stationary when smooth).
public final class MotionActivityManager: Sendable {
    /// The manager whose samples are classified.
    public let manager: MotionManager
    private let updates: MonitorSubscription<ActivityMonitor.Handler<MotionActivity>>

    /// An activity manager over a manager's samples; `timestampOrigin` as in
    /// ``Pedometer/init(manager:timestampOrigin:)``.
    public init(manager: MotionManager, timestampOrigin: Date? = nil) {
        self.manager = manager
        updates = MonitorSubscription(manager, \.activityHandlers)
        manager.activityMonitor.setOrigin(timestampOrigin)
    }

    /// An activity manager with a manager of its own over `source`.
    public convenience init(source: any MotionSource, timestampOrigin: Date? = nil) {
        self.init(manager: MotionManager(source: source), timestampOrigin: timestampOrigin)
    }

    /// True: the activity comes from any source with an accelerometer.
    public static func isActivityAvailable() -> Bool { true }
    /// Always ``AuthorizationStatus/authorized``.
    public static func authorizationStatus() -> AuthorizationStatus { .authorized }

    /// Core Motion's `CMMotionActivityHandler`.
    public typealias Handler = (MotionActivity?) -> Void
    /// Core Motion's `CMMotionActivityQueryHandler`.
    public typealias QueryHandler = ([MotionActivity]?, (any Error)?) -> Void

    /// Delivers the current activity first (once a sample has been seen), then each change of the
    /// activity or its confidence, on `queue`. Replaces the updates already running.
    public func startActivityUpdates(to queue: OperationQueue, withHandler handler: @escaping Handler) {
        let handler = ActivityMonitor.Handler<MotionActivity>(queue: HandlerQueue(queue)) { activity, _ in handler(activity) }
        updates.start(handler) { s in
            // The current activity first, once a sample has been seen.
            if let origin = s.origin, s.lastTime != nil {
                handler.call(ActivityMonitor.activity(s.classifier.current, origin: origin), nil)
            }
        }
    }

    /// Stops the updates.
    public func stopActivityUpdates() { updates.stop() }

    /// Delivers once, on `queue`, the activities between `start` and `end` (each the last report of
    /// its kind, the first possibly starting before `start`), over the history the manager has seen;
    /// ``MotionHistoryError/invalidInterval(from:to:)`` if `start` is after `end`.
    public func queryActivityStarting(
        from start: Date, to end: Date, to queue: OperationQueue, withHandler handler: @escaping QueryHandler
    ) {
        let handler = ActivityMonitor.Handler<[MotionActivity]>(queue: HandlerQueue(queue), body: handler)
        guard start <= end else { return handler.call(nil, MotionHistoryError.invalidInterval(from: start, to: end)) }
        let activities = manager.activityMonitor.state.withLock { ActivityMonitor.activities($0, from: start, to: end) }
        handler.call(activities, nil)
    }
}
