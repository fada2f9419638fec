/// What the clock made of a sample's timestamp.
public enum TimestampEvent: UInt8, Sendable, Hashable {
    /// An ordinary step: `dt` is the difference to the previous timestamp.
    case regular
    /// The first sample: there is no previous one, `dt` is 0.
    case first
    /// The same timestamp as the previous sample: `dt` is 0, the filter does not integrate.
    case repeated
    /// Earlier than the previous sample: `dt` is 0 and the clock restarts from this timestamp.
    case backward
    /// Later than the previous sample by more than the maximum gap: the step uses the typical sample
    /// period instead of the gap, and the clock continues from this timestamp.
    case gap
    /// A NaN or infinite timestamp: `dt` is 0 and the clock keeps its previous time.
    case invalid
}
