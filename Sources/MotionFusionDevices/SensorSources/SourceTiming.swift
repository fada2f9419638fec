import Foundation

extension Duration {
    /// The duration in seconds.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }

    /// The longest wait any paced source computes, in seconds: 10¹² s (about 31,700 years). Far
    /// below what `Duration` and a clock instant can hold (about 1.7 × 10²⁰ s), so a wait built from
    /// any user-given number can be added to an instant without trapping.
    static let longestWaitSeconds = 1e12

    /// A wait of `seconds`, clamped to [0, ``longestWaitSeconds``]; NaN waits nothing. The one
    /// place where the paced sources turn a computed number of seconds into a `Duration`
    /// (`Duration.seconds(_:)` traps beyond its range).
    static func wait(seconds: Double) -> Duration {
        guard seconds > 0 else { return .zero }  // also NaN
        return .seconds(Swift.min(seconds, longestWaitSeconds))
    }
}

/// Sleeps the calling thread until `instant`; returns at once if it has passed. The paced sources
/// (``CSVReplaySource``, ``RecordingSource``, ``IIOSource``) wait with it.
func sleep(until instant: ContinuousClock.Instant) {
    let now = ContinuousClock.now
    if instant > now { Thread.sleep(forTimeInterval: (instant - now).inSeconds) }
}
