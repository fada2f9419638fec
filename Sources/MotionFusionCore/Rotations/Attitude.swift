import RealModule

/// The orientation of a device relative to a reference frame: MotionFusion's `CMAttitude`.
///
/// ``quaternion`` is the unit quaternion that maps **device-frame vectors to the reference frame**
/// (`v_ref = q ⊗ v_device ⊗ q*`), the same direction as every filter's output.
///
/// The other views follow Core Motion's documented definitions:
/// - ``rotationMatrix`` is the reference → device matrix: `rotationMatrix * (0, 0, −1)` is gravity
///   (in g) in the device frame, so a device lying flat, face up, has the identity matrix and
///   gravity (0, 0, −1). It is the transpose of `RotationMatrix(quaternion)`.
/// - ``yaw``, ``pitch`` and ``roll`` are the intrinsic Z-X′-Y″ Euler angles of ``quaternion``
///   (``RotationSequence/coreMotion``): yaw about the device's Z axis, pitch about its X axis, roll
///   about its Y axis, each positive counter-clockwise by the right-hand rule. Pitch is in
///   [−π/2, π/2] and gimbal-locks when the device stands upright (pitch ±π/2); roll is then 0.
/// - ``multiply(byInverseOf:)`` re-expresses the attitude relative to another attitude, as in Core
///   Motion's reference-attitude pattern.
///
/// An `Attitude` holds a unit quaternion: ``init(quaternion:)`` normalizes and rejects zero or
/// non-finite input, and ``init(unitQuaternion:)`` asserts unit length in debug builds. Like
/// ``Quaternion``, `==` and hashing compare the stored quaternion, so the same rotation stored as
/// `q` and `−q` compares unequal; compare with ``Quaternion/angle(to:)`` instead.
@frozen
public struct Attitude<Scalar: FusionScalar> {
    @usableFromInline
    var unitQuaternion: Quaternion<Scalar>

    /// The device → reference rotation, unit length.
    @inlinable
    public var quaternion: Quaternion<Scalar> { unitQuaternion }

    /// An attitude from a device → reference quaternion, normalized (any finite non-zero length).
    ///
    /// - Throws: ``RotationError/notARotation`` for a zero or non-finite quaternion.
    @inlinable
    public init(quaternion q: Quaternion<Scalar>) throws(RotationError) {
        guard Quaternion.hasDirection(q) else { throw .notARotation }
        self.unitQuaternion = q.normalized()
    }

    /// An attitude from a quaternion already known to be unit length (as a filter produces). It is
    /// not normalized; debug builds assert that it is finite and of unit length (within 1e-3), so
    /// that a NaN never becomes an attitude unnoticed. Use ``init(quaternion:)`` for anything else.
    @inlinable @inline(__always)
    public init(unitQuaternion q: Quaternion<Scalar>) {
        assert(q.isFinite && abs(q.lengthSquared - 1) < 1e-3, "not a unit quaternion: \(q)")
        self.unitQuaternion = q
    }

    /// The attitude of a device lying flat, face up, aligned with the reference frame.
    @inlinable
    public static var identity: Attitude { Attitude(unitQuaternion: .identity) }

    /// Core Motion's rotation matrix: reference frame → device frame, the transpose of the matrix of
    /// ``quaternion``. `rotationMatrix * SIMD3(0, 0, -1)` is gravity in the device frame, in g.
    @inlinable
    public var rotationMatrix: RotationMatrix<Scalar> {
        RotationMatrix(quaternion).transposed
    }

    /// The Core Motion Euler angles (``RotationSequence/coreMotion``), in the order yaw, pitch, roll.
    ///
    /// ``roll``, ``pitch`` and ``yaw`` each extract all three angles; read this property once when
    /// you need more than one of them.
    @inlinable
    public var eulerAngles: EulerAngles<Scalar> {
        EulerAngles(quaternion, sequence: .coreMotion)
    }

    /// Rotation about the device's Y axis, radians in [−π, π].
    @inlinable
    public var roll: Scalar { eulerAngles.angles[2] }

    /// Rotation about the device's X axis, radians in [−π/2, π/2].
    @inlinable
    public var pitch: Scalar { eulerAngles.angles[1] }

    /// Rotation about the Z axis, radians in [−π, π].
    @inlinable
    public var yaw: Scalar { eulerAngles.angles[0] }

    /// Gravity in the device frame, in g, with Core Motion's sign: (0, 0, −1) lying flat, face up.
    @inlinable
    public var gravity: SIMD3<Scalar> {
        quaternion.inverseAct(on: SIMD3(0, 0, -1))
    }

    /// Makes this attitude relative to `reference`: afterwards it is the rotation from this device
    /// frame to the device frame `reference` describes (`q ← q_ref* ⊗ q`).
    ///
    /// As in Core Motion, save the attitude at some moment and call this on later attitudes to get
    /// the change since then; an attitude made relative to itself is the identity.
    /// Both attitudes hold unit quaternions, so the result is one too.
    @inlinable
    public mutating func multiply(byInverseOf reference: Attitude) {
        unitQuaternion = (reference.quaternion.conjugate * quaternion).normalized()
    }

    /// Core Motion's `copy()` (from `NSCopying`), for the reference-attitude pattern
    /// (`reference = motion.attitude.copy()`). `Attitude` is a value type, so every assignment
    /// already copies; this returns the attitude itself.
    @inlinable
    public func copy() -> Attitude { self }

    /// The attitude relative to `reference`; see ``multiply(byInverseOf:)``.
    @inlinable
    public func multiplied(byInverseOf reference: Attitude) -> Attitude {
        var copy = self
        copy.multiply(byInverseOf: reference)
        return copy
    }
}

extension Attitude: Equatable, Hashable, Sendable {}

#if !hasFeature(Embedded)
extension Attitude: Codable {
    @usableFromInline
    enum CodingKeys: String, CodingKey { case quaternion }

    /// Encodes as `{"quaternion": {"w": …, "x": …, "y": …, "z": …}}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(quaternion, forKey: .quaternion)
    }

    /// Decodes and normalizes; a zero or non-finite quaternion is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let q = try container.decode(Quaternion<Scalar>.self, forKey: .quaternion)
        do {
            try self.init(quaternion: q)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .quaternion, in: container, debugDescription: error.description)
        }
    }
}
#endif

extension Attitude: CustomStringConvertible {
    /// Roll, pitch and yaw in degrees and the quaternion.
    public var description: String {
        let degrees = 180 / Scalar.pi
        return
            "Attitude(roll: \(roll * degrees)°, pitch: \(pitch * degrees)°, yaw: \(yaw * degrees)°, \(quaternion))"
    }
}
