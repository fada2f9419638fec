import MotionFusionCore

/// A source of raw sensor samples for a ``MotionManager``: a recording replayed, a simulation, or
/// real sensors. The manager calls ``next()`` from its own thread, one call at a time; a source
/// that paces itself (real time, hardware) blocks in it until the next sample is due.
public protocol MotionSource: AnyObject {
    /// The sensors this source has.
    var sensors: SensorSet { get }
    /// The next sample, or nil when the source has ended.
    func next() throws -> SensorSample?
}
