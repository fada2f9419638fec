import RealModule

/// The attitude of ``InertialFrameFilter`` as a product of three rotations, each corrected by one
/// sensor: `q9 = heading ⊗ inclination ⊗ strapdown`, all NWU-based.
///
/// - `strapdown` (sensor → I) integrates the corrected gyroscope rate (``integrate(halfRotation:)``);
///   over seconds the frame I is almost inertial.
/// - `inclination` (I → E6) turns the low-pass specific force up (``correctInclination(toward:)``).
/// - `heading` (E6 → E9) is a rotation about the vertical that points the horizontal field north
///   (``headingDisagreement(fieldDirection:)``, ``rotateHeading(by:)``).
///
/// A value type of three quaternions, stored inline in the filter.
@frozen @usableFromInline
struct SplitAttitude<Scalar: FusionScalar>: Sendable {
    @usableFromInline var strapdown: Quaternion<Scalar> = .identity
    @usableFromInline var inclination: Quaternion<Scalar> = .identity
    @usableFromInline var heading: Quaternion<Scalar> = .identity

    @inlinable init() {}

    /// The attitude `strapdown` with no inclination or heading correction yet.
    @inlinable init(strapdown: Quaternion<Scalar>) {
        self.strapdown = strapdown
    }

    /// The 6D attitude `inclination ⊗ strapdown` (sensor → E6, NWU-based).
    @inlinable var sixD: Quaternion<Scalar> {
        @inline(__always) get { inclination * strapdown }
    }

    /// Integrates one gyroscope sample: `strapdown ← strapdown ⊗ exp(halfRotation)`, with
    /// `halfRotation = ω Δt / 2` (not normalized: ``normalizeStrapdown()`` does that at correction steps).
    @inlinable @inline(__always)
    mutating func integrate(halfRotation: SIMD3<Scalar>) {
        strapdown = strapdown * Self.exponential(halfRotation: halfRotation)
    }

    /// Renormalizes the strapdown rotation (once per correction step).
    @inlinable @inline(__always)
    mutating func normalizeStrapdown() {
        strapdown = strapdown.normalizedFast()
    }

    /// Turns the inclination, by the whole remaining angle, so that `filtered` (the low-pass specific
    /// force in I) points up (+z) in E6. Returns `(u_y, −u_x)`, the horizontal correction (its
    /// components about x and y, for small angles the angle), or nil when `filtered` has no direction.
    @inlinable @inline(__always)
    mutating func correctInclination(toward filtered: SIMD3<Scalar>) -> SIMD2<Scalar>? {
        guard let up = VectorCheck.readingDirection(inclination.act(on: filtered)) else { return nil }
        // The rotation taking `up` to +z: axis (u_y, −u_x, 0), angle acos(u_z).
        let w2 = (1 + up.z) / 2
        let correction: Quaternion<Scalar>
        if w2 > 1e-12 {
            let w = w2.squareRoot()
            let s = 1 / (2 * w)
            correction = Quaternion(w: w, x: up.y * s, y: -up.x * s, z: 0)
        } else {
            correction = Quaternion(w: 0, x: 1, y: 0, z: 0)  // exactly upside down
        }
        inclination = (correction * inclination).normalizedFast()
        return SIMD2(up.y, -up.x)
    }

    /// The angle about +z that takes the horizontal part of the unit field direction `e` (in E6)
    /// to north (+x) after the current heading rotation; nil when the field is vertical.
    @inlinable @inline(__always)
    func headingDisagreement(fieldDirection e: SIMD3<Scalar>) -> Scalar? {
        let cosine = heading.w * heading.w - heading.z * heading.z
        let sine = 2 * heading.w * heading.z  // (cos δ, sin δ) of the current heading rotation
        let fx = cosine * e.x - sine * e.y
        let fy = sine * e.x + cosine * e.y
        guard fx * fx + fy * fy > Scalar.ulpOfOne else { return nil }  // field vertical
        return -Scalar.atan2(y: fy, x: fx)
    }

    /// Turns the heading by `angle` (rad) about +z (nothing for 0); the heading stays a unit
    /// rotation about z.
    @inlinable @inline(__always)
    mutating func rotateHeading(by angle: Scalar) {
        guard angle != 0 else { return }
        let half = angle / 2
        let c: Scalar
        let s: Scalar
        if abs(half) < 0.05 {
            let h2: Scalar = half * half
            let h4: Scalar = h2 * h2
            let c2: Scalar = h2 / 2, c4: Scalar = h4 / 24
            let s2: Scalar = h2 / 6, s4: Scalar = h4 / 120
            c = 1 - c2 + c4
            s = half * (1 - s2 + s4)
        } else {
            c = .cos(half)
            s = .sin(half)
        }
        let hw: Scalar = heading.w, hz: Scalar = heading.z
        let w: Scalar = c * hw - s * hz
        let z: Scalar = s * hw + c * hz
        let n: Scalar = 1 / (w * w + z * z).squareRoot()
        heading = Quaternion(w: w * n, x: 0, y: 0, z: z * n)
    }

    /// `exp` of a pure quaternion with vector part `v` (a half rotation vector): `(cos|v|, sin|v| v̂)`,
    /// by its Taylor series for the small angles of one sample and by `cos`/`sin` beyond.
    @inlinable @inline(__always)
    static func exponential(halfRotation v: SIMD3<Scalar>) -> Quaternion<Scalar> {
        let t2 = (v * v).sum()
        if t2 < 0.0625 {  // |v| < 0.25 rad: series error below 1e-9 (and below Float's ulp)
            // Multiplications by the reciprocals, not divisions: a division is 14 cycles on a
            // Cortex-M4F and several times a multiplication's cost on any processor.
            let c2: Scalar = 1 - t2 * (1 / 30 as Scalar)
            let c1: Scalar = 1 - (t2 * (1 / 12 as Scalar)) * c2
            let c: Scalar = 1 - (t2 * 0.5) * c1
            let s2: Scalar = 1 - t2 * (1 / 42 as Scalar)
            let s1: Scalar = 1 - (t2 * (1 / 20 as Scalar)) * s2
            let s: Scalar = 1 - (t2 * (1 / 6 as Scalar)) * s1
            return Quaternion(w: c, x: v.x * s, y: v.y * s, z: v.z * s)
        }
        let t = t2.squareRoot()
        let s = Scalar.sin(t) / t
        return Quaternion(w: .cos(t), x: v.x * s, y: v.y * s, z: v.z * s)
    }
}

extension Quaternion {
    /// Normalization for a quaternion already within rounding of unit length: one reciprocal square
    /// root, falling back to ``normalized()`` for anything unusual.
    @inlinable @inline(__always)
    func normalizedFast() -> Quaternion {
        let n2 = lengthSquared
        if n2 > 0.25 && n2 < 4 { return Quaternion(components: components * (1 / n2.squareRoot())) }
        return normalized()
    }
}
