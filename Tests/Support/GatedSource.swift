import Dispatch
import MotionFusionCore
import MotionFusionDevices

/// A source that holds its first sample back until ``open()``: a test starts every service it
/// needs first, so that none misses the samples the manager's worker takes while the next one is
/// started. Shared by the unit tests, the Core Motion code's tests and the long runs.
public final class GatedSource<Inner: MotionSource>: MotionSource {
    /// The source whose samples pass once the gate is open.
    public let inner: Inner
    private let gate = DispatchSemaphore(value: 0)
    private var opened = false  // only the manager's worker thread touches it

    public init(_ inner: Inner) { self.inner = inner }

    public var sensors: SensorSet { inner.sensors }

    /// Lets the first sample (and every one after it) through.
    public func open() { gate.signal() }

    public func next() throws -> SensorSample? {
        if !opened {
            gate.wait()
            opened = true
        }
        return try inner.next()
    }
}

extension GatedSource where Inner == RecordingSource {
    /// A gate before a recording read as fast as the manager takes it.
    public convenience init(_ recording: IMURecording) {
        self.init(RecordingSource(recording, pacing: .asFastAsPossible))
    }
}
