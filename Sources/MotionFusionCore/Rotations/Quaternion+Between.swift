import RealModule

extension Quaternion {
    /// The shortest-arc rotation that turns the direction of `from` into the direction of `to`:
    /// `q.act(on: from / |from|) == to / |to|`.
    ///
    /// The vectors need not be unit length. The angle comes from `atan2(|a × b|, a · b)` and the axis
    /// from `a × b` (made exactly perpendicular to `a` again, which matters for nearly opposite vectors,
    /// where the cross product is mostly rounding). When the
    /// vectors are exactly opposite, every axis perpendicular to them is shortest; the rotation is
    /// then 180° about the axis perpendicular to `from` built from the coordinate axis least
    /// aligned with it.
    ///
    /// Any finite, non-zero lengths work, huge or tiny (the vectors are rescaled before squaring).
    ///
    /// - Throws: ``RotationError/zeroLengthVector`` if either vector has zero length,
    ///   ``RotationError/nonFiniteInput`` if either has a NaN or infinite component.
    @inlinable
    public static func rotation(
        from: SIMD3<Scalar>, to: SIMD3<Scalar>
    ) throws(RotationError) -> Quaternion {
        guard VectorCheck.isFinite(from), VectorCheck.isFinite(to) else { throw .nonFiniteInput }
        guard let a = VectorCheck.direction(from), let b = VectorCheck.direction(to) else {
            throw .zeroLengthVector
        }
        let cross = a.cross(b)
        let cosine = a.dot(b)
        if cross != .zero {
            // a × b is perpendicular to a in exact arithmetic; for nearly opposite vectors its rounding
            // error is as large as itself, so project the rounding out again.
            let axis = cross - a * a.dot(cross)
            // Scaled lengths: for nearly opposite vectors the cross product can be so small that its
            // squared length is subnormal (in Float from about 1e-19), where a plain sum of squares
            // loses its precision and the quaternion its unit length (found by fuzzing).
            // The axis is normalized on its own (sin(half)/|axis| can overflow when |axis| is
            // subnormal, which gave NaN; also found by fuzzing).
            if let unitAxis = VectorCheck.direction(axis) {
                let half = Scalar.atan2(y: VectorCheck.length(cross), x: cosine) / 2
                return Quaternion(real: Scalar.cos(half), imaginary: unitAxis * Scalar.sin(half))
            }
        }
        if cosine > 0 { return .identity }
        // Exactly opposite: 180° about an axis perpendicular to `a`.
        let m = SIMD3(abs(a.x), abs(a.y), abs(a.z))
        let helper: SIMD3<Scalar> =
            m.x <= m.y && m.x <= m.z ? SIMD3(1, 0, 0) : (m.y <= m.z ? SIMD3(0, 1, 0) : SIMD3(0, 0, 1))
        let axis = a.cross(helper)
        return Quaternion(real: 0, imaginary: axis / axis.length)
    }
}
