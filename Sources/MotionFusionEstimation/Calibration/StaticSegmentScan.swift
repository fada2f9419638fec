
/// The detector's working state over one recording.
struct StaticSegmentScan {
    let detector: StaticSegmentDetector
    let timestamps: [Double]
    let accelerometer: [SIMD3<Double>]
    let gyroscope: [SIMD3<Double>]?
    var found: [StaticSegment] = []
    // Sliding maxima of the six (twelve with a gyroscope) channels: +x, +y, +z, −x, −y, −z.
    var extremes = [SlidingMaximum](repeating: SlidingMaximum(), count: 12)

    init(
        detector: StaticSegmentDetector, timestamps: [Double], accelerometer: [SIMD3<Double>],
        gyroscope: [SIMD3<Double>]?
    ) {
        self.detector = detector
        self.timestamps = timestamps
        self.accelerometer = accelerometer
        self.gyroscope = gyroscope
    }

    /// A tolerance for comparing times near `t` (timestamps may be large, e.g. Unix time).
    static func tolerance(_ t: Double) -> Double { max(1e-9, 8 * t.ulp) }

    /// Scans one unbroken run of finite samples (original indices, timestamps non-decreasing).
    mutating func run(_ indices: ArraySlice<Int>) {
        let index = Array(indices)
        let m = index.count
        guard m > 1 else { return }
        let t = index.map { timestamps[$0] }
        let half = detector.windowDuration / 2
        // Timestamps so large that their spacing is a sizeable part of a window (1e18 s: 128 s
        // apart) cannot time a segment: no segment is found rather than one the tolerance makes.
        guard Self.tolerance(t[m - 1]) <= 0.01 * detector.windowDuration
        else { return }
        guard t[m - 1] - t[0] + Self.tolerance(t[m - 1]) >= detector.windowDuration + detector.minimumDuration
        else { return }
        let a = index.map { accelerometer[$0] }
        let g = gyroscope.map { gyro in index.map { gyro[$0] } }
        // Prefix sums for the window means.
        var sumA = [SIMD3<Double>](repeating: .zero, count: m + 1)
        var sumG = [SIMD3<Double>](repeating: .zero, count: g == nil ? 0 : m + 1)
        for k in 0..<m {
            sumA[k + 1] = sumA[k] + a[k]
            if let g { sumG[k + 1] = sumG[k] + g[k] }
        }
        for channel in extremes.indices { extremes[channel].reset() }

        var low = 0
        var high = -1
        var quietStart: Int? = nil
        for c in 0..<m {
            let tc = t[c]
            let tol = Self.tolerance(tc)
            while high + 1 < m && t[high + 1] <= tc + half + tol {
                high += 1
                push(high, a: a[high], g: g?[high])
            }
            while t[low] < tc - half - tol { low += 1 }
            let complete = tc - t[0] >= half - tol && t[m - 1] - tc >= half - tol
            let quiet = complete && isQuiet(low: low, high: high, sumA: sumA, sumG: sumG)
            if quiet {
                if quietStart == nil { quietStart = c }
            } else if let start = quietStart {
                emit(start, c - 1, index: index, t: t, a: a, g: g)
                quietStart = nil
            }
        }
        if let start = quietStart { emit(start, m - 1, index: index, t: t, a: a, g: g) }
    }

    private mutating func push(_ k: Int, a: SIMD3<Double>, g: SIMD3<Double>?) {
        for axis in 0..<3 {
            extremes[axis].push(k, a[axis])
            extremes[axis + 3].push(k, -a[axis])
        }
        if let g {
            for axis in 0..<3 {
                extremes[axis + 6].push(k, g[axis])
                extremes[axis + 9].push(k, -g[axis])
            }
        }
    }

    private mutating func isQuiet(
        low: Int, high: Int, sumA: [SIMD3<Double>], sumG: [SIMD3<Double>]
    ) -> Bool {
        let count = Double(high - low + 1)
        let meanA = (sumA[high + 1] - sumA[low]) / count
        for axis in 0..<3 {
            let largest = extremes[axis].maximum(from: low)
            let smallest = -extremes[axis + 3].maximum(from: low)
            if largest - meanA[axis] >= detector.accelerometerThreshold
                || meanA[axis] - smallest >= detector.accelerometerThreshold
            {
                return false
            }
        }
        guard !sumG.isEmpty else { return true }
        let meanG = (sumG[high + 1] - sumG[low]) / count
        guard (meanG * meanG).sum().squareRoot() <= detector.maximumRotationRate else { return false }
        for axis in 0..<3 {
            let largest = extremes[axis + 6].maximum(from: low)
            let smallest = -extremes[axis + 9].maximum(from: low)
            if largest - meanG[axis] >= detector.gyroscopeThreshold
                || meanG[axis] - smallest >= detector.gyroscopeThreshold
            {
                return false
            }
        }
        return true
    }

    /// Records the quiet samples `first...last` (run-local) as a segment if it lasts long enough.
    private mutating func emit(
        _ first: Int, _ last: Int, index: [Int], t: [Double], a: [SIMD3<Double>], g: [SIMD3<Double>]?
    ) {
        let duration = t[last] - t[first]
        guard duration + Self.tolerance(t[last]) >= detector.minimumDuration, last > first else { return }
        let (meanA, spreadA) = Self.statistics(a[first...last])
        let gyroStatistics = g.map { Self.statistics($0[first...last]) }
        found.append(
            StaticSegment(
                startIndex: index[first], endIndex: index[last] + 1, startTime: t[first], endTime: t[last],
                sampleCount: last - first + 1, meanAccelerometer: meanA,
                accelerometerStandardDeviation: spreadA, meanGyroscope: gyroStatistics?.0,
                gyroscopeStandardDeviation: gyroStatistics?.1))
    }

    /// Mean and per-axis sample standard deviation (two passes).
    static func statistics(_ values: ArraySlice<SIMD3<Double>>) -> (SIMD3<Double>, SIMD3<Double>) {
        let count = Double(values.count)
        let mean = values.reduce(SIMD3<Double>.zero, +) / count
        var squares = SIMD3<Double>.zero
        for v in values {
            let d = v - mean
            squares += d * d
        }
        let variance = values.count > 1 ? squares / (count - 1) : .zero
        return (mean, SIMD3(variance.x.squareRoot(), variance.y.squareRoot(), variance.z.squareRoot()))
    }
}
