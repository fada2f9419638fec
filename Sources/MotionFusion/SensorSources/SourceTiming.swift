import Foundation

extension Duration {
    /// The duration in seconds.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}

/// Sleeps the calling thread until `instant`; returns at once if it has passed. The paced sources
/// (``CSVReplaySource``, ``RecordingSource``, ``IIOSource``) wait with it.
func sleep(until instant: ContinuousClock.Instant) {
    let now = ContinuousClock.now
    if instant > now { Thread.sleep(forTimeInterval: (instant - now).inSeconds) }
}
