import RealModule

extension Quaternion {
    /// The rotation by `angle` radians about `axis`, right-handed.
    ///
    /// The axis need not be unit length (any finite non-zero length, huge or tiny); it is
    /// normalized here. Recovery: an axis of zero length or with non-finite components defines no
    /// rotation and gives ``identity``; a non-finite angle also gives ``identity``.
    @inlinable
    public init(angle: Scalar, axis: SIMD3<Scalar>) {
        guard angle.isFinite, let unit = VectorCheck.direction(axis) else {
            self = .identity
            return
        }
        let half = angle / 2
        self.init(real: Scalar.cos(half), imaginary: unit * Scalar.sin(half))
    }

    /// The rotation whose rotation vector (axis × angle in radians) is `rotationVector`:
    /// the exponential map `exp(v / 2)`.
    ///
    /// Accurate for tiny rotations (no division by a small angle). Recovery: a vector with a NaN or
    /// infinite component gives ``identity``.
    @inlinable
    public init(rotationVector v: SIMD3<Scalar>) {
        guard VectorCheck.isFinite(v) else {
            self = .identity
            return
        }
        let theta = VectorCheck.length(v)
        let half = theta / 2
        // sin(θ/2)/θ → 1/2 as θ → 0; sin is accurate relative to its argument, so only θ = 0 is special.
        let k: Scalar = theta > 0 ? Scalar.sin(half) / theta : Scalar(1) / 2
        self.init(real: Scalar.cos(half), imaginary: v * k)
    }

    /// The rotation vector (unit axis × angle, radians), with the angle in [0, π]: the logarithm
    /// map `2 log(q)` of the hemisphere with `w ≥ 0`.
    ///
    /// Assumes a unit quaternion; the length is ignored (only the direction counts). Accurate for
    /// tiny rotations. A zero or non-finite quaternion is no rotation: the result has NaN
    /// components.
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

    /// The rotation angle in [0, π] radians, robust for small and for near-180° rotations. NaN for
    /// a quaternion with a NaN component.
    @inlinable
    public var angle: Scalar {
        let n = vector.length
        return 2 * Scalar.atan2(y: n, x: abs(w))
    }

    /// The unit rotation axis, chosen so that ``angle`` is in [0, π]. The identity has no axis;
    /// it returns (1, 0, 0). A quaternion with a NaN component returns NaN components.
    @inlinable
    public var axis: SIMD3<Scalar> {
        let v = w < 0 ? -vector : vector
        guard isFinite else { return SIMD3(repeating: .nan) }
        let n = v.length
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
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// Rotates a vector by the inverse rotation: `q* ⊗ (0, v) ⊗ q`. For an attitude quaternion this
    /// maps an earth-frame vector into the sensor frame.
    @inlinable @inline(__always)
    public func inverseAct(on v: SIMD3<Scalar>) -> SIMD3<Scalar> {
        conjugate.act(on: v)
    }

    /// The angle in [0, π] radians of the rotation that takes `self` to `other`, treating `q` and
    /// `−q` as the same rotation. Both are normalized first (any finite non-zero length works). A
    /// zero or non-finite quaternion is no rotation: the result is NaN.
    @inlinable
    public func angle(to other: Quaternion) -> Scalar {
        guard Self.hasDirection(self), Self.hasDirection(other) else { return .nan }
        let a = normalized()
        let b = other.normalized()
        // |a − b| and |a + b| give a well-conditioned angle for both small and large differences.
        let minus = (a - b).length
        let plus = (a + b).length
        return 4 * Scalar.atan2(y: min(minus, plus), x: max(minus, plus))
    }

    /// Spherical linear interpolation from `self` (t = 0) to `other` (t = 1) along the shorter arc.
    ///
    /// Both inputs are taken as unit quaternions (a zero or non-finite input gives NaN components). When they are nearly the same rotation the
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

    /// The quaternion exponential `e^w (cos|v|, sin|v| v/|v|)`. NaN or infinite components give
    /// non-finite results.
    @inlinable
    public func exp() -> Quaternion {
        let theta = vector.length
        let k: Scalar = theta > 0 ? Scalar.sin(theta) / theta : 1
        let scale = Scalar.exp(w)
        return Quaternion(real: scale * Scalar.cos(theta), imaginary: vector * (scale * k))
    }

    /// The principal quaternion logarithm `(ln|q|, atan2(|v|, w) v/|v|)`.
    ///
    /// For a unit quaternion the scalar part is 0 and the vector part is half the rotation vector
    /// (of the hemisphere of `w`). On the negative real axis (`v = 0`, `w < 0`) the angle is π about
    /// no particular axis; the x axis is chosen, so `log(−1) = (0, π, 0, 0)` and `exp(log q) == q`
    /// still holds. The logarithm of zero has a scalar part of −∞; NaN components give NaN.
    @inlinable
    public func log() -> Quaternion {
        let n = VectorCheck.length(vector)
        let theta = Scalar.atan2(y: n, x: w)
        let real = Scalar.log(length.isFinite && length > 0 ? length : Self.scaledLength(self))
        if n > 0 {
            // atan2(n, w)/n stays accurate as n → 0 (w > 0).
            return Quaternion(real: real, imaginary: vector * (theta / n))
        }
        if w < 0 { return Quaternion(real: real, imaginary: SIMD3(.pi, 0, 0)) }
        return Quaternion(real: real, imaginary: .zero)
    }

    /// True when the quaternion is finite and not zero (after rescaling): it has a direction.
    @inlinable
    static func hasDirection(_ q: Quaternion) -> Bool {
        guard q.isFinite else { return false }
        return q.components != .zero
    }

    /// The length without overflow or underflow.
    @inlinable
    static func scaledLength(_ q: Quaternion) -> Scalar {
        let c = q.components
        let m = max(max(abs(c[0]), abs(c[1])), max(abs(c[2]), abs(c[3])))
        guard m > 0, m.isFinite else { return m }
        let u = c / m
        return m * (u * u).sum().squareRoot()
    }
}
