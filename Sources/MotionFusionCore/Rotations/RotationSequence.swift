/// The axis order of Euler angles, always **intrinsic**: each rotation is about an axis of the frame
/// already rotated by the previous ones, so `ZYX` with angles (a1, a2, a3) is the rotation
/// `R = R_Z(a1) · R_Y(a2) · R_X(a3)`.
///
/// An extrinsic sequence (rotations about fixed axes) is the intrinsic one read backwards: extrinsic
/// `xyz` with angles (α, β, γ) equals intrinsic ``zyx`` with angles (γ, β, α).
///
/// The six Tait–Bryan sequences (three different axes) have their middle angle in [−π/2, π/2]
/// and are gimbal-locked at ±π/2; the six proper Euler sequences (first axis repeated) have their
/// middle angle in [0, π] and are locked at 0 and π.
public enum RotationSequence: String, CaseIterable, Sendable, CustomStringConvertible {
    case xyz = "XYZ"
    case xzy = "XZY"
    case yxz = "YXZ"
    case yzx = "YZX"
    case zxy = "ZXY"
    case zyx = "ZYX"
    case xyx = "XYX"
    case xzx = "XZX"
    case yxy = "YXY"
    case yzy = "YZY"
    case zxz = "ZXZ"
    case zyz = "ZYZ"

    /// Aerospace yaw, pitch, roll: intrinsic Z-Y′-X″ (`R = R_Z(ψ) R_Y(θ) R_X(φ)`), as used with NED and
    /// ENU body frames.
    public static let aerospace: RotationSequence = .zyx

    /// Core Motion's yaw, pitch, roll: intrinsic Z-X′-Y″ (`R = R_Z(yaw) R_X(pitch) R_Y(roll)`) of the
    /// device → reference rotation; pitch is about the device's X axis, roll about its Y axis.
    public static let coreMotion: RotationSequence = .zxy

    /// The axes as indices (0 = x, 1 = y, 2 = z), first rotation first.
    @inlinable
    public var axes: (Int, Int, Int) {
        switch self {
        case .xyz: (0, 1, 2)
        case .xzy: (0, 2, 1)
        case .yxz: (1, 0, 2)
        case .yzx: (1, 2, 0)
        case .zxy: (2, 0, 1)
        case .zyx: (2, 1, 0)
        case .xyx: (0, 1, 0)
        case .xzx: (0, 2, 0)
        case .yxy: (1, 0, 1)
        case .yzy: (1, 2, 1)
        case .zxz: (2, 0, 2)
        case .zyz: (2, 1, 2)
        }
    }

    /// True for the proper Euler sequences (first and last axis the same).
    @inlinable
    public var isProperEuler: Bool {
        let (a, _, c) = axes
        return a == c
    }

    public var description: String { rawValue }
}

#if !hasFeature(Embedded)
extension RotationSequence: Codable {}
#endif
