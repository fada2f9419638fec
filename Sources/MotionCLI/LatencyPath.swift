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
    /// The floor with a serial `DispatchQueue`: the floor's reader posts each scan's stamping to the
    /// queue (`async`), as the manager posts a handler. What the queue's handover alone costs, no
    /// manager: the floor the handler path sits on.
    case queueRelay = "relay-queue"
    /// The floor with an `AsyncStream`: the floor's reader yields each scan's timestamp to a stream
    /// that a `Task` consumes with `for await`, as the manager's stream is consumed. What that
    /// handover alone costs, no manager: the floor the stream path sits on.
    case streamRelay = "relay-stream"
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

    /// The floor and the relays: no source, no manager.
    var isFloor: Bool { self == .floor || self == .relay || self == .queueRelay || self == .streamRelay }
}
