
/// Something the motion-event detectors recognized, with the time it was recognized.
public enum MotionEvent: Sendable, Hashable, CustomStringConvertible {
    /// A shake started (after its first back-and-forth swings).
    case shakeBegan(timestamp: Double)
    /// A shake ended (the acceleration has been quiet for a moment).
    case shakeEnded(timestamp: Double)
    /// A shake was abandoned: it went on too long, or the samples stopped.
    case shakeCancelled(timestamp: Double)
    /// The device orientation changed.
    case orientationChanged(timestamp: Double, from: DeviceOrientation, to: DeviceOrientation)
    /// A sudden movement along an axis.
    case movement(timestamp: Double, direction: MovementDirection, peak: Double)

    /// When the event was recognized, seconds on the samples' clock.
    public var timestamp: Double {
        switch self {
        case .shakeBegan(let t), .shakeEnded(let t), .shakeCancelled(let t): t
        case .orientationChanged(let t, _, _): t
        case .movement(let t, _, _): t
        }
    }

    /// The event's name in `motion events` output: `shakeBegan`, `shakeEnded`, `shakeCancelled`,
    /// `orientation`, `movement`.
    public var name: String {
        switch self {
        case .shakeBegan: "shakeBegan"
        case .shakeEnded: "shakeEnded"
        case .shakeCancelled: "shakeCancelled"
        case .orientationChanged: "orientation"
        case .movement: "movement"
        }
    }

    /// The event's value in `motion events` output: the new orientation or the movement direction,
    /// empty for shakes.
    public var value: String {
        switch self {
        case .shakeBegan, .shakeEnded, .shakeCancelled: ""
        case .orientationChanged(_, _, let to): to.rawValue
        case .movement(_, let direction, _): direction.rawValue
        }
    }

    public var description: String { "\(timestamp) \(name) \(value)" }
}

#if !hasFeature(Embedded)
extension DeviceOrientation: Codable {}
extension MovementDirection: Codable {}
#endif
