/// How a replayed source paces its samples.
public enum ReplayPacing: Sendable, Hashable {
    /// As fast as the consumer takes them.
    case asFastAsPossible
    /// At the recording's own timing, multiplied by `speed` (1 = real time, 10 = ten times faster).
    ///
    /// `speed` is clamped to ``speeds`` (10⁻³ … 10⁶); zero, a negative speed or NaN paces as fast as
    /// possible. Timestamps that go backward, repeat, are not finite or jump forward by more than
    /// ``longestPause`` seconds of recording time are not waited for: the replay continues at once
    /// and is paced from that sample on.
    case realTime(speed: Double)

    /// The speeds ``realTime(speed:)`` uses; others are clamped to it.
    public static let speeds: ClosedRange<Double> = 1e-3...1e6

    /// The longest pause between two samples, in seconds of recording time, that a paced replay
    /// waits out (at the given speed); a longer jump is replayed without waiting.
    public static let longestPause = 60.0
}
