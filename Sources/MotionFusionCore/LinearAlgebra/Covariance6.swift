/// A symmetric 6 × 6 covariance, its upper triangle in 21 scalars, with the Kalman measurement
/// update for independent scalar measurements used one after the other: no allocation, no matrix
/// inverse, each product computed once for both halves (the matrix is symmetric by construction).
/// Internal: the filters' public API reports standard deviations only. Vectors in and out are
/// `SIMD8` (lanes 0–5; lanes 6 and 7 zero).
///
/// Scalars, not `SIMD8` columns as in 0.5: columns of eight lanes for six values spent a
/// quarter of every operation on the two unused lanes, computed both halves of the symmetric matrix
/// and averaged them afterwards, inverted the 3 × 3 innovation covariance, and on x86-64 kept 24
/// vector registers' worth of columns in 16 registers. The update took 1,787 x86-64 instructions
/// in `Double` (callgrind, `motion fuse` of BROAD trial 01, 1,963 updates); it takes 940. The
/// methods that compute are `@_optimize(speed)` whatever the build's setting, so that an `-Osize`
/// build (`scripts/embedded --opt Osize`) does not turn them into loops through the stack.
@frozen @usableFromInline
struct Covariance6<Scalar: FusionScalar>: Sendable {
    @usableFromInline var p00: Scalar
    @usableFromInline var p01: Scalar
    @usableFromInline var p02: Scalar
    @usableFromInline var p03: Scalar
    @usableFromInline var p04: Scalar
    @usableFromInline var p05: Scalar
    @usableFromInline var p11: Scalar
    @usableFromInline var p12: Scalar
    @usableFromInline var p13: Scalar
    @usableFromInline var p14: Scalar
    @usableFromInline var p15: Scalar
    @usableFromInline var p22: Scalar
    @usableFromInline var p23: Scalar
    @usableFromInline var p24: Scalar
    @usableFromInline var p25: Scalar
    @usableFromInline var p33: Scalar
    @usableFromInline var p34: Scalar
    @usableFromInline var p35: Scalar
    @usableFromInline var p44: Scalar
    @usableFromInline var p45: Scalar
    @usableFromInline var p55: Scalar

    /// `diag(d)` (lanes 0–5 of `d`).
    @inlinable init(diagonal d: SIMD8<Scalar>) {
        p00 = d[0]
        p01 = 0
        p02 = 0
        p03 = 0
        p04 = 0
        p05 = 0
        p11 = d[1]
        p12 = 0
        p13 = 0
        p14 = 0
        p15 = 0
        p22 = d[2]
        p23 = 0
        p24 = 0
        p25 = 0
        p33 = d[3]
        p34 = 0
        p35 = 0
        p44 = d[4]
        p45 = 0
        p55 = d[5]
    }

    /// Element (i, j), both in 0 ..< 6 (the same element as (j, i)). For tests and set-up, not for
    /// hot code.
    @inlinable subscript(i: Int, j: Int) -> Scalar {
        get {
            var copy = self
            return copy.withElement(i, j) { $0 }
        }
        set { withElement(i, j) { $0 = newValue } }
    }

    /// `body` applied to the stored element (i, j), (j, i) being the same one: the one mapping from
    /// indices to the 21 stored scalars, which the subscript's getter and setter share.
    @inlinable mutating func withElement<R>(_ i: Int, _ j: Int, _ body: (inout Scalar) -> R) -> R {
        switch (Swift.min(i, j), Swift.max(i, j)) {
        case (0, 0): return body(&p00)
        case (0, 1): return body(&p01)
        case (0, 2): return body(&p02)
        case (0, 3): return body(&p03)
        case (0, 4): return body(&p04)
        case (0, 5): return body(&p05)
        case (1, 1): return body(&p11)
        case (1, 2): return body(&p12)
        case (1, 3): return body(&p13)
        case (1, 4): return body(&p14)
        case (1, 5): return body(&p15)
        case (2, 2): return body(&p22)
        case (2, 3): return body(&p23)
        case (2, 4): return body(&p24)
        case (2, 5): return body(&p25)
        case (3, 3): return body(&p33)
        case (3, 4): return body(&p34)
        case (3, 5): return body(&p35)
        case (4, 4): return body(&p44)
        case (4, 5): return body(&p45)
        case (5, 5): return body(&p55)
        default: preconditionFailure("a 6 × 6 covariance has no element (\(i), \(j))")
        }
    }

    @inlinable var diagonal: SIMD8<Scalar> {
        SIMD8(p00, p11, p22, p33, p44, p55, 0, 0)
    }

    /// Adds `growth[i]` to the diagonal element `i`, without going beyond `ceiling[i]`.
    @inlinable @_optimize(speed)
    mutating func grow(_ growth: SIMD8<Scalar>, ceiling: SIMD8<Scalar>) {
        p00 = min(p00 + growth[0], ceiling[0])
        p11 = min(p11 + growth[1], ceiling[1])
        p22 = min(p22 + growth[2], ceiling[2])
        p33 = min(p33 + growth[3], ceiling[3])
        p44 = min(p44 + growth[4], ceiling[4])
        p55 = min(p55 + growth[5], ceiling[5])
    }

    /// `P v`, each element summed over j = 0 … 5 in order.
    @inlinable @inline(__always)
    func times(_ v: SIMD8<Scalar>) -> SIMD8<Scalar> {
        let v0: Scalar = v[0], v1: Scalar = v[1], v2: Scalar = v[2], v3: Scalar = v[3], v4: Scalar = v[4], v5: Scalar = v[5]
        let a0: Scalar = p00 * v0 + p01 * v1 + p02 * v2
        let r0: Scalar = a0 + p03 * v3 + p04 * v4 + p05 * v5
        let a1: Scalar = p01 * v0 + p11 * v1 + p12 * v2
        let r1: Scalar = a1 + p13 * v3 + p14 * v4 + p15 * v5
        let a2: Scalar = p02 * v0 + p12 * v1 + p22 * v2
        let r2: Scalar = a2 + p23 * v3 + p24 * v4 + p25 * v5
        let a3: Scalar = p03 * v0 + p13 * v1 + p23 * v2
        let r3: Scalar = a3 + p33 * v3 + p34 * v4 + p35 * v5
        let a4: Scalar = p04 * v0 + p14 * v1 + p24 * v2
        let r4: Scalar = a4 + p34 * v3 + p44 * v4 + p45 * v5
        let a5: Scalar = p05 * v0 + p15 * v1 + p25 * v2
        let r5: Scalar = a5 + p35 * v3 + p45 * v4 + p55 * v5
        return SIMD8(r0, r1, r2, r3, r4, r5, 0, 0)
    }

    /// One Kalman update with measurement rows `h0`, `h1`, `h2` (lanes 0–5), innovations `e` and
    /// measurement variances `w` (independent measurements: the measurement covariance is
    /// `diag(w)`). Returns the state correction `K e`, or nil (and changes nothing) when an
    /// innovation variance is not positive, a variance would become negative, or the result is not
    /// finite.
    ///
    /// The three measurements are used one after the other (``measure(_:_:_:_:)``), which for
    /// independent measurements is the same update as the one with the 3 × 3 innovation covariance
    /// `S = H P Hᵀ + diag(w)` (the order changes only the rounding), without inverting `S`: each
    /// takes one division, and a row of zeros (the vertical row in 6D) is no measurement and costs
    /// nothing.
    @inlinable @_optimize(speed)
    mutating func update(
        rows h0: SIMD8<Scalar>, _ h1: SIMD8<Scalar>, _ h2: SIMD8<Scalar>, innovation e: SIMD3<Scalar>,
        variance w: SIMD3<Scalar>
    ) -> SIMD8<Scalar>? {
        var next = self
        var correction = SIMD8<Scalar>.zero
        guard next.measure(h0, e.x, w.x, &correction), next.measure(h1, e.y, w.y, &correction),
            next.measure(h2, e.z, w.z, &correction)
        else { return nil }
        // NaN or infinity anywhere (x · 0 is 0 for every finite x), or a variance below zero: a
        // variance can only shrink toward zero, and rounding that takes one below it would make the
        // covariance indefinite and the next gain point the wrong way.
        var sum: Scalar = (correction * 0).sum()
        sum += next.p00 + next.p01 + next.p02 + next.p03 + next.p04 + next.p05 + next.p11
        sum += next.p12 + next.p13 + next.p14 + next.p15 + next.p22 + next.p23 + next.p24
        sum += next.p25 + next.p33 + next.p34 + next.p35 + next.p44 + next.p45 + next.p55
        guard sum * 0 == 0,
            Swift.min(Swift.min(next.p00, next.p11), Swift.min(next.p22, next.p33)) >= 0,
            Swift.min(next.p44, next.p55) >= 0
        else { return nil }
        self = next
        return correction
    }

    /// One scalar measurement of a sequential update: row `h`, innovation `e` (against the state
    /// before the whole update), variance `w`; `x` is the correction so far, to which this
    /// measurement's is added. With `u = P h` and `s = hᵀ u + w`: `x ← x + u (e − hᵀ x) / s` and
    /// `P ← P − u uᵀ / s`. False when `s` is not a positive finite number (the caller then drops the
    /// whole update).
    @inlinable @inline(__always)
    mutating func measure(_ h: SIMD8<Scalar>, _ e: Scalar, _ w: Scalar, _ x: inout SIMD8<Scalar>) -> Bool {
        // Nothing observed (lane by lane: the vector `!=` of SIMD8 is a loop through memory).
        guard h[0] != 0 || h[1] != 0 || h[2] != 0 || h[3] != 0 || h[4] != 0 || h[5] != 0 else { return true }
        let u = times(h)
        let s: Scalar = (h * u).sum() + w
        guard s > 0, s.isFinite else { return false }
        let r: Scalar = 1 / s
        let innovation: Scalar = e - (h * x).sum()
        x += u * (innovation * r)
        let u0: Scalar = u[0], u1: Scalar = u[1], u2: Scalar = u[2], u3: Scalar = u[3], u4: Scalar = u[4], u5: Scalar = u[5]
        p00 -= (u0 * u0) * r
        p01 -= (u0 * u1) * r
        p02 -= (u0 * u2) * r
        p03 -= (u0 * u3) * r
        p04 -= (u0 * u4) * r
        p05 -= (u0 * u5) * r
        p11 -= (u1 * u1) * r
        p12 -= (u1 * u2) * r
        p13 -= (u1 * u3) * r
        p14 -= (u1 * u4) * r
        p15 -= (u1 * u5) * r
        p22 -= (u2 * u2) * r
        p23 -= (u2 * u3) * r
        p24 -= (u2 * u4) * r
        p25 -= (u2 * u5) * r
        p33 -= (u3 * u3) * r
        p34 -= (u3 * u4) * r
        p35 -= (u3 * u5) * r
        p44 -= (u4 * u4) * r
        p45 -= (u4 * u5) * r
        p55 -= (u5 * u5) * r
        return true
    }
}
