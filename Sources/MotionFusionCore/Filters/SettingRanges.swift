/// The valid values of one numeric setting: an interval whose ends are open or closed; a closed end
/// at infinity admits that infinity (`[0, +∞]`: any value ≥ 0, `+∞` included).
///
/// The settings types list their ranges once, in a table of ``SettingRule``s; `validate()`, the
/// clamp applied when settings are set, the error text and the tests all read that table.
struct ValidRange: Sendable, Hashable, CustomStringConvertible {
    var lower: Double
    var lowerClosed: Bool
    var upper: Double
    var upperClosed: Bool

    /// `> 0, finite`.
    static let positive = ValidRange(lower: 0, lowerClosed: false, upper: .infinity, upperClosed: false)
    /// `> 0, +∞ allowed`.
    static let positiveOrInfinity = ValidRange(lower: 0, lowerClosed: false, upper: .infinity, upperClosed: true)
    /// `≥ 0, finite`.
    static let nonNegative = ValidRange(lower: 0, lowerClosed: true, upper: .infinity, upperClosed: false)
    /// `≥ 0, +∞ allowed`.
    static let nonNegativeOrInfinity = ValidRange(lower: 0, lowerClosed: true, upper: .infinity, upperClosed: true)
    /// `≥ value, finite`.
    static func atLeast(_ value: Double) -> ValidRange {
        ValidRange(lower: value, lowerClosed: true, upper: .infinity, upperClosed: false)
    }
    /// `in [lower, upper]`.
    static func closed(_ lower: Double, _ upper: Double) -> ValidRange {
        ValidRange(lower: lower, lowerClosed: true, upper: upper, upperClosed: true)
    }

    /// Whether `value` is in the range, compared in its own type (the bounds converted to it, so
    /// that a `Float` setting at a bound such as 0.1 is in). NaN never is.
    func contains<V: BinaryFloatingPoint>(_ value: V) -> Bool {
        let low = V(lower), high = V(upper)
        let aboveLower = lowerClosed ? value >= low : value > low
        let belowUpper = upperClosed ? value <= high : value < high
        return aboveLower && belowUpper
    }

    /// `value` moved into the range: beyond a closed end, that end; beyond or at an open end, and
    /// NaN, `fallback` (the setting's default, which is in the range).
    func clamp<V: BinaryFloatingPoint>(_ value: V, fallback: V) -> V {
        if contains(value) { return value }
        if value.isNaN { return fallback }
        let belowLower = lowerClosed ? value < V(lower) : value <= V(lower)
        if belowLower { return lowerClosed ? V(lower) : fallback }
        return upperClosed ? V(upper) : fallback
    }

    /// The range in words: "> 0, finite", "≥ 1, finite", "≥ 0, +∞ allowed", "in [0, 0.1]".
    var description: String {
        if upper == .infinity {
            let start = (lowerClosed ? "≥ " : "> ") + Self.format(lower)
            return start + (upperClosed ? ", +∞ allowed" : ", finite")
        }
        return "in " + (lowerClosed ? "[" : "(") + Self.format(lower) + ", " + Self.format(upper)
            + (upperClosed ? "]" : ")")
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

/// One numeric setting of the settings type `Root`: its name (the Swift property name, also its
/// JSON key), its valid range, and how to read and clamp it. Optional settings (nil allowed) read
/// as nil when absent; absent is always valid.
struct SettingRule<Root> {
    let name: String
    let range: ValidRange
    /// The value as a `Double` (exact for `Float`), or nil for an absent optional.
    let value: (Root) -> Double?
    /// Whether the setting of the first argument is in its range.
    let isValid: (Root) -> Bool
    /// Moves the setting of the first argument into its range; the second argument supplies the
    /// defaults.
    let clamp: (inout Root, Root) -> Void

    /// A rule for a plain field. `invalidBecomes`, when given, replaces every value outside the
    /// range instead of the clamp of ``ValidRange/clamp(_:fallback:)`` (for a field whose invalid
    /// values had a documented meaning before it had a range).
    /// The field is read by `get` and written by `set` (closures rather than a key path, which
    /// Embedded Swift lacks).
    init<V: BinaryFloatingPoint>(
        _ name: String, _ get: @escaping (Root) -> V, _ set: @escaping (inout Root, V) -> Void,
        _ range: ValidRange, invalidBecomes: V? = nil
    ) {
        self.name = name
        self.range = range
        value = { Double(get($0)) }
        isValid = { range.contains(get($0)) }
        clamp = { settings, defaults in
            set(&settings, invalidBecomes ?? range.clamp(get(settings), fallback: get(defaults)))
        }
    }

    init<V: BinaryFloatingPoint>(
        _ name: String, _ get: @escaping (Root) -> V?, _ set: @escaping (inout Root, V?) -> Void,
        _ range: ValidRange
    ) {
        self.name = name
        self.range = range
        value = { settings in get(settings).map { Double($0) } }
        isValid = { settings in get(settings).map { range.contains($0) } ?? true }
        let nan = V.nan
        clamp = { settings, defaults in
            guard let v = get(settings), !range.contains(v) else { return }
            let fallback = get(defaults)
            if v.isNaN {
                set(&settings, fallback)
            } else if let fallback {
                set(&settings, range.clamp(v, fallback: fallback))
            } else {
                // No default value: a closed end where there is one, else absent.
                let end = range.clamp(v, fallback: nan)
                set(&settings, end.isNaN ? nil : end)
            }
        }
    }
}

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
