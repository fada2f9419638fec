
/// Why a settings value was refused by `validate()` (``InertialFrameFilter/Settings-swift.struct/validate()``,
/// ``MadgwickFilter/Settings-swift.struct/validate()`` and the other settings types).
///
/// Each numeric setting has a valid range, stated in its documentation; the types that run on the
/// settings (the filters, ``GyroscopeBiasEstimator``, ``FusionStream``, ``SampleClock``) move a value
/// outside it into the range when the settings are set, and `validate()` reports it instead.
public enum SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The setting `setting` has the value `value`, which is outside its valid range, given in words
    /// (for example "> 0, finite").
    case outOfRange(setting: String, value: Double, range: String)

    public var description: String {
        switch self {
        case .outOfRange(let setting, let value, let range):
            "\(setting) = \(Self.format(value)) is outside its range (\(range))"
        }
    }

    /// The value as its own type wrote it: a `Float` setting is carried as the `Double` of the same
    /// value, and printed as the shorter `Float` text when that is exact.
    static func format(_ value: Double) -> String {
        let single = Float(value)
        return Double(single) == value ? "\(single)" : "\(value)"
    }
}
