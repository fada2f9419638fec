import RealModule

/// The fits of ``OnlineMagnetometerCalibrator``: a sphere (hard iron) or an ellipsoid (hard and
/// soft iron) through a small set of field samples, by linear least squares on normal equations
/// solved by ``CholeskySolver`` — plain Swift in `Double`, no LAPACK, no allocation (the points
/// live in the caller's buffer). The points are centred on their mean (or the sphere's centre) and
/// scaled to unit size first: a raw phone magnetometer's 3,400 µT offset would otherwise leave the
/// normal equations with nothing but rounding.
///
/// The ellipsoid's soft-iron matrix is symmetric with determinant 1 (`S = Q^½ / det(Q)^(1/6)` for
/// the ellipsoid `(u − h)ᵀ Q (u − h) = 1`), so that it changes the field's shape, not its volume:
/// the field strength `R` is the radius of the sphere of the ellipsoid's volume. A scale common to
/// the three axes is not observable from the shape of the field alone.
@usableFromInline
enum MagneticFieldFit {
    /// The sphere `|u − h| = r` by the algebraic fit `|y|² = 2 c·y + k` (Kåsa) on the points
    /// centred on their mean and scaled to unit RMS distance: nil for fewer than 4 points, points in
    /// one plane or on a line (a singular system), or a radius that is not a positive finite number.
    static func sphere(_ points: UnsafeBufferPointer<SIMD3<Double>>) -> MagnetometerCalibration? {
        let n = points.count
        guard n >= 4 else { return nil }
        let (mean, scale) = centring(points)
        var a = (SIMD16<Double>(), SIMD4<Double>())
        return withUnsafeMutableBytes(of: &a) { raw -> MagnetometerCalibration? in
            let m = raw.baseAddress!.assumingMemoryBound(to: Double.self)
            let rhs = m + 16
            for p in points {
                let y = (p - mean) * scale
                let phi = SIMD4(2 * y.x, 2 * y.y, 2 * y.z, 1)
                let t = (y * y).sum()
                for i in 0..<4 {
                    for j in 0...i { m[i * 4 + j] += phi[i] * phi[j] }
                    rhs[i] += phi[i] * t
                }
            }
            guard CholeskySolver.solve(m, rhs, n: 4) else { return nil }
            let c = SIMD3(rhs[0], rhs[1], rhs[2])
            let r2 = rhs[3] + (c * c).sum()
            guard r2 > 0, r2.isFinite else { return nil }
            return MagnetometerCalibration(
                hardIron: mean + c / scale, softIron: .identity, fieldStrength: r2.squareRoot() / scale)
        }
    }

    /// The ellipsoid `zᵀ A z + 2 gᵀ z = 1` for `z = (u − h₀) / r₀` (9 coefficients, least squares),
    /// with `h₀` and `r₀` from a sphere fit of the same points: nil for fewer than 9 points, a
    /// singular system, or a quadric that is not an ellipsoid (A not positive definite).
    static func ellipsoid(
        _ points: UnsafeBufferPointer<SIMD3<Double>>, around sphere: MagnetometerCalibration
    ) -> MagnetometerCalibration? {
        guard points.count >= 9, sphere.fieldStrength > 0 else { return nil }
        let centre = sphere.hardIron
        let scale = 1 / sphere.fieldStrength
        // 81 + 9 doubles on the stack.
        var storage = (SIMD64<Double>(), SIMD32<Double>())
        let solved: (SIMD8<Double>, Double)? = withUnsafeMutableBytes(of: &storage) { raw in
            let m = raw.baseAddress!.assumingMemoryBound(to: Double.self)
            let rhs = m + 81
            for p in points {
                let z = (p - centre) * scale
                let phi: (SIMD8<Double>, Double) = (
                    SIMD8(z.x * z.x, z.y * z.y, z.z * z.z, 2 * z.x * z.y, 2 * z.x * z.z, 2 * z.y * z.z, 2 * z.x, 2 * z.y),
                    2 * z.z)
                for i in 0..<9 {
                    let pi = i < 8 ? phi.0[i] : phi.1
                    for j in 0...i { m[i * 9 + j] += pi * (j < 8 ? phi.0[j] : phi.1) }
                    rhs[i] += pi
                }
            }
            guard CholeskySolver.solve(m, rhs, n: 9) else { return nil }
            return (SIMD8(rhs[0], rhs[1], rhs[2], rhs[3], rhs[4], rhs[5], rhs[6], rhs[7]), rhs[8])
        }
        guard let (x, gz) = solved else { return nil }
        let a = Matrix3<Double>(
            rows: SIMD3(x[0], x[3], x[4]), SIMD3(x[3], x[1], x[5]), SIMD3(x[4], x[5], x[2]))
        let g = SIMD3(x[6], x[7], gz)
        guard let inverse = a.inverse else { return nil }
        let c = -(inverse.c0 * g.x + inverse.c1 * g.y + inverse.c2 * g.z)
        let k = 1 - (g * c).sum()  // 1 + gᵀA⁻¹g
        guard k > 0, k.isFinite else { return nil }
        let q = RotationMatrix<Double>(
            columns: a.c0 / k, a.c1 / k, a.c2 / k)
        guard let svd = SingularValueDecomposition3(q) else { return nil }
        let v = svd.right
        // Positive definite: each singular vector is an eigenvector with a positive eigenvalue.
        guard (v.0 * (q * v.0)).sum() > 0, (v.1 * (q * v.1)).sum() > 0, (v.2 * (q * v.2)).sum() > 0 else {
            return nil
        }
        let lambda = svd.values
        let volume = (lambda.x * lambda.y * lambda.z)
        guard volume > 0, volume.isFinite else { return nil }
        let normalizer = Double.pow(volume, -1.0 / 6)
        let roots = lambda.squareRoot() * normalizer
        // S = V diag(√λ) Vᵀ / det^(1/6): symmetric, determinant 1.
        func outer(_ e: SIMD3<Double>, _ s: Double) -> RotationMatrix<Double> {
            RotationMatrix(columns: e * (e.x * s), e * (e.y * s), e * (e.z * s))
        }
        let s0 = outer(v.0, roots.x), s1 = outer(v.1, roots.y), s2 = outer(v.2, roots.z)
        let soft = RotationMatrix<Double>(
            columns: s0.column0 + s1.column0 + s2.column0, s0.column1 + s1.column1 + s2.column1,
            s0.column2 + s1.column2 + s2.column2)
        return MagnetometerCalibration(
            hardIron: centre + c / scale, softIron: soft, fieldStrength: normalizer / scale)
    }

    /// The RMS of `|S (u − h)| − R` over the points, µT; with `parameters` fitted to these points,
    /// the sum of squares is divided by `n − parameters` instead of `n` (an unbiased estimate of
    /// the noise, so that fits with more parameters do not win by fitting it).
    static func residual(
        of calibration: MagnetometerCalibration, _ points: UnsafeBufferPointer<SIMD3<Double>>, parameters: Int = 0
    ) -> Double {
        guard points.count > parameters else { return .infinity }
        var sum = 0.0
        for p in points {
            let e = surfaceError(of: calibration, p)
            sum += e * e
        }
        return (sum / Double(points.count - parameters)).squareRoot()
    }

    /// `|S (u − h)| − R`: how far a point is off the calibration's surface, µT.
    static func surfaceError(of calibration: MagnetometerCalibration, _ p: SIMD3<Double>) -> Double {
        VectorCheck.length(calibration.softIron * (p - calibration.hardIron)) - calibration.fieldStrength
    }

    /// How well the points' directions seen from `centre` cover the sphere: the smallest
    /// eigenvalue of their scatter `mean(d dᵀ)` (1/3 for an even cover of the whole sphere, about
    /// 0.06 for a band ±25° wide around a great circle, 0 for a circle or a point).
    static func coverage(around centre: SIMD3<Double>, _ points: UnsafeBufferPointer<SIMD3<Double>>) -> Double {
        let s = directionScatter(points) { $0 - centre }
        let n = s.count
        guard n > 0, let svd = SingularValueDecomposition3(RotationMatrix(columns: s.c0 / n, s.c1 / n, s.c2 / n)) else {
            return 0
        }
        return svd.values.z
    }

    /// The hard iron's standard error along its worst-determined direction, µT, for a fit with
    /// residual `sigma` (µT): `σ / √λ`, λ the smallest eigenvalue of `Σ (d − d̄)(d − d̄)ᵀ` over the
    /// calibrated directions `d = S (u − h) / |S (u − h)|`. For a sphere this is exact to first
    /// order: the information of (h, R) is `Σ [d dᵀ, d; dᵀ, 1]`, whose inverse's h block is that
    /// matrix's inverse (the Schur complement of the strength removes the mean direction). Unlike
    /// ``coverage(around:_:)``, it knows that directions bunched in a cap leave the hard iron along
    /// the cap's axis and the field strength confused; for an ellipsoid it leaves out the
    /// soft iron's share of the uncertainty. Infinite when the directions lie in a plane.
    static func hardIronUncertainty(
        of calibration: MagnetometerCalibration, _ points: UnsafeBufferPointer<SIMD3<Double>>, residual sigma: Double
    ) -> Double {
        let s = directionScatter(points) { calibration.softIron * ($0 - calibration.hardIron) }
        guard s.count > 3 else { return .infinity }
        let mean = s.sum / s.count
        // Σ (d − d̄)(d − d̄)ᵀ = Σ d dᵀ − n d̄ d̄ᵀ
        let c0 = s.c0 - s.sum * mean.x, c1 = s.c1 - s.sum * mean.y, c2 = s.c2 - s.sum * mean.z
        guard let svd = SingularValueDecomposition3(RotationMatrix(columns: c0, c1, c2)), svd.values.z > 0 else {
            return .infinity
        }
        return sigma / svd.values.z.squareRoot()
    }

    /// `Σ d`, the columns of `Σ d dᵀ` and the count, over the unit directions `d` of
    /// `vector(p)` for the points whose vector has one (not zero, subnormal or non-finite): the
    /// scatter both ``coverage(around:_:)`` and ``hardIronUncertainty(of:_:residual:)`` measure.
    static func directionScatter(
        _ points: UnsafeBufferPointer<SIMD3<Double>>, _ vector: (SIMD3<Double>) -> SIMD3<Double>
    ) -> (sum: SIMD3<Double>, c0: SIMD3<Double>, c1: SIMD3<Double>, c2: SIMD3<Double>, count: Double) {
        var sum = SIMD3<Double>.zero
        var c0 = SIMD3<Double>.zero, c1 = SIMD3<Double>.zero, c2 = SIMD3<Double>.zero
        var n = 0.0
        for p in points {
            guard let d = VectorCheck.readingDirection(vector(p)) else { continue }
            sum += d
            c0 += d * d.x
            c1 += d * d.y
            c2 += d * d.z
            n += 1
        }
        return (sum, c0, c1, c2, n)
    }

    /// The mean of the points and the inverse of their RMS distance from it (1 when they coincide).
    static func centring(_ points: UnsafeBufferPointer<SIMD3<Double>>) -> (SIMD3<Double>, Double) {
        var mean = SIMD3<Double>.zero
        for p in points { mean += p }
        mean /= Double(points.count)
        var spread = 0.0
        for p in points { spread += ((p - mean) * (p - mean)).sum() }
        spread = (spread / Double(points.count)).squareRoot()
        return (mean, spread > 0 && spread.isFinite ? 1 / spread : 1)
    }
}
