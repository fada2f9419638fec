import MotionFusionCore
/// Units a timestamp column may be recorded in.
public enum TimeUnit: String, CaseIterable, Sendable, Codable, HeaderUnit {
    /// Seconds (the library's unit).
    case seconds = "s"
    /// Milliseconds.
    case milliseconds = "ms"
    /// Microseconds.
    case microseconds = "us"
    /// Nanoseconds.
    case nanoseconds = "ns"

    /// How many of this unit make a second.
    public var perSecond: Double {
        switch self {
        case .seconds: 1
        case .milliseconds: 1e3
        case .microseconds: 1e6
        case .nanoseconds: 1e9
        }
    }

    /// `value` in seconds. The value is divided by ``perSecond`` (one correctly rounded division),
    /// so 7 ms gives exactly the `Double` nearest to 0.007 s, as a file written in seconds would.
    @inlinable
    public func seconds(_ value: Double) -> Double {
        self == .seconds ? value : value / perSecond
    }

    /// The unit a CSV header writes, for example `s` in `Time (s)`.
    ///
    /// Accepted, case included: `s`; `ms`; `us`, `µs` (micro sign, U+00B5) and `μs` (Greek mu,
    /// U+03BC); `ns`. Anything else is nil: `S`, `Ms` or `sec` are not guessed at.
    public init?(headerText text: String) {
        switch text {
        case "s": self = .seconds
        case "ms": self = .milliseconds
        case "us", "\u{B5}s", "\u{3BC}s": self = .microseconds
        case "ns": self = .nanoseconds
        default: return nil
        }
    }

    /// The spellings ``init(headerText:)`` accepts, for messages.
    public static let headerSpellings = ["s", "ms", "us", "µs", "ns"]
    public static let quantity = MeasuredQuantity.time
    public static let libraryUnit = TimeUnit.seconds
}
