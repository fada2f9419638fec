import Dispatch

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// A recording source that holds its first sample back until ``open()``: a test starts every service
/// it needs first, so that none misses the samples the worker takes while the next one is started.
final class GatedSource: MotionSource {
    let inner: RecordingSource
    private let gate = DispatchSemaphore(value: 0)
    private var opened = false  // only the manager's worker thread touches it

    init(_ recording: IMURecording) { inner = RecordingSource(recording, pacing: .asFastAsPossible) }

    var sensors: SensorSet { inner.sensors }

    func open() { gate.signal() }

    func next() throws -> SensorSample? {
        if !opened {
            gate.wait()
            opened = true
        }
        return try inner.next()
    }
}
