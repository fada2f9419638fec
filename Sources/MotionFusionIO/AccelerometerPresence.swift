import MotionFusionCore

/// Whether a recording ever gave an accelerometer reading that can stand for gravity: a sample's
/// reading with every component finite and not all zero. Without one no attitude, gravity, user
/// acceleration or device orientation can be computed, and `fuse`, `device-motion`, `events` and
/// the web page refuse the recording rather than show made-up values (identity attitudes, flat
/// gravity, "faceUp").
public struct AccelerometerPresence: Sendable {
    /// A reading that can stand for gravity has been seen.
    public private(set) var seen = false

    public init() {}

    /// Takes a sample's accelerometer reading.
    @inline(__always)
    public mutating func see(_ reading: SIMD3<Double>?) {
        guard !seen, let a = reading else { return }
        seen = a.x.isFinite && a.y.isFinite && a.z.isFinite && a != .zero
    }

    /// Why the recording is refused, unless a reading was seen (nil): `paths` are the recording's
    /// files, `written` says what became of the output.
    public func refusal(_ paths: [String], written: String) -> String? {
        guard !seen else { return nil }
        return paths.joined(separator: ", ")
            + ": no accelerometer reading in the recording that a sample could use (every "
            + "ax,ay,az empty, nan or zero, or none within 0.1 s before a gyroscope reading): without gravity there is "
            + "no attitude; " + written
    }
}
