import MotionFusionCore

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
        for i in 0..<n where timestamps[i].isFinite && VectorCheck.isFinite(accelerometer[i])
            && (gyro.map { VectorCheck.isFinite($0[i]) } ?? true)
        {
            valid.append(i)
        }
        var scan = StaticSegmentScan(detector: self, timestamps: timestamps, accelerometer: accelerometer, gyroscope: gyro)
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
