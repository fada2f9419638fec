import Foundation

/// Why a ``Pedometer`` or ``MotionActivityManager`` query failed.
public enum MotionHistoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The query's start is after its end.
    case invalidInterval(from: Date, to: Date)

    public var description: String {
        switch self {
        case .invalidInterval(let from, let to):
            "the query starts (\(from)) after it ends (\(to))"
        }
    }
}
