/// How device motion reaches the consumer in a `motion bench --latency` case.
enum LatencyPath: String, CaseIterable, Sendable {
    /// No source, no filter, no manager: a thread blocked in `poll` on the device's FIFO reads
    /// each scan's bytes and stamps it. What the operating system alone costs (the writer's write,
    /// the reader's wake-up), measured in the same run: the floor the other paths sit on.
    case floor
    /// The floor with one more thread: the floor's reader hands each scan's timestamp to a second
    /// thread, blocked on a semaphore, which stamps it. What the operating system costs a consumer
    /// that is not the thread the device woke — a handler on a queue, a task awaiting a stream —
    /// before any of the manager's work: the floor the handler and stream paths sit on.
    case relay
    /// ``MotionManager/startDeviceMotionUpdates(using:declination:calibration:to:withHandler:)`` with
    /// a serial `DispatchQueue`: the manager's worker thread takes the scan, computes device motion
    /// and posts the handler to the queue.
    case handler
    /// ``MotionManager/deviceMotionUpdates(using:declination:calibration:)``: the same worker yields to
    /// the `AsyncStream`, which a `Task` consumes with `for await`.
    case stream
    /// No manager: the consumer's own thread calls the source's `next()` and runs a
    /// ``DeviceMotionProcessor`` itself, as the manager's worker does.
    case pull
}
