/// Units a timestamp column may be recorded in.
public enum TimeUnit: String, CaseIterable, Sendable {
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
}

#if !hasFeature(Embedded)
extension TimeUnit: Codable {}
#endif
