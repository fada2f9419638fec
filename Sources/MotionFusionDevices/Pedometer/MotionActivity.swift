import Foundation
import MotionFusionCore

/// One activity, as a ``MotionActivityManager`` reports it: Core Motion's `CMMotionActivity`.
/// Exactly one of ``stationary``, ``walking``, ``running`` and ``unknown`` is true; ``automotive``
/// and ``cycling`` are always false (see ``ActivityKind``).
public struct MotionActivity: Sendable, Hashable {
    /// The activity.
    public var kind: ActivityKind
    /// How sure the classifier is.
    public var confidence: ActivityConfidence
    /// When the activity began.
    public var startDate: Date
    /// When it was reported, s, on the source's clock (Core Motion's `CMLogItem.timestamp`).
    public var timestamp: TimeInterval

    public init(kind: ActivityKind, confidence: ActivityConfidence, startDate: Date, timestamp: TimeInterval) {
        self.kind = kind
        self.confidence = confidence
        self.startDate = startDate
        self.timestamp = timestamp
    }

    public var stationary: Bool { kind == .stationary }
    public var walking: Bool { kind == .walking }
    public var running: Bool { kind == .running }
    /// Always false: no labelled data to recognise a vehicle.
    public var automotive: Bool { false }
    /// Always false: no labelled data to recognise cycling.
    public var cycling: Bool { false }
    public var unknown: Bool { kind == .unknown }
}
