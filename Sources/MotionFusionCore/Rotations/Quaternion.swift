import RealModule

/// A Hamilton quaternion `w + xi + yj + zk`, written and constructed scalar first.
///
/// Used as a rotation, a unit quaternion `q` maps a vector from one frame to another by
/// `v' = q ⊗ v ⊗ q*` (see ``act(on:)``). In MotionFusion an attitude quaternion maps
/// **sensor-frame vectors to the earth frame**: `v_earth = q ⊗ v_sensor ⊗ q*`.
///
/// The four components are stored in one `SIMD4` in the order (w, x, y, z). The type is a plain value:
/// `==` and `hashValue` compare components, so `q` and `-q` are *different* quaternions although they
/// are the same rotation; use ``representsSameRotation(as:)`` or
/// ``isApproximatelySameRotation(as:angleTolerance:)`` to compare rotations.
///
/// Non-finite input is never silently turned into an attitude: operations that need a direction
/// (``normalized()``, ``init(angle:axis:)``) document what they return for zero or non-finite input.
@frozen
public struct Quaternion<Scalar: FusionScalar> {
    /// The components in the order (w, x, y, z): scalar part first.
    public var components: SIMD4<Scalar>

    /// A quaternion from its components in the order (w, x, y, z).
    @inlinable @inline(__always)
    public init(components: SIMD4<Scalar>) {
        self.components = components
    }

    /// A quaternion from its scalar part `w` and vector part `(x, y, z)`.
    @inlinable @inline(__always)
    public init(w: Scalar, x: Scalar, y: Scalar, z: Scalar) {
        components = SIMD4(w, x, y, z)
    }

    /// A quaternion from its scalar part and its vector part.
    @inlinable @inline(__always)
    public init(real w: Scalar, imaginary v: SIMD3<Scalar>) {
        components = SIMD4(w, v.x, v.y, v.z)
    }

    /// Converts a quaternion of another precision.
    @inlinable
    public init<Other>(_ other: Quaternion<Other>) {
        components = SIMD4(
            Scalar(other.w), Scalar(other.x), Scalar(other.y), Scalar(other.z))
    }

    /// The scalar (real) part.
    @inlinable @inline(__always)
    public var w: Scalar {
        get { components[0] }
        set { components[0] = newValue }
    }

    /// The first component of the vector part (coefficient of i).
    @inlinable @inline(__always)
    public var x: Scalar {
        get { components[1] }
        set { components[1] = newValue }
    }

    /// The second component of the vector part (coefficient of j).
    @inlinable @inline(__always)
    public var y: Scalar {
        get { components[2] }
        set { components[2] = newValue }
    }

    /// The third component of the vector part (coefficient of k).
    @inlinable @inline(__always)
    public var z: Scalar {
        get { components[3] }
        set { components[3] = newValue }
    }

    /// The vector (imaginary) part (x, y, z).
    @inlinable @inline(__always)
    public var vector: SIMD3<Scalar> {
        get { SIMD3(components[1], components[2], components[3]) }
        set {
            components[1] = newValue.x
            components[2] = newValue.y
            components[3] = newValue.z
        }
    }

    /// The identity rotation, (1, 0, 0, 0).
    @inlinable
    public static var identity: Quaternion { Quaternion(w: 1, x: 0, y: 0, z: 0) }

    /// The zero quaternion, which is not a rotation.
    @inlinable
    public static var zero: Quaternion { Quaternion(components: .zero) }
}

// MARK: - Norms and algebra

extension Quaternion {
    /// The squared Euclidean norm `w² + x² + y² + z²`.
    @inlinable @inline(__always)
    public var lengthSquared: Scalar {
        (components * components).sum()
    }

    /// The Euclidean norm. A unit quaternion (a rotation) has length 1.
    @inlinable
    public var length: Scalar { lengthSquared.squareRoot() }

    /// True when all four components are finite.
    @inlinable
    public var isFinite: Bool {
        w.isFinite && x.isFinite && y.isFinite && z.isFinite
    }

    /// The conjugate `(w, −x, −y, −z)`: for a unit quaternion, the inverse rotation.
    @inlinable @inline(__always)
    public var conjugate: Quaternion {
        Quaternion(components: components * SIMD4(1, -1, -1, -1))
    }

    /// The multiplicative inverse `q* / |q|²`; for a unit quaternion, equal to ``conjugate``.
    ///
    /// The zero quaternion has no inverse: its result has non-finite components (check ``isFinite``).
    @inlinable
    public var inverse: Quaternion {
        Quaternion(components: conjugate.components / lengthSquared)
    }

    /// The quaternion scaled to unit length.
    ///
    /// Recovery for input without a direction: a zero, subnormal-length or non-finite quaternion
    /// returns ``identity`` (check ``length`` and ``isFinite`` first when that matters).
    @inlinable
    public func normalized() -> Quaternion {
        let n2 = lengthSquared
        guard n2.isNormal else {
            // Zero, subnormal (n² underflowed), infinite or NaN. A huge but finite quaternion can
            // overflow n²; rescale it first so that it keeps its direction.
            let m = max(max(abs(w), abs(x)), max(abs(y), abs(z)))
            if m.isFinite && m > 0 {
                let scaled = components / m
                return Quaternion(components: scaled / (scaled * scaled).sum().squareRoot())
            }
            return .identity
        }
        return Quaternion(components: components * (1 / n2.squareRoot()))
    }

    /// The four-dimensional dot product of the components.
    @inlinable @inline(__always)
    public func dot(_ other: Quaternion) -> Scalar {
        (components * other.components).sum()
    }

    /// The Hamilton product `lhs ⊗ rhs`: rotating by `rhs` first, then by `lhs`.
    @inlinable @inline(__always)
    public static func * (lhs: Quaternion, rhs: Quaternion) -> Quaternion {
        let a0: Scalar = lhs.components[0], a1: Scalar = lhs.components[1]
        let a2: Scalar = lhs.components[2], a3: Scalar = lhs.components[3]
        let b0: Scalar = rhs.components[0], b1: Scalar = rhs.components[1]
        let b2: Scalar = rhs.components[2], b3: Scalar = rhs.components[3]
        let w: Scalar = a0 * b0 - a1 * b1 - a2 * b2 - a3 * b3
        let x: Scalar = a0 * b1 + a1 * b0 + a2 * b3 - a3 * b2
        let y: Scalar = a0 * b2 - a1 * b3 + a2 * b0 + a3 * b1
        let z: Scalar = a0 * b3 + a1 * b2 - a2 * b1 + a3 * b0
        return Quaternion(components: SIMD4(w, x, y, z))
    }

    /// In-place Hamilton product: `lhs = lhs ⊗ rhs`.
    @inlinable @inline(__always)
    public static func *= (lhs: inout Quaternion, rhs: Quaternion) {
        lhs = lhs * rhs
    }

    /// Component-wise sum.
    @inlinable @inline(__always)
    public static func + (lhs: Quaternion, rhs: Quaternion) -> Quaternion {
        Quaternion(components: lhs.components + rhs.components)
    }

    /// Component-wise difference.
    @inlinable @inline(__always)
    public static func - (lhs: Quaternion, rhs: Quaternion) -> Quaternion {
        Quaternion(components: lhs.components - rhs.components)
    }

    /// The negated quaternion: the same rotation, the other hemisphere.
    @inlinable @inline(__always)
    public static prefix func - (q: Quaternion) -> Quaternion {
        Quaternion(components: -q.components)
    }

    /// Scales every component.
    @inlinable @inline(__always)
    public static func * (q: Quaternion, s: Scalar) -> Quaternion {
        Quaternion(components: q.components * s)
    }

    /// Scales every component.
    @inlinable @inline(__always)
    public static func * (s: Scalar, q: Quaternion) -> Quaternion {
        Quaternion(components: q.components * s)
    }

    /// Divides every component.
    @inlinable @inline(__always)
    public static func / (q: Quaternion, s: Scalar) -> Quaternion {
        Quaternion(components: q.components / s)
    }
}

// MARK: - Comparison

extension Quaternion {
    /// True when the two quaternions are within a tolerance of each other as 4-vectors:
    /// `|self − other| ≤ max(absoluteTolerance, relativeTolerance · max(|self|, |other|))`.
    ///
    /// This compares quaternions, not rotations: `q` and `-q` are far apart here. Non-finite
    /// components never compare approximately equal.
    @inlinable
    public func isApproximatelyEqual(
        to other: Quaternion,
        absoluteTolerance: Scalar = Scalar.ulpOfOne.squareRoot(),
        relativeTolerance: Scalar = 0
    ) -> Bool {
        guard isFinite, other.isFinite else { return false }
        let difference = (self - other).length
        let scale = max(length, other.length)
        return difference <= max(absoluteTolerance, relativeTolerance * scale)
    }

    /// True when both quaternions are exactly the same rotation: `self == other` or `self == -other`.
    @inlinable
    public func representsSameRotation(as other: Quaternion) -> Bool {
        self == other || self == -other
    }

    /// True when the rotations differ by at most `angleTolerance` radians (q ≡ −q).
    ///
    /// Both quaternions are normalized first. A zero or non-finite quaternion is no rotation and
    /// never compares equal.
    @inlinable
    public func isApproximatelySameRotation(
        as other: Quaternion, angleTolerance: Scalar = Scalar.ulpOfOne.squareRoot()
    ) -> Bool {
        angle(to: other) <= angleTolerance  // NaN for zero or non-finite input: false
    }
}

extension Quaternion: Equatable {}
extension Quaternion: Hashable {}
extension Quaternion: Sendable {}
