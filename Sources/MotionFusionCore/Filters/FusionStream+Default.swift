extension FusionStream where Filter == InertialFrameFilter<Double> {
    /// The common case: the default filter, ``InertialFrameFilter`` in `Double` with its default
    /// settings (ENU earth frame, gyroscope bias estimated by the filter), the default
    /// ``SampleClock``, no calibration and no sensor ranges. `FusionStream()` is what `motion fuse`
    /// runs without options. For `Float`, another filter or other settings, use
    /// ``init(filter:clock:biasEstimator:calibration:magnetometerCalibrator:settings:)``.
    @inlinable
    public init() {
        self.init(filter: InertialFrameFilter<Double>())
    }
}
