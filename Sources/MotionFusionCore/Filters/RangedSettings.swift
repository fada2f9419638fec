
/// A settings type whose numeric fields have valid ranges, listed in ``rules``.
protocol RangedSettings {
    /// Every numeric setting with its range, in declaration order.
    static var rules: [SettingRule<Self>] { get }
    /// The default settings (every default is in its range).
    static var defaults: Self { get }
}

extension RangedSettings {
    /// The first setting outside its range, as an error; nil when all are valid.
    func rangeViolation() -> SettingsError? {
        for rule in Self.rules where !rule.isValid(self) {
            return .outOfRange(setting: rule.name, value: rule.value(self) ?? .nan, range: rule.range.description)
        }
        return nil
    }

    /// These settings with every value moved into its range (see ``ValidRange/clamp(_:fallback:)``).
    func clampedToRanges() -> Self {
        var result = self
        let defaults = Self.defaults
        for rule in Self.rules where !rule.isValid(result) { rule.clamp(&result, defaults) }
        return result
    }
}
