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
