
/// Sleeps so that recording time `t` is reached at the right wall-clock moment, by the rules of
/// ``ReplayPacing/realTime(speed:)``.
struct ReplayPacer {
    let speed: Double?
    /// The sample the pacing is measured from, and when it was replayed.
    var origin: (recording: Double, clock: ContinuousClock.Instant)?
    /// The last finite timestamp.
    var last: Double?

    init(_ pacing: ReplayPacing) {
        switch pacing {
        case .asFastAsPossible: speed = nil
        case .realTime(let s):
            speed = s > 0 ? Swift.min(Swift.max(s, ReplayPacing.speeds.lowerBound), ReplayPacing.speeds.upperBound) : nil
        }
    }

    mutating func wait(until t: Double) {
        guard let speed, t.isFinite else { return }
        defer { last = t }
        guard let origin, let last, t >= last, t - last <= ReplayPacing.longestPause else {
            origin = (t, .now)  // the first sample, or a jump: pace from here
            return
        }
        sleep(until: origin.clock + .wait(seconds: (t - origin.recording) / speed))
    }
}
