/// The physical orientation of a device, named as `UIDeviceOrientation` names it, judged from the
/// direction of gravity in the device frame (Core Motion's axes: x to the right edge, y to the top
/// edge, z out of the screen).
public enum DeviceOrientation: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Not yet known (no stable reading so far).
    case unknown
    /// Upright, top edge up: gravity along −y.
    case portrait
    /// Upside down, top edge down: gravity along +y.
    case portraitUpsideDown
    /// On its side with the top edge to the left (the right edge up): gravity along −x.
    case landscapeLeft
    /// On its side with the top edge to the right (the left edge up): gravity along +x.
    case landscapeRight
    /// Lying screen up: gravity along −z.
    case faceUp
    /// Lying screen down: gravity along +z.
    case faceDown

    /// Gravity's direction in the device frame (g) for this orientation; zero for ``unknown``.
    public var gravity: SIMD3<Double> {
        switch self {
        case .unknown: .zero
        case .portrait: SIMD3(0, -1, 0)
        case .portraitUpsideDown: SIMD3(0, 1, 0)
        case .landscapeLeft: SIMD3(-1, 0, 0)
        case .landscapeRight: SIMD3(1, 0, 0)
        case .faceUp: SIMD3(0, 0, -1)
        case .faceDown: SIMD3(0, 0, 1)
        }
    }

    public var description: String { rawValue }
}

/// The direction of a sudden movement along one of the device's axes.
public enum MovementDirection: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Toward the device's right edge (+x).
    case right
    /// Toward the left edge (−x).
    case left
    /// Toward the top edge (+y).
    case up
    /// Toward the bottom edge (−y).
    case down
    /// Out of the screen, toward the user (+z).
    case towardUser
    /// Into the screen, away from the user (−z).
    case awayFromUser

    public var description: String { rawValue }
}

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
