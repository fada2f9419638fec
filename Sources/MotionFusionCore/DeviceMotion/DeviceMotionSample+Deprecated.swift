/// Members of 0.5 that moved. They still compile, with a deprecation warning, and will be removed
/// in 1.0.
extension DeviceMotionSample {
    /// The magnetic field's calibration accuracy: now ``CalibratedMagneticField/accuracy`` of
    /// ``magneticField``, as in Core Motion's `CMCalibratedMagneticField`.
    @available(*, deprecated, renamed: "magneticField.accuracy")
    public var magneticFieldAccuracy: MagneticFieldAccuracy {
        get { magneticField.accuracy }
        set { magneticField.accuracy = newValue }
    }
}
