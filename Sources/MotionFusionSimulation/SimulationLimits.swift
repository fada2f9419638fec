
/// The checks the simulators share: ranges, the sample count and the memory a recording takes.
enum SimulationLimits {
    /// Samples per second: 0.001 Hz (one sample per 1000 s) to 1 MHz, far beyond any IMU.
    static let sampleRateRange: ClosedRange<Double> = 0.001...1_000_000
    /// The most samples a simulation makes: 2⁵³, beyond which the timestamps `k / sampleRate` are
    /// no longer distinct.
    static let maximumSampleCount = 1 << 53
    static func sampleRate(_ rate: Double) throws(SimulationError) {
        guard sampleRateRange.contains(rate) else {
            throw .outOfRange(setting: "sampleRate", value: rate, range: "from 0.001 to 1000000 Hz")
        }
    }

    static func finite(_ value: Double, _ setting: String) throws(SimulationError) {
        guard value.isFinite else { throw .outOfRange(setting: setting, value: value, range: "finite") }
    }

    static func nonNegative(_ value: Double, _ setting: String, unit: String) throws(SimulationError) {
        guard value.isFinite && value >= 0 else {
            throw .outOfRange(setting: setting, value: value, range: "finite and ≥ 0\(unit.isEmpty ? "" : " \(unit)")")
        }
    }

    static func positive(_ value: Double, _ setting: String, unit: String) throws(SimulationError) {
        guard value.isFinite && value > 0 else {
            throw .outOfRange(setting: setting, value: value, range: "finite and > 0\(unit.isEmpty ? "" : " \(unit)")")
        }
    }

    static func finite(_ vector: SIMD3<Double>, _ setting: String) throws(SimulationError) {
        for (i, axis) in ["x", "y", "z"].enumerated() { try finite(vector[i], "\(setting).\(axis)") }
    }

    /// The sample count for `samples` (duration × rate, already rounded as the simulator rounds
    /// it), checked against ``maximumSampleCount``; `setting` names the duration.
    static func sampleCount(_ samples: Double, duration: Double, rate: Double, setting: String) throws(SimulationError) -> Int {
        guard samples <= Double(maximumSampleCount) else {
            let longest = Double(maximumSampleCount) / rate
            throw .outOfRange(
                setting: setting, value: duration,
                range: "from 0 to \(longest) s at \(rate) Hz (at most 2^53 samples)")
        }
        return max(1, Int(samples))
    }

    /// Throws ``SimulationError/tooManySamples(count:bytesPerSample:bytes:limit:)`` when `count`
    /// samples of `bytesPerSample` bytes exceed `limit` bytes.
    static func memory(count: Int, bytesPerSample: Int, limit: Int) throws(SimulationError) {
        // count ≤ 2⁵³ and bytesPerSample < 2¹⁰: the product fits in an Int.
        let bytes = count * bytesPerSample
        guard bytes <= limit else {
            throw .tooManySamples(count: count, bytesPerSample: bytesPerSample, bytes: bytes, limit: limit)
        }
    }
}
