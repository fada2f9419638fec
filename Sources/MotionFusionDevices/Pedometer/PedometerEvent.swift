import Foundation

/// A walk starting or stopping: Core Motion's `CMPedometerEvent`.
public struct PedometerEvent: Sendable, Hashable {
    /// Core Motion's `CMPedometerEventType`.
    public enum EventType: Int, Sendable, Hashable {
        /// The walk (or run) stopped: no step for 2 s or three step periods.
        case pause = 0
        /// A walk (or run) began: dated at its first step.
        case resume = 1
    }

    /// When: the first step of a walk, or when the walk was found to have stopped.
    public var date: Date
    public var type: EventType

    public init(date: Date, type: EventType) {
        self.date = date
        self.type = type
    }
}
