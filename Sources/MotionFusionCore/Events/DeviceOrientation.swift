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
