import Foundation

/// One case of `motion bench --latency` (a rate and a delivery path): the scans written, what the
/// consumer received, and the latencies of the scans delivered.
///
/// Each device motion received is matched to the scan it came from by its timestamp: with the
/// source's `timestampOrigin: 0` the timestamp is the scan's kernel timestamp (`CLOCK_MONOTONIC`
/// nanoseconds) in seconds, as a Double. That Double is exact to a few picoseconds at any realistic
/// uptime (its spacing is 7 ps at 10 hours, 0.1 ns at 100 days), far below the scans' spacing, so
/// the nearest written timestamp identifies the scan; one further than 1 µs away matches none
/// (``unknown``). The latency is then the consumer's `CLOCK_MONOTONIC` at receipt minus that
/// scan's integer timestamp: exact to the nanosecond.
///
/// A scan matched at or before the last one matched was delivered twice or out of order
/// (``repeated``); it is not counted as delivered again. ``lost`` is written − delivered: scans
/// that never reached the consumer (and the ones that arrived out of order).
struct LatencyResult {
    /// Scans per second written.
    var rateHz: Double
    /// The delivery path.
    var path: LatencyPath
    /// Scans written.
    var samples: Int
    /// Scans that reached the consumer once, in order.
    var delivered: Int
    /// Device motions whose scan came at or before the previous one's: delivered twice or out of
    /// order.
    var repeated: Int
    /// Device motions whose timestamp matches no scan written.
    var unknown: Int
    /// What went wrong besides (an error that ended the source early, a writer that stopped).
    var problems: [String]
    /// The figures of the delivered scans' latencies; nil when none was delivered.
    var statistics: LatencyStatistics?

    /// Scans written but never delivered (in order).
    var lost: Int { samples - delivered }

    /// Whether the case is clean: everything delivered once, in order, and nothing else wrong.
    var isClean: Bool { lost == 0 && repeated == 0 && unknown == 0 && problems.isEmpty }

    /// Matches what was received against what was written.
    ///
    /// - Parameters:
    ///   - written: the scans' timestamps, nanoseconds, strictly increasing.
    ///   - received: the device motions' timestamps, seconds, in the order received.
    ///   - receipts: `CLOCK_MONOTONIC` nanoseconds at which each was received.
    init(
        rateHz: Double, path: LatencyPath, written: [Int64], received: [Double], receipts: [Int64], problems: [String] = []
    ) {
        precondition(received.count == receipts.count)
        self.rateHz = rateHz
        self.path = path
        self.problems = problems
        samples = written.count
        var latencies: [Int64] = []
        latencies.reserveCapacity(received.count)
        var repeated = 0
        var unknown = 0
        var last = -1
        for (seconds, receipt) in zip(received, receipts) {
            guard let index = Self.scan(at: seconds, in: written) else {
                unknown += 1
                continue
            }
            guard index > last else {
                repeated += 1
                continue
            }
            last = index
            latencies.append(receipt - written[index])
        }
        delivered = latencies.count
        self.repeated = repeated
        self.unknown = unknown
        statistics = LatencyStatistics(nanoseconds: latencies)
    }

    /// The index of the written timestamp nearest `seconds`, if it is within 1 µs.
    static func scan(at seconds: Double, in written: [Int64]) -> Int? {
        let target = seconds * 1e9
        guard target.isFinite, !written.isEmpty else { return nil }
        // The first timestamp at or after the target.
        var low = 0
        var high = written.count
        while low < high {
            let middle = (low + high) / 2
            if Double(written[middle]) < target { low = middle + 1 } else { high = middle }
        }
        var best: Int?
        for index in [low - 1, low] where index >= 0 && index < written.count {
            if best == nil || abs(Double(written[index]) - target) < abs(Double(written[best!]) - target) { best = index }
        }
        guard let best, abs(Double(written[best]) - target) <= 1000 else { return nil }
        return best
    }

    /// The JSON object of the case: `{"rateHz": …, "path": …, "p50us": …, "p99us": …,
    /// "p999us": …, "maxus": …, "samples": …, "lost": …}`; the latencies are null when nothing was
    /// delivered.
    var json: String {
        func number(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "null" }
        return "{\"rateHz\": \(Self.rateText(rateHz)), \"path\": \"\(path.rawValue)\", "
            + "\"p50us\": \(number(statistics?.p50)), \"p99us\": \(number(statistics?.p99)), "
            + "\"p999us\": \(number(statistics?.p999)), \"maxus\": \(number(statistics?.max)), "
            + "\"samples\": \(samples), \"lost\": \(lost)}"
    }

    /// A rate as written: an integer without a decimal point, otherwise the shortest decimal.
    static func rateText(_ rate: Double) -> String {
        rate == rate.rounded() && abs(rate) < 1e15 ? String(Int64(rate)) : String(rate)
    }
}
