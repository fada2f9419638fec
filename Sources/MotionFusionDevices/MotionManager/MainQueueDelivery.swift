import Foundation
import MotionFusionIO

/// Handler work bound for one main queue, in order. Each piece runs exactly once, on the main
/// queue or the main thread: from the drain block posted to the queue, or from
/// ``MotionManager/waitUntilFinished()`` called there.
final class MainQueueDelivery: Sendable {
    static let dispatchMain = MainQueueDelivery { DispatchQueue.main.async(execute: $0) }
    static let operationMain = MainQueueDelivery { OperationQueue.main.addOperation($0) }

    /// The work posted and not yet taken, in order.
    private struct Pending {
        var work: [@Sendable () -> Void] = []
        var head = 0
        /// Whether a drain block is posted to the queue and has not yet found `work` empty.
        var scheduled = false

        /// The next piece of work, once; nil when there is none (and no drain is scheduled then).
        mutating func take() -> (@Sendable () -> Void)? {
            guard head < work.count else {
                work.removeAll(keepingCapacity: work.count < 4096)
                head = 0
                scheduled = false
                return nil
            }
            defer {
                work[head] = {}
                head += 1
            }
            return work[head]
        }
    }

    private let pending = Lock(Pending())
    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void

    private init(schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.schedule = schedule
    }

    func post(_ work: @escaping @Sendable () -> Void) {
        let needsDrain = pending.withLock { pending in
            pending.work.append(work)
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        if needsDrain { schedule { self.drain() } }
    }

    /// Runs the pending work one piece at a time, outside the lock (a handler may call the manager,
    /// or even drain again: each piece is taken in order, once).
    func drain() {
        while let work = pending.withLock({ $0.take() }) { work() }
    }
}
