import MotionFusionCore
import MotionFusionIO
/// A stretch of a recording during which the sensor did not move: what accelerometer and gyroscope
/// calibration are computed from.
///
/// Found by ``StaticSegmentDetector``. Indices refer to the arrays the detector was given;
/// ``startIndex`` is the first sample and ``endIndex`` is one past the last (a half-open range, as
/// in Swift collections). Samples in that range with a NaN or infinite component (or timestamp)
/// were skipped: they are not counted in ``sampleCount`` nor in the means.
public struct StaticSegment: Sendable, Hashable, Codable {
    /// The index of the first sample.
    public var startIndex: Int
    /// The index one past the last sample.
    public var endIndex: Int
    /// The timestamp of the first sample, s.
    public var startTime: Double
    /// The timestamp of the last sample, s.
    public var endTime: Double
    /// The number of finite samples in the segment (repeated timestamps included).
    public var sampleCount: Int
    /// The mean accelerometer reading over the segment, in the unit of the input.
    public var meanAccelerometer: SIMD3<Double>
    /// The per-axis sample standard deviation of the accelerometer over the segment (the noise).
    public var accelerometerStandardDeviation: SIMD3<Double>
    /// The mean gyroscope reading over the segment; nil when no gyroscope was given.
    public var meanGyroscope: SIMD3<Double>?
    /// The per-axis sample standard deviation of the gyroscope; nil when no gyroscope was given.
    public var gyroscopeStandardDeviation: SIMD3<Double>?

    /// The samples of the segment as a range of indices, ``startIndex`` ..< ``endIndex``.
    public var indices: Range<Int> { startIndex..<endIndex }

    /// How long the segment lasts, s: ``endTime`` − ``startTime``, measured on the timestamps (so
    /// repeated timestamps add no time and a dropped sample does not shorten it).
    public var duration: Double { endTime - startTime }

    /// A segment from its parts (the detector fills them in; this is for tests and hand-made
    /// segments).
    public init(
        startIndex: Int, endIndex: Int, startTime: Double, endTime: Double, sampleCount: Int,
        meanAccelerometer: SIMD3<Double>, accelerometerStandardDeviation: SIMD3<Double> = .zero,
        meanGyroscope: SIMD3<Double>? = nil, gyroscopeStandardDeviation: SIMD3<Double>? = nil
    ) {
        self.startIndex = startIndex
        self.endIndex = endIndex
        self.startTime = startTime
        self.endTime = endTime
        self.sampleCount = sampleCount
        self.meanAccelerometer = meanAccelerometer
        self.accelerometerStandardDeviation = accelerometerStandardDeviation
        self.meanGyroscope = meanGyroscope
        self.gyroscopeStandardDeviation = gyroscopeStandardDeviation
    }
}

/// Finds the static segments of a recording from the signal alone.
///
/// ## Procedure
///
/// For every sample the detector looks at a window of ``windowDuration`` seconds centred on it (all
/// samples whose timestamp is within half a window of the sample's). The sample is *quiet* when
///
/// - on every axis, every accelerometer sample of the window lies within
///   ``accelerometerThreshold`` of the window's mean accelerometer reading,
/// - when a gyroscope is given, the same holds for the gyroscope with ``gyroscopeThreshold``, and
///   the magnitude of the window's mean rate is at most ``maximumRotationRate`` (a steady rotation,
///   on a turntable for example, is smooth but is not rest),
/// - the window is complete: the recording extends at least half a window on both sides without a
///   break (see below).
///
/// A static segment is a run of consecutive quiet samples lasting at least ``minimumDuration``
/// seconds (from the first quiet sample's timestamp to the last's). Its statistics are computed
/// over those samples only, so a rest of `T` seconds between movements yields a segment of about
/// `T − windowDuration` seconds that does not touch the movement on either side: a rest must last
/// at least `minimumDuration + windowDuration` to be found (1.5 s with the defaults).
///
/// Everything is in time, never in sample counts, so the result does not depend on the sample
/// rate, and thresholds are in physical units: m/s² and rad/s for the library's units (the
/// calibrators rescale them when their input is in g or deg/s).
///
/// ## Bad input
///
/// - A sample with a NaN or infinite timestamp, accelerometer component or (when given) gyroscope
///   component is skipped, as if it had not been recorded. It does not end a segment by itself; the
///   time gap it leaves is judged like any other.
/// - Timestamps that repeat (a step of 0) are accepted: the sample counts in the means and adds no
///   time.
/// - Timestamps that go backward, or jump forward by more than ``maximumGap`` seconds, break the
///   recording: no window and no segment spans the break (the sensor may have moved unseen).
///
/// The settings must be finite, with positive thresholds, window and gap and a non-negative
/// minimum duration (checked with a precondition).
public struct StaticSegmentDetector: Sendable, Hashable, Codable {
    /// The largest deviation of an accelerometer axis from its local mean at rest, m/s².
    /// Default 0.2 m/s² (about 0.02 g; a phone-grade accelerometer's noise is 0.01–0.03 m/s²).
    public var accelerometerThreshold: Double
    /// The largest deviation of a gyroscope axis from its local mean at rest, rad/s. Default
    /// 0.05 rad/s (about 2.9°/s).
    public var gyroscopeThreshold: Double
    /// The largest magnitude of the local mean rotation rate at rest, rad/s: it must exceed the
    /// gyroscope's bias. Default 0.35 rad/s (about 20°/s).
    public var maximumRotationRate: Double
    /// The length of the window the deviations are measured in, s. Default 0.5 s.
    public var windowDuration: Double
    /// The shortest segment reported, s. Default 1 s.
    public var minimumDuration: Double
    /// The longest step between consecutive (finite) samples that does not break a segment, s.
    /// Default 0.2 s.
    public var maximumGap: Double

    /// A detector; every default is stated on its property.
    public init(
        accelerometerThreshold: Double = 0.2, gyroscopeThreshold: Double = 0.05,
        maximumRotationRate: Double = 0.35, windowDuration: Double = 0.5, minimumDuration: Double = 1,
        maximumGap: Double = 0.2
    ) {
        self.accelerometerThreshold = accelerometerThreshold
        self.gyroscopeThreshold = gyroscopeThreshold
        self.maximumRotationRate = maximumRotationRate
        self.windowDuration = windowDuration
        self.minimumDuration = minimumDuration
        self.maximumGap = maximumGap
    }

    /// The static segments of a recording (accelerometer and gyroscope, library units), in time
    /// order.
    ///
    /// - Throws: ``CalibrationError/estimation(_:)`` with
    ///   ``EstimationError/countMismatch(expected:found:)`` when the recording's arrays differ in
    ///   length.
    public func segments(in recording: IMURecording) throws(CalibrationError) -> [StaticSegment] {
        try segments(
            timestamps: recording.timestamps, accelerometer: recording.accelerometer,
            gyroscope: recording.gyroscope)
    }

    /// The static segments of a recording, in time order.
    ///
    /// - Parameters:
    ///   - timestamps: sample times, s.
    ///   - accelerometer: accelerometer readings, m/s² (in the unit ``accelerometerThreshold`` is in).
    ///   - gyroscope: gyroscope readings, rad/s (in the unit ``gyroscopeThreshold`` and
    ///     ``maximumRotationRate`` are in), or nil (or empty) to detect from the accelerometer alone.
    /// - Throws: ``CalibrationError/estimation(_:)`` with
    ///   ``EstimationError/countMismatch(expected:found:)`` when the arrays differ in length.
    public func segments(
        timestamps: [Double], accelerometer: [SIMD3<Double>], gyroscope: [SIMD3<Double>]? = nil
    ) throws(CalibrationError) -> [StaticSegment] {
        precondition(
            accelerometerThreshold > 0 && gyroscopeThreshold > 0 && maximumRotationRate > 0
                && windowDuration > 0 && minimumDuration >= 0 && maximumGap > 0
                && [accelerometerThreshold, gyroscopeThreshold, windowDuration, minimumDuration, maximumGap]
                    .allSatisfy(\.isFinite) && !maximumRotationRate.isNaN,
            "StaticSegmentDetector settings must be positive and finite")
        let n = timestamps.count
        guard accelerometer.count == n else {
            throw .estimation(.countMismatch(expected: n, found: accelerometer.count))
        }
        let gyro = (gyroscope?.isEmpty ?? true) ? nil : gyroscope
        if let gyro, gyro.count != n { throw .estimation(.countMismatch(expected: n, found: gyro.count)) }

        // The finite samples, then the unbroken runs among them.
        var valid: [Int] = []
        valid.reserveCapacity(n)
        for i in 0..<n where timestamps[i].isFinite && Self.isFinite(accelerometer[i])
            && (gyro.map { Self.isFinite($0[i]) } ?? true)
        {
            valid.append(i)
        }
        var scan = Scan(detector: self, timestamps: timestamps, accelerometer: accelerometer, gyroscope: gyro)
        var runStart = 0
        for k in 0..<valid.count {
            let isLast = k == valid.count - 1
            let breaksAfter = isLast || {
                let step = timestamps[valid[k + 1]] - timestamps[valid[k]]
                return step < 0 || step > maximumGap
            }()
            if breaksAfter {
                scan.run(valid[runStart...k])
                runStart = k + 1
            }
        }
        return scan.found
    }

    static func isFinite(_ v: SIMD3<Double>) -> Bool { v.x.isFinite && v.y.isFinite && v.z.isFinite }

    /// The calibrators' helper: the same detector for input in another unit (`accelerometerScale`
    /// and `gyroscopeScale` convert the library's unit to the input's).
    func rescaled(accelerometerScale: Double, gyroscopeScale: Double) -> StaticSegmentDetector {
        var copy = self
        copy.accelerometerThreshold *= accelerometerScale
        copy.gyroscopeThreshold *= gyroscopeScale
        copy.maximumRotationRate *= gyroscopeScale
        return copy
    }
}

/// The detector's working state over one recording.
private struct Scan {
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

/// The maximum of a sliding window whose ends only move forward (a monotone queue): amortized
/// O(1) per sample.
private struct SlidingMaximum {
    private var indices: [Int] = []
    private var values: [Double] = []
    private var head = 0

    mutating func reset() {
        indices.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        head = 0
    }

    /// Adds sample `index` (larger than every index pushed before).
    mutating func push(_ index: Int, _ value: Double) {
        while values.count > head, values[values.count - 1] <= value {
            values.removeLast()
            indices.removeLast()
        }
        indices.append(index)
        values.append(value)
    }

    /// The maximum over the samples pushed so far with an index of at least `low` (at least one).
    mutating func maximum(from low: Int) -> Double {
        while indices[head] < low { head += 1 }
        return values[head]
    }
}
