import MotionFusionCore
import MotionFusionIO
import Foundation

/// The queue a ``MotionManager`` handler runs on: a `DispatchQueue` or an `OperationQueue`.
///
/// Work for the main queue (`DispatchQueue.main`, `OperationQueue.main`) goes through a
/// ``MainQueueDelivery``: a FIFO that the block posted to the main queue drains, and that
/// ``MotionManager/waitUntilFinished()`` also drains when it is called on the main thread or the main
/// queue — where the posted blocks cannot run, because the caller blocks the main queue.
struct HandlerQueue: Sendable {
    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let mainDelivery: MainQueueDelivery?

    init(_ queue: DispatchQueue) {
        schedule = { queue.async(execute: $0) }
        mainDelivery = MainQueue.isMain(queue) ? .dispatchMain : nil
    }

    init(_ queue: OperationQueue) {
        schedule = { queue.addOperation($0) }
        mainDelivery = queue === OperationQueue.main ? .operationMain : nil
    }

    /// Runs `work` on the queue, after the work posted before it (FIFO on a serial queue).
    func async(_ work: @escaping @Sendable () -> Void) {
        if let mainDelivery { mainDelivery.post(work) } else { schedule(work) }
    }
}

/// Tells whether code runs on the main queue (or the main thread), which `Thread.isMainThread`
/// alone does not: once a program calls `dispatchMain()` (as an `async` main does on Linux, and so
/// `swift test`), the main queue and the main actor run on a pool thread.
enum MainQueue {
    static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// True on the main thread, and inside work that the main queue runs.
    static var isCurrent: Bool { Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true }

    /// True if `queue` is the main queue (Linux gives a new `DispatchQueue` object for each
    /// `DispatchQueue.main`, so identity does not tell).
    static func isMain(_ queue: DispatchQueue) -> Bool { queue.getSpecific(key: key) == true }
}

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
