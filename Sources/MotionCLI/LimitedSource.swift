import MotionFusion

/// Ends a source once its timestamps have covered `duration` seconds (the sample that reaches it
/// is the last).
final class LimitedSource: MotionSource {
    let base: any MotionSource
    let duration: Double
    var first: Double?
    var done = false

    init(_ base: any MotionSource, duration: Double) {
        self.base = base
        self.duration = duration
    }

    var sensors: SensorSet { base.sensors }

    func next() throws -> SensorSample? {
        guard !done, let sample = try base.next() else { return nil }
        if first == nil { first = sample.timestamp }
        if let first, sample.timestamp - first >= duration { done = true }
        return sample
    }
}
