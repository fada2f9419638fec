import Foundation

/// Why a simulation (``SyntheticMotion`` or ``MotionScenario``) was not run: a setting outside its
/// range, or a recording too large to hold in memory. Thrown before anything is allocated.
public enum SimulationError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A setting outside its valid range: its name as the settings spell it (`sampleRate`,
    /// `duration`, `gyroscopeBias.x`, `segments[3].seconds`, …), the value given, and the range.
    case outOfRange(setting: String, value: Double, range: String)
    /// The recording would take more memory than the limit: `count` samples (duration ×
    /// sampleRate) of `bytesPerSample` bytes each, `bytes` in all, more than `limit` bytes.
    case tooManySamples(count: Int, bytesPerSample: Int, bytes: Int, limit: Int)

    /// The setting the error is about (`duration × sampleRate` for too many samples).
    public var setting: String {
        switch self {
        case .outOfRange(let setting, _, _): setting
        case .tooManySamples: "duration × sampleRate"
        }
    }

    public var description: String {
        switch self {
        case .outOfRange(let setting, let value, let range):
            "\(setting) is \(value); it must be \(range)"
        case .tooManySamples(let count, let bytesPerSample, let bytes, let limit):
            "too many samples: duration × sampleRate gives \(count) samples, \(Self.byteText(bytes)) in memory "
                + "(\(bytesPerSample) bytes each), more than the limit of \(Self.byteText(limit)); "
                + "shorten the duration or lower the sample rate"
        }
    }

    public var errorDescription: String? { description }

    /// Equal cases with equal values, a NaN value equal to a NaN value (so that an error equals
    /// itself).
    public static func == (a: SimulationError, b: SimulationError) -> Bool {
        switch (a, b) {
        case (.outOfRange(let s1, let v1, let r1), .outOfRange(let s2, let v2, let r2)):
            s1 == s2 && r1 == r2 && (v1 == v2 || (v1.isNaN && v2.isNaN))
        case (.tooManySamples(let c1, let p1, let b1, let l1), .tooManySamples(let c2, let p2, let b2, let l2)):
            c1 == c2 && p1 == p2 && b1 == b2 && l1 == l2
        default: false
        }
    }

    /// Bytes in decimal units, three significant digits: "822 kB", "8.24 GB", "137 PB".
    static func byteText(_ bytes: Int) -> String {
        let value = Double(bytes)
        for (scale, unit) in [(1e18, "EB"), (1e15, "PB"), (1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")] where value >= scale {
            return String(format: "%.3g \(unit)", value / scale)
        }
        return "\(bytes) bytes"
    }
}
