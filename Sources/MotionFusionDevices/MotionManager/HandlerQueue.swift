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
