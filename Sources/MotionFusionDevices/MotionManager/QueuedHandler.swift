/// A handler and the queue it runs on, as ``MotionManager``, ``Pedometer`` and
/// ``MotionActivityManager`` keep them. `@unchecked Sendable` because `body` is not: it is never
/// called here, only posted to `queue`, which is where the caller asked for it to run (Core
/// Motion's contract).
struct QueuedHandler<Value: Sendable>: @unchecked Sendable {
    let queue: HandlerQueue
    let body: (Value?, (any Error)?) -> Void

    func call(_ value: Value?, _ error: (any Error)?) {
        let handler = self
        queue.async { handler.body(value, error) }
    }
}
