
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
