import RealModule

extension Quaternion {
    /// The rotation by `angle` radians about `axis`, right-handed.
    ///
    /// The axis need not be unit length; it is normalized here. Recovery: an axis of zero length
    /// or with non-finite components defines no rotation and gives ``identity``; a non-finite
    /// angle also gives ``identity``.
    @inlinable
    public init(angle: Scalar, axis: SIMD3<Scalar>) {
        let n2 = (axis * axis).sum()
        guard angle.isFinite, n2.isNormal else {
            self = .identity
            return
        }
        let half = angle / 2
        let s = Scalar.sin(half) / n2.squareRoot()
        self.init(real: Scalar.cos(half), imaginary: axis * s)
    }

    /// The rotation whose rotation vector (axis × angle in radians) is `rotationVector`:
    /// the exponential map `exp(v / 2)`.
    ///
    /// Accurate for tiny rotations (no division by a small angle). Recovery: non-finite input
    /// gives ``identity``.
    @inlinable
    public init(rotationVector v: SIMD3<Scalar>) {
        let theta2 = (v * v).sum()
        guard theta2.isFinite else {
            self = .identity
            return
        }
        let theta = theta2.squareRoot()
        let half = theta / 2
        // sin(θ/2)/θ → 1/2 as θ → 0; sin is accurate relative to its argument, so only θ = 0 is special.
        let k: Scalar = theta > 0 ? Scalar.sin(half) / theta : Scalar(1) / 2
        self.init(real: Scalar.cos(half), imaginary: v * k)
    }

    /// The rotation vector (unit axis × angle, radians), with the angle in [0, π]: the logarithm
    /// map `2 log(q)` of the hemisphere with `w ≥ 0`.
    ///
    /// Assumes a unit quaternion; the length is ignored (only the direction counts). Accurate for
    /// tiny rotations.
    @inlinable
    public var rotationVector: SIMD3<Scalar> {
        let sign: Scalar = w < 0 ? -1 : 1
        let v = vector * sign
        let n = (v * v).sum().squareRoot()
        let ww = abs(w)
        // 2·atan2(n, w)/n → 2/w as n → 0; atan2 keeps full relative accuracy for small n.
        let k: Scalar = n > 0 ? 2 * Scalar.atan2(y: n, x: ww) / n : 2 / ww
        return v * k
    }

    /// The rotation angle in [0, π] radians, robust for small and for near-180° rotations.
    @inlinable
    public var angle: Scalar {
        let n = vector.lengthOfVector
        return 2 * Scalar.atan2(y: n, x: abs(w))
    }

    /// The unit rotation axis, chosen so that ``angle`` is in [0, π]. The identity has no axis;
    /// it returns (1, 0, 0).
    @inlinable
    public var axis: SIMD3<Scalar> {
        let v = w < 0 ? -vector : vector
        let n = v.lengthOfVector
        return n > 0 ? v / n : SIMD3(1, 0, 0)
    }

    /// Rotates a vector: `q ⊗ (0, v) ⊗ q*`.
    ///
    /// For an attitude quaternion this maps a sensor-frame vector to the earth frame. The
    /// quaternion must be unit length (as with Eigen, the result of a non-normalized quaternion is
    /// not a rotation). Cost: two cross products (`t = 2 v_q × v`, `v + w t + v_q × t`).
    @inlinable @inline(__always)
    public func act(on v: SIMD3<Scalar>) -> SIMD3<Scalar> {
        let u = vector
        let t = 2 * u.crossProduct(v)
        return v + w * t + u.crossProduct(t)
    }

    /// Rotates a vector by the inverse rotation: `q* ⊗ (0, v) ⊗ q`. For an attitude quaternion this
    /// maps an earth-frame vector into the sensor frame.
    @inlinable @inline(__always)
    public func inverseAct(on v: SIMD3<Scalar>) -> SIMD3<Scalar> {
        conjugate.act(on: v)
    }

    /// The angle in [0, π] radians of the rotation that takes `self` to `other`, treating `q` and
    /// `−q` as the same rotation. Both are normalized first.
    @inlinable
    public func angle(to other: Quaternion) -> Scalar {
        let a = normalized()
        let b = other.normalized()
        // |a − b| and |a + b| give a well-conditioned angle for both small and large differences.
        let minus = (a - b).length
        let plus = (a + b).length
        return 4 * Scalar.atan2(y: min(minus, plus), x: max(minus, plus))
    }

    /// Spherical linear interpolation from `self` (t = 0) to `other` (t = 1) along the shorter arc.
    ///
    /// Both inputs are taken as unit quaternions. When they are nearly the same rotation the
    /// interpolation is linear and normalized, which is accurate there; `t` outside [0, 1]
    /// extrapolates along the same great circle.
    @inlinable
    public func slerp(to other: Quaternion, t: Scalar) -> Quaternion {
        var b = other.components
        var cosine = dot(other)
        if cosine < 0 {
            b = -b
            cosine = -cosine
        }
        let a = components
        if cosine > 1 - Scalar.ulpOfOne.squareRoot() {
            return Quaternion(components: a + (b - a) * t).normalized()
        }
        // sin θ from the chord keeps accuracy where cos θ is close to 1.
        let chord = b - a * cosine
        let sine = (chord * chord).sum().squareRoot()
        let theta = Scalar.atan2(y: sine, x: cosine)
        let wa = Scalar.sin((1 - t) * theta) / sine
        let wb = Scalar.sin(t * theta) / sine
        return Quaternion(components: a * wa + b * wb)
    }

    /// The quaternion exponential `e^w (cos|v|, sin|v| v/|v|)`.
    @inlinable
    public func exp() -> Quaternion {
        let theta = vector.lengthOfVector
        let k: Scalar = theta > 0 ? Scalar.sin(theta) / theta : 1
        let scale = Scalar.exp(w)
        return Quaternion(real: scale * Scalar.cos(theta), imaginary: vector * (scale * k))
    }

    /// The principal quaternion logarithm `(ln|q|, atan2(|v|, w) v/|v|)`.
    ///
    /// For a unit quaternion the scalar part is 0 and the vector part is half the rotation vector
    /// (of the hemisphere of `w`). The logarithm of zero has a scalar part of −∞.
    @inlinable
    public func log() -> Quaternion {
        let n = vector.lengthOfVector
        let theta = Scalar.atan2(y: n, x: w)
        // atan2(n, w)/n → 1/w as n → 0 (w > 0); at n = 0 with w < 0 the angle is π about no axis.
        let k: Scalar = n > 0 ? theta / n : (w > 0 ? 1 / w : 0)
        return Quaternion(real: Scalar.log(length), imaginary: vector * k)
    }
}

extension SIMD3 where Scalar: FusionScalar {
    /// The Euclidean length `√(x² + y² + z²)`.
    @inlinable @inline(__always)
    public var lengthOfVector: Scalar {
        (self * self).sum().squareRoot()
    }

    /// The dot product.
    @inlinable @inline(__always)
    public func dotProduct(_ other: SIMD3) -> Scalar {
        (self * other).sum()
    }

    /// The right-handed cross product `self × other`.
    @inlinable @inline(__always)
    public func crossProduct(_ other: SIMD3) -> SIMD3 {
        SIMD3(
            self.y * other.z - self.z * other.y,
            self.z * other.x - self.x * other.z,
            self.x * other.y - self.y * other.x)
    }
}
