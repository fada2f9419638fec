/// A symmetric 6 × 6 covariance in six `SIMD8` columns (lanes 6 and 7 unused, kept zero), with the
/// Kalman measurement update for three scalar measurements written out: no allocation, a few dozen
/// vector operations. Internal: the filters' public API reports standard deviations only.
///
/// The methods that compute are `@_optimize(speed)` whatever the build's setting: a generic `SIMD8`
/// operation is a loop over its lanes, which an optimizer for size (`-Osize`) leaves as a loop; on a
/// core without vector registers (Cortex-M4F, `scripts/embedded --opt Osize`) every lane then went
/// through the stack, and the update had a 12.5 kB stack frame and took 1658 of the default
/// filter's 2151 instructions per sample. Optimized for speed, the same bits come out (no
/// floating-point licence is given), for 552 instructions per sample and 3.1 kB of stack in all.
@frozen @usableFromInline
struct Covariance6<Scalar: FusionScalar>: Sendable {
    @usableFromInline var c0: SIMD8<Scalar>
    @usableFromInline var c1: SIMD8<Scalar>
    @usableFromInline var c2: SIMD8<Scalar>
    @usableFromInline var c3: SIMD8<Scalar>
    @usableFromInline var c4: SIMD8<Scalar>
    @usableFromInline var c5: SIMD8<Scalar>

    /// `diag(d)` (lanes 0–5 of `d`).
    @inlinable init(diagonal d: SIMD8<Scalar>) {
        c0 = SIMD8(d[0], 0, 0, 0, 0, 0, 0, 0)
        c1 = SIMD8(0, d[1], 0, 0, 0, 0, 0, 0)
        c2 = SIMD8(0, 0, d[2], 0, 0, 0, 0, 0)
        c3 = SIMD8(0, 0, 0, d[3], 0, 0, 0, 0)
        c4 = SIMD8(0, 0, 0, 0, d[4], 0, 0, 0)
        c5 = SIMD8(0, 0, 0, 0, 0, d[5], 0, 0)
    }

    @inlinable var diagonal: SIMD8<Scalar> {
        SIMD8(c0[0], c1[1], c2[2], c3[3], c4[4], c5[5], 0, 0)
    }

    /// Adds `growth[i]` to the diagonal element `i`, without going beyond `ceiling[i]`.
    @inlinable @_optimize(speed)
    mutating func grow(_ growth: SIMD8<Scalar>, ceiling: SIMD8<Scalar>) {
        c0[0] = min(c0[0] + growth[0], ceiling[0])
        c1[1] = min(c1[1] + growth[1], ceiling[1])
        c2[2] = min(c2[2] + growth[2], ceiling[2])
        c3[3] = min(c3[3] + growth[3], ceiling[3])
        c4[4] = min(c4[4] + growth[4], ceiling[4])
        c5[5] = min(c5[5] + growth[5], ceiling[5])
    }

    /// `P v`.
    @inlinable @inline(__always)
    func times(_ v: SIMD8<Scalar>) -> SIMD8<Scalar> {
        let a = Self.combination(c0, v[0], c1, v[1], c2, v[2])
        let b = Self.combination(c3, v[3], c4, v[4], c5, v[5])
        return a + b
    }

    /// `x a + y b + z c`, added left to right. (Written out in each place, such sums of vectors
    /// times scalars take the type checker seconds each.)
    @inlinable @inline(__always)
    static func combination(
        _ x: SIMD8<Scalar>, _ a: Scalar, _ y: SIMD8<Scalar>, _ b: Scalar, _ z: SIMD8<Scalar>, _ c: Scalar
    ) -> SIMD8<Scalar> {
        let xa: SIMD8<Scalar> = x * a
        let yb: SIMD8<Scalar> = y * b
        let zc: SIMD8<Scalar> = z * c
        return xa + yb + zc
    }

    /// One Kalman update with measurement rows `h0`, `h1`, `h2` (lanes 0–5), innovations `e` and
    /// measurement variances `w`. Returns the state correction `K e`, or nil (and changes nothing)
    /// when the innovation covariance is singular, a variance would become negative, or the result
    /// is not finite.
    @inlinable @_optimize(speed)
    mutating func update(
        rows h0: SIMD8<Scalar>, _ h1: SIMD8<Scalar>, _ h2: SIMD8<Scalar>, innovation e: SIMD3<Scalar>,
        variance w: SIMD3<Scalar>
    ) -> SIMD8<Scalar>? {
        let p0 = times(h0)  // columns of P Hᵀ
        let p1 = times(h1)
        let p2 = times(h2)
        var s = Matrix3<Scalar>(
            columns: SIMD3((h0 * p0).sum(), (h1 * p0).sum(), (h2 * p0).sum()),
            SIMD3((h0 * p1).sum(), (h1 * p1).sum(), (h2 * p1).sum()),
            SIMD3((h0 * p2).sum(), (h1 * p2).sum(), (h2 * p2).sum()))
        s.c0.x += w.x
        s.c1.y += w.y
        s.c2.z += w.z
        guard let si = s.inverse else { return nil }
        // K = P Hᵀ S⁻¹, column m = Σ_n (P Hᵀ)_n (S⁻¹)_{n m}.
        let k0 = Self.combination(p0, si.c0.x, p1, si.c0.y, p2, si.c0.z)
        let k1 = Self.combination(p0, si.c1.x, p1, si.c1.y, p2, si.c1.z)
        let k2 = Self.combination(p0, si.c2.x, p1, si.c2.y, p2, si.c2.z)
        let correction = Self.combination(k0, e.x, k1, e.y, k2, e.z)
        // P ← P − K (P Hᵀ)ᵀ: column j loses Σ_m K_m (P Hᵀ)_m[j].
        var next = self
        next.c0 -= Self.combination(k0, p0[0], k1, p1[0], k2, p2[0])
        next.c1 -= Self.combination(k0, p0[1], k1, p1[1], k2, p2[1])
        next.c2 -= Self.combination(k0, p0[2], k1, p1[2], k2, p2[2])
        next.c3 -= Self.combination(k0, p0[3], k1, p1[3], k2, p2[3])
        next.c4 -= Self.combination(k0, p0[4], k1, p1[4], k2, p2[4])
        next.c5 -= Self.combination(k0, p0[5], k1, p1[5], k2, p2[5])
        next.symmetrize()
        let columns: SIMD8<Scalar> = next.c0 + next.c1 + next.c2 + next.c3 + next.c4 + next.c5
        let sum: SIMD8<Scalar> = columns + correction
        guard (sum * 0) == .zero else { return nil }  // NaN or infinity somewhere
        // A variance can only shrink toward zero; rounding that takes one below it would make the
        // covariance indefinite, and the next gain point the wrong way.
        guard next.diagonal.min() >= 0 else { return nil }
        self = next
        return correction
    }

    /// Replaces each pair of off-diagonal elements by their mean.
    @inlinable @_optimize(speed)
    mutating func symmetrize() {
        @inline(__always) func mean(_ a: inout SIMD8<Scalar>, _ i: Int, _ b: inout SIMD8<Scalar>, _ j: Int) {
            let m = (a[i] + b[j]) / 2
            a[i] = m
            b[j] = m
        }
        mean(&c0, 1, &c1, 0); mean(&c0, 2, &c2, 0); mean(&c0, 3, &c3, 0); mean(&c0, 4, &c4, 0); mean(&c0, 5, &c5, 0)
        mean(&c1, 2, &c2, 1); mean(&c1, 3, &c3, 1); mean(&c1, 4, &c4, 1); mean(&c1, 5, &c5, 1)
        mean(&c2, 3, &c3, 2); mean(&c2, 4, &c4, 2); mean(&c2, 5, &c5, 2)
        mean(&c3, 4, &c4, 3); mean(&c3, 5, &c5, 3)
        mean(&c4, 5, &c5, 4)
    }
}
