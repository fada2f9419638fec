/// The latency figures `motion bench --latency` reports for one case, computed exactly from every
/// latency measured (sorted), never estimated: the median, the 99th and 99.9th percentiles and the
/// largest, in microseconds.
///
/// A percentile is the **nearest rank**: the p-th percentile of n sorted values is the value of
/// rank ⌈p · n⌉ (1-based; rank 1 when that is 0), the smallest value that at least p of all values
/// do not exceed. It is always one of the measured values, never an interpolation. The ranks are
/// computed in integers (p as a fraction), so 99.9 % of 1,000 values is rank 999 exactly.
struct LatencyStatistics: Equatable {
    /// The median, µs.
    var p50: Double
    /// The 99th percentile, µs.
    var p99: Double
    /// The 99.9th percentile, µs.
    var p999: Double
    /// The largest latency, µs.
    var max: Double

    /// Figures as given, µs.
    init(p50: Double, p99: Double, p999: Double, max: Double) {
        self.p50 = p50
        self.p99 = p99
        self.p999 = p999
        self.max = max
    }

    /// The figures of `nanoseconds` (in any order); nil when there are none.
    init?(nanoseconds: [Int64]) {
        guard !nanoseconds.isEmpty else { return nil }
        let sorted = nanoseconds.sorted()
        func microseconds(_ numerator: Int, _ denominator: Int) -> Double {
            Double(Self.percentile(sorted, numerator, denominator)) / 1000
        }
        p50 = microseconds(1, 2)
        p99 = microseconds(99, 100)
        p999 = microseconds(999, 1000)
        max = Double(sorted[sorted.count - 1]) / 1000
    }

    /// The nearest-rank percentile `numerator / denominator` (0 … 1) of `sorted` (ascending, not
    /// empty): the value of rank ⌈n · numerator / denominator⌉, at least rank 1.
    static func percentile<T>(_ sorted: [T], _ numerator: Int, _ denominator: Int) -> T {
        precondition(!sorted.isEmpty && denominator > 0 && numerator >= 0 && numerator <= denominator)
        let (product, overflow) = sorted.count.multipliedReportingOverflow(by: numerator)
        let rank =
            overflow
            ? Int((Double(sorted.count) * Double(numerator) / Double(denominator)).rounded(.up))
            : (product + denominator - 1) / denominator
        return sorted[Swift.max(rank, 1) - 1]
    }
}
