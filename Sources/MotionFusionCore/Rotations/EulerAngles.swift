import RealModule

/// Three angles (radians) of an explicit intrinsic ``RotationSequence``.
///
/// `EulerAngles(angles: SIMD3(a1, a2, a3), sequence: .zyx)` is the rotation
/// `R_Z(a1) · R_Y(a2) · R_X(a3)`; applied to an attitude quaternion (sensor → earth) with the
/// aerospace sequence, the angles are yaw, pitch and roll.
///
/// ## Ranges and gimbal lock
/// Angles extracted from a rotation (``init(_:sequence:)``) lie in [−π, π] (as SciPy, −π is not folded to π) for the first and third
/// angle, [−π/2, π/2] for the middle angle of a Tait–Bryan sequence and [0, π] for a proper Euler
/// sequence. At gimbal lock (middle angle within ``FusionScalar/gimbalLockThreshold`` of ±π/2 for
/// Tait–Bryan, of 0 or π for proper Euler) only the sum or difference of the first and third
/// angles is defined; the third angle is then set to 0 and the first angle carries the whole rotation
/// about the locked axis, as SciPy does, and ``isGimbalLocked`` is true. The angles then reproduce
/// the rotation to within twice the distance from the lock (at most `2 · gimbalLockThreshold`:
/// 2e-7 rad in Double). Extraction uses the direct method of Bernardes and Viollet (PLOS ONE, 2022),
/// which needs no matrix and is accurate at every angle.
@frozen
public struct EulerAngles<Scalar: FusionScalar> {
    /// The angles in radians, in the order of the sequence: `angles[0]` about its first axis.
    public var angles: SIMD3<Scalar>
    /// The axis order.
    public var sequence: RotationSequence
    /// True when the angles were extracted at gimbal lock (the third angle was set to 0).
    public var isGimbalLocked: Bool

    /// Angles of a sequence, as given (no wrapping).
    @inlinable
    public init(angles: SIMD3<Scalar>, sequence: RotationSequence) {
        self.angles = angles
        self.sequence = sequence
        self.isGimbalLocked = false
    }

    /// Aerospace angles (``RotationSequence/aerospace``, intrinsic Z-Y′-X″): yaw about Z, then
    /// pitch about the new Y, then roll about the newest X.
    @inlinable
    public init(aerospaceYaw yaw: Scalar, pitch: Scalar, roll: Scalar) {
        self.init(angles: SIMD3(yaw, pitch, roll), sequence: .aerospace)
    }

    /// Core Motion's angles (``RotationSequence/coreMotion``, intrinsic Z-X′-Y″, as ``Attitude``
    /// reports them): yaw about Z, then pitch about the new X, then roll about the newest Y.
    @inlinable
    public init(coreMotionYaw yaw: Scalar, pitch: Scalar, roll: Scalar) {
        self.init(angles: SIMD3(yaw, pitch, roll), sequence: .coreMotion)
    }

    /// Aerospace angles. Renamed because "pitch" names a different axis in each convention: here
    /// about Y, in ``Attitude`` (Core Motion's) about X.
    @available(*, deprecated, renamed: "init(aerospaceYaw:pitch:roll:)",
        message: "pitch is about Y here but about X in Attitude; say which convention: init(aerospaceYaw:pitch:roll:) or init(coreMotionYaw:pitch:roll:)")
    @inlinable
    public init(yaw: Scalar, pitch: Scalar, roll: Scalar) {
        self.init(aerospaceYaw: yaw, pitch: pitch, roll: roll)
    }

    /// The rotation as a quaternion: the product of the three elementary rotations, first on the left.
    @inlinable
    public var quaternion: Quaternion<Scalar> {
        let (a, b, c) = sequence.axes
        return Self.elementary(a, angles[0]) * Self.elementary(b, angles[1])
            * Self.elementary(c, angles[2])
    }

    @inlinable @inline(__always)
    static func elementary(_ axis: Int, _ angle: Scalar) -> Quaternion<Scalar> {
        var q = SIMD4<Scalar>(Scalar.cos(angle / 2), 0, 0, 0)
        q[axis + 1] = Scalar.sin(angle / 2)
        return Quaternion(components: q)
    }

    /// The angles of a rotation in a sequence (Bernardes–Viollet direct method).
    ///
    /// The quaternion need not be unit length. Recovery: a non-finite quaternion gives NaN angles,
    /// and the zero quaternion (no rotation) gives meaningless angles; check
    /// ``Quaternion/isFinite`` and ``Quaternion/length`` first.
    @inlinable
    public init(_ q: Quaternion<Scalar>, sequence: RotationSequence) {
        // The method is written for extrinsic sequences; an intrinsic sequence is the extrinsic one
        // reversed, with its angles reversed.
        let (first, middle, last) = sequence.axes
        let i = last
        let j = middle
        var k = first
        let symmetric = i == k
        if symmetric { k = 3 - i - j }
        // +1 for an even permutation of (x, y, z), −1 for an odd one.
        let sign: Scalar = ((i - j) * (j - k) * (k - i)) / 2 > 0 ? 1 : -1
        let v = q.components
        let qi = v[i + 1], qj = v[j + 1], qk = v[k + 1], qw = v[0]
        let a, b, c, d: Scalar
        if symmetric {
            a = qw
            b = qi
            c = qj
            d = qk * sign
        } else {
            a = qw - qj
            b = qi + qk * sign
            c = qj + qw
            d = qk * sign - qi
        }
        var out = SIMD3<Scalar>.zero
        out[1] = 2 * Scalar.atan2(y: Scalar.hypot(c, d), x: Scalar.hypot(a, b))
        let threshold = Scalar.gimbalLockThreshold
        let atZero = abs(out[1]) <= threshold
        let atPi = abs(out[1] - Scalar.pi) <= threshold
        let halfSum = Scalar.atan2(y: b, x: a)
        let halfDifference = Scalar.atan2(y: d, x: c)
        if !atZero && !atPi {
            out[2] = halfSum - halfDifference
            out[0] = halfSum + halfDifference
        } else {
            out[2] = 0
            out[0] = atZero ? 2 * halfSum : 2 * halfDifference
        }
        if !symmetric {
            out[0] *= sign
            out[1] -= Scalar.pi / 2
        }
        for index in 0..<3 {
            if out[index] < -Scalar.pi {
                out[index] += 2 * Scalar.pi
            } else if out[index] > Scalar.pi {
                out[index] -= 2 * Scalar.pi
            }
        }
        self.angles = out
        self.sequence = sequence
        self.isGimbalLocked = atZero || atPi
    }

    /// The same rotation in another sequence.
    @inlinable
    public func converted(to other: RotationSequence) -> EulerAngles {
        EulerAngles(quaternion, sequence: other)
    }

    /// The angles in `other`: the stored ones when the sequence is `other`, otherwise converted.
    @inlinable
    func angles(in other: RotationSequence) -> SIMD3<Scalar> {
        sequence == other ? angles : EulerAngles(quaternion, sequence: other).angles
    }
}

// MARK: Named angles
//
// "Yaw, pitch and roll" name different axes in different conventions, so each accessor says which
// one it follows. Each converts from the stored sequence when it differs (a quaternion round trip):
// read ``angles`` of ``converted(to:)`` once when you need all three of a converted set.
extension EulerAngles {
    /// Aerospace yaw (Z-Y′-X″): about Z, radians in [−π, π].
    @inlinable public var aerospaceYaw: Scalar { angles(in: .aerospace)[0] }
    /// Aerospace pitch (Z-Y′-X″): about the rotated Y axis, radians in [−π/2, π/2].
    @inlinable public var aerospacePitch: Scalar { angles(in: .aerospace)[1] }
    /// Aerospace roll (Z-Y′-X″): about the twice-rotated X axis, radians in [−π, π].
    @inlinable public var aerospaceRoll: Scalar { angles(in: .aerospace)[2] }

    /// Core Motion's yaw (Z-X′-Y″, ``Attitude/yaw``): about Z, radians in [−π, π].
    @inlinable public var coreMotionYaw: Scalar { angles(in: .coreMotion)[0] }
    /// Core Motion's pitch (Z-X′-Y″, ``Attitude/pitch``): about the device's X axis, radians in
    /// [−π/2, π/2].
    @inlinable public var coreMotionPitch: Scalar { angles(in: .coreMotion)[1] }
    /// Core Motion's roll (Z-X′-Y″, ``Attitude/roll``): about the device's Y axis, radians in [−π, π].
    @inlinable public var coreMotionRoll: Scalar { angles(in: .coreMotion)[2] }

    /// Not provided: "yaw" alone does not say which convention.
    @available(*, unavailable, message: "say which convention: aerospaceYaw (Z-Y′-X″) or coreMotionYaw (Z-X′-Y″, as Attitude.yaw)")
    public var yaw: Scalar { fatalError() }
    /// Not provided: "pitch" is about Y in the aerospace convention and about X in Core Motion's.
    @available(*, unavailable, message: "say which convention: aerospacePitch (about Y) or coreMotionPitch (about X, as Attitude.pitch)")
    public var pitch: Scalar { fatalError() }
    /// Not provided: "roll" is about X in the aerospace convention and about Y in Core Motion's.
    @available(*, unavailable, message: "say which convention: aerospaceRoll (about X) or coreMotionRoll (about Y, as Attitude.roll)")
    public var roll: Scalar { fatalError() }
}

extension Quaternion {
    /// The rotation given by Euler angles.
    @inlinable
    public init(_ euler: EulerAngles<Scalar>) {
        self = euler.quaternion
    }

    /// The Euler angles of this rotation in `sequence`.
    @inlinable
    public func eulerAngles(_ sequence: RotationSequence) -> EulerAngles<Scalar> {
        EulerAngles(self, sequence: sequence)
    }
}

extension EulerAngles: Equatable, Hashable, Sendable {}

#if !hasFeature(Embedded)
extension EulerAngles: Codable {}
#endif


extension EulerAngles: CustomStringConvertible {
    /// e.g. `EulerAngles(ZYX: 0.1, 0.2, 0.3 rad)`.
    public var description: String {
        "EulerAngles(\(sequence.rawValue): \(angles[0]), \(angles[1]), \(angles[2]) rad"
            + (isGimbalLocked ? ", gimbal locked)" : ")")
    }
}
