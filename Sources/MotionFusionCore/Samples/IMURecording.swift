/// A whole IMU recording in memory (library units: s, rad/s, m/s², µT), optionally with a reference
/// attitude and the samples to score — what the evaluation and the demo work on.
public struct IMURecording: Sendable {
    /// Sample times, s.
    public var timestamps: [Double] = []
    /// Gyroscope, rad/s.
    public var gyroscope: [SIMD3<Double>] = []
    /// Accelerometer (specific force), m/s².
    public var accelerometer: [SIMD3<Double>] = []
    /// Magnetometer, µT; nil for a 6D recording.
    public var magnetometer: [SIMD3<Double>]?
    /// The reference attitude, sensor → earth; non-finite where unknown; nil without a reference.
    public var truth: [Quaternion<Double>]?
    /// Which samples count in an evaluation (BROAD: the movement phase); nil for all.
    public var scored: [Bool]?
    /// Read from a file that ends inside a line: that line, which was not read (`CSVReader` (MotionFusionIO)).
    public var partialLastLine: CSVPartialLine?

    /// An empty recording.
    public init() {}

    /// The number of samples.
    public var count: Int { timestamps.count }

    /// Runs a filter over the recording through a ``FusionStream`` (9D when `useMagnetometer` and
    /// the recording has a magnetometer) and returns the outputs.
    @inlinable
    public func fuse<F: AttitudeFilter>(
        _ filter: F, useMagnetometer: Bool = true, biasEstimator: GyroscopeBiasEstimator<Double>? = nil
    ) -> [FusionOutput<Double>] where F.Scalar == Double {
        var stream = FusionStream(filter: filter, biasEstimator: biasEstimator)
        // The arrays have equal lengths by construction, so this cannot throw.
        return (try? stream.process(
            timestamps: timestamps, gyroscope: gyroscope, accelerometer: accelerometer,
            magnetometer: useMagnetometer ? magnetometer : nil)) ?? []
    }

    /// BROAD's RMS errors of estimates against ``truth`` over the ``scored`` samples (all samples
    /// when `scored` is nil); nil without a reference.
    public func score(_ estimates: [Quaternion<Double>]) -> OrientationErrorSummary? {
        guard let truth, truth.count == estimates.count else { return nil }
        return OrientationErrors.summary(
            estimates: estimates, references: truth,
            scored: scored ?? [Bool](repeating: true, count: truth.count))
    }
}
