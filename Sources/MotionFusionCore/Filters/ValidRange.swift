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
