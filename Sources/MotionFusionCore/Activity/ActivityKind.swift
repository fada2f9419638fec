/// What the person carrying the device is doing, as ``ActivityClassifier`` tells it from the
/// accelerometer: Core Motion's `CMMotionActivity` classes that an accelerometer alone can tell
/// apart. Automotive and cycling are not among them: there is no labelled data here to tell them
/// from handling or walking, so a car or a bicycle is ``unknown`` (or ``stationary`` when the ride is
/// smooth enough to keep the device still).
public enum ActivityKind: Int, Sendable, Hashable, CaseIterable {
    /// Neither walking nor still: the device is handled, carried in a vehicle, or the classifier has
    /// not seen enough yet.
    case unknown
    /// The device is still: on a table, in a still hand or pocket (not walking).
    case stationary
    /// Walking: steps at a walking cadence.
    case walking
    /// Running: steps at a running cadence with running's hard impacts.
    case running
}

extension ActivityKind: CustomStringConvertible {
    /// `unknown`, `stationary`, `walking` or `running`: the names `motion activity` writes.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .stationary: "stationary"
        case .walking: "walking"
        case .running: "running"
        }
    }
}
