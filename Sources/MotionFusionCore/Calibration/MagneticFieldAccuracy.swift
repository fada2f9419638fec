/// Core Motion's magnetic-field calibration accuracy levels. What each level means is measured by
/// the calibration that reports it: ``MagnetometerCalibration/accuracy`` (an offline fit) and
/// ``OnlineMagnetometerCalibrator/accuracy`` (the online one) say how.
public enum MagneticFieldAccuracy: String, Sendable, Hashable, CaseIterable {
    /// No calibration applied.
    case uncalibrated
    /// Calibrated, with a poor or poorly determined fit.
    case low
    /// A fit good enough for a heading (see the calibration's rules).
    case medium
    /// The best level.
    case high
}
