import MotionFusion

/// Whether a recording ever gave an accelerometer reading that can stand for gravity: a sample's
/// reading with every component finite and not all zero. Without one no attitude, gravity, user
/// acceleration or device orientation can be computed, and `fuse`, `device-motion` and `events`
/// refuse the recording rather than write made-up values (identity attitudes, flat gravity,
/// "faceUp").
struct AccelerometerPresence {
    private(set) var seen = false

    /// Takes a sample's accelerometer reading.
    @inline(__always)
    mutating func see(_ reading: SIMD3<Double>?) {
        guard !seen, let a = reading else { return }
        seen = a.x.isFinite && a.y.isFinite && a.z.isFinite && a != .zero
    }

    /// Throws unless a reading was seen: `paths` are the recording's files, `written` says what
    /// became of the output.
    func check(_ paths: [String], written: String) throws {
        guard !seen else { return }
        throw CommandFailure(
            "\(paths.joined(separator: ", ")): no accelerometer reading in the recording that a sample could use (every "
                + "ax,ay,az empty, nan or zero, or none within 0.1 s before a gyroscope reading): without gravity there is "
                + "no attitude; \(written)")
    }
}
