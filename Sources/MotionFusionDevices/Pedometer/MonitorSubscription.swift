import Foundation
import MotionFusionIO

/// One kind of handler that a ``Pedometer`` or ``MotionActivityManager`` keeps registered with its
/// manager's ``ActivityMonitor`` (a pedometer's updates, its events, an activity manager's updates),
/// at most one at a time.
///
/// A start replaces the registration in one critical section (this object's lock, then the
/// monitor's, then the manager's), so that concurrent starts and stops leave one registration and
/// the manager's demand right; what it replaces is released outside every lock (a handler may hold
/// the last reference to a pedometer, whose deinit stops its subscriptions). Released, it stops.
final class MonitorSubscription<Value: Sendable>: Sendable {
    private let manager: MotionManager
    /// Where the monitor keeps this kind of handler. A key path is an immutable value; it is only
    /// not marked Sendable.
    nonisolated(unsafe) private let path: WritableKeyPath<ActivityMonitor.State, [UUID: Value]>
    private let id = Lock<UUID?>(nil)

    init(_ manager: MotionManager, _ path: WritableKeyPath<ActivityMonitor.State, [UUID: Value]>) {
        self.manager = manager
        self.path = path
    }

    /// Registers `value`, replacing the registration there was; `registered` runs in the monitor's
    /// critical section right after (to deliver what a new handler is owed at once).
    func start(_ value: Value, registered: (ActivityMonitor.State) -> Void = { _ in }) {
        let replaced = id.withLock { id -> Value? in
            let old = id
            let new = UUID()
            id = new
            let replaced = manager.activityMonitor.state.withLock { s -> Value? in
                s[keyPath: path][new] = value
                registered(s)
                return old.flatMap { s[keyPath: path].removeValue(forKey: $0) }
            }
            if old == nil { manager.startMonitoring() }
            return replaced
        }
        _ = replaced
    }

    /// Removes the registration, if there is one.
    func stop() {
        let removed = id.withLock { id -> Value? in
            guard let old = id else { return nil }
            id = nil
            let removed = manager.activityMonitor.state.withLock { $0[keyPath: path].removeValue(forKey: old) }
            manager.stopMonitoring()
            return removed
        }
        _ = removed
    }

    deinit { stop() }
}
