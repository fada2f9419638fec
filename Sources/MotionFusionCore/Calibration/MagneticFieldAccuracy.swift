/// Core Motion's magnetic-field calibration accuracy levels.
public enum MagneticFieldAccuracy: String, Sendable, Hashable, CaseIterable {
    /// No calibration applied.
    case uncalibrated
    /// Calibrated with a poor fit (relative residual ≥ 3 %).
    case low
    /// Relative residual between 1 % and 3 %.
    case medium
    /// Relative residual below 1 %.
    case high
}
