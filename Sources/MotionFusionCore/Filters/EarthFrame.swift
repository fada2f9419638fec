/// The earth-fixed frame an attitude refers to, always chosen explicitly.
///
/// | frame | x | y | z |
/// |---|---|---|---|
/// | ``enu`` | east | north | up |
/// | ``nwu`` | north | west | up |
/// | ``ned`` | north | east | down |
///
/// "North" is magnetic north unless a declination correction is applied. The filters compute in
/// NWU internally (the frame of Madgwick's equations) and rotate their output into the chosen frame
/// with ``fromNWU(_:)``, a fixed rotation, so every filter behaves identically in all three frames.
public enum EarthFrame: String, CaseIterable, Sendable, CustomStringConvertible {
    /// x east, y north, z up (the default, and BROAD's frame).
    case enu
    /// x north, y west, z up.
    case nwu
    /// x north, y east, z down.
    case ned

    /// The unit vector pointing up, in this frame's coordinates.
    @inlinable
    public func up<Scalar: FusionScalar>(_: Scalar.Type = Scalar.self) -> SIMD3<Scalar> {
        self == .ned ? SIMD3(0, 0, -1) : SIMD3(0, 0, 1)
    }

    /// The unit vector pointing (magnetic) north, in this frame's coordinates.
    @inlinable
    public func north<Scalar: FusionScalar>(_: Scalar.Type = Scalar.self) -> SIMD3<Scalar> {
        self == .enu ? SIMD3(0, 1, 0) : SIMD3(1, 0, 0)
    }

    /// The rotation that takes NWU coordinates to this frame's coordinates:
    /// `v_frame = fromNWU ⊗ v_NWU ⊗ fromNWU*`. ENU: +90° about z; NED: 180° about x.
    @inlinable
    public func fromNWU<Scalar: FusionScalar>(_: Scalar.Type = Scalar.self) -> Quaternion<Scalar> {
        switch self {
        case .nwu: .identity
        case .enu: Quaternion(w: Scalar(0.5).squareRoot(), x: 0, y: 0, z: Scalar(0.5).squareRoot())
        case .ned: Quaternion(w: 0, x: 1, y: 0, z: 0)
        }
    }

    public var description: String { rawValue.uppercased() }
}

#if !hasFeature(Embedded)
extension EarthFrame: Codable {}
#endif
