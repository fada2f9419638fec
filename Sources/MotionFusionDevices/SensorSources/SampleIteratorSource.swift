import MotionFusionCore

/// A ``MotionSource`` whose samples come from an iterator, each computed when the manager takes it:
/// a simulation streamed instead of generated whole first (``MotionScenario/samples()`` mapped to
/// ``SensorSample``s), so that it starts at once and holds one sample, not the whole recording.
/// Paced as ``RecordingSource`` is; the source ends when the iterator does.
public final class SampleIteratorSource<Samples: IteratorProtocol>: MotionSource
where Samples.Element == SensorSample {
    public let sensors: SensorSet
    public let pacing: ReplayPacing
    private var samples: Samples
    private var pacer: ReplayPacer

    /// A source taking its samples from `samples`, which delivers readings of `sensors`.
    public init(_ samples: Samples, sensors: SensorSet, pacing: ReplayPacing = .realTime(speed: 1)) {
        self.samples = samples
        self.sensors = sensors
        self.pacing = pacing
        pacer = ReplayPacer(pacing)
    }

    public func next() throws -> SensorSample? {
        guard let sample = samples.next() else { return nil }
        pacer.wait(until: sample.timestamp)
        return sample
    }
}
