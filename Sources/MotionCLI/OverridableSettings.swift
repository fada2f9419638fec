import MotionFusion

/// A filter's (or the step detector's) settings type that `--set name=value` can edit: `Codable` (the fields by their Swift
/// names) and with ranges to check the result against.
protocol OverridableSettings: Codable {
    func validate() throws(SettingsError)
}

extension InertialFrameFilter.Settings: OverridableSettings {}
extension MadgwickFilter.Settings: OverridableSettings {}
extension MahonyFilter.Settings: OverridableSettings {}
extension ComplementaryFilter.Settings: OverridableSettings {}
extension StepDetector.Settings: OverridableSettings {}
extension ActivityClassifier.Settings: OverridableSettings {}
