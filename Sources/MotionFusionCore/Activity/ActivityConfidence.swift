/// How sure ``ActivityClassifier`` is of the activity it reports, as Core Motion's
/// `CMMotionActivityConfidence` (with the same raw values: 0, 1, 2).
public enum ActivityConfidence: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Always the confidence of ``ActivityKind/unknown``.
    case low = 0
    /// A walk, a run or stillness that has just been recognised.
    case medium = 1
    /// The same activity for at least ``ActivityClassifier/Settings-swift.struct/confidentAfter``
    /// seconds.
    case high = 2

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension ActivityConfidence: CustomStringConvertible {
    /// `low`, `medium` or `high`.
    public var description: String {
        switch self {
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }
}
