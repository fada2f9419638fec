import MotionFusionCore
import RealModule

/// Fits an ellipsoid to 3-D points: the magnetometer's hard- and soft-iron calibration.
///
/// 1. The points are centred on their mean and scaled to unit RMS (for conditioning).
/// 2. The general quadric `xᵀAx + bᵀx + c = 0` (A symmetric: 10 coefficients) is fitted by
///    algebraic least squares: the right singular vector of the N × 10 design matrix with the smallest
///    singular value (LAPACK `dgesvd`).
/// 3. The centre is `−½ A⁻¹ b`; the shape matrix `Q = A / k` with `k = centreᵀ A centre − c` must be
///    positive definite (else the points are not on an ellipsoid).
/// 4. `Q = V Λ Vᵀ` (LAPACK `dsyev`); the soft-iron matrix is the symmetric `S = R · V Λ^½ Vᵀ`, so that
///    `|S (u − h)| = R` on the fitted ellipsoid, with `R` the given field strength or, without one,
///    the fitted radius `(λ₁λ₂λ₃)^(−1/6)` (the radius of the sphere of equal volume).
public enum EllipsoidFit {
    /// Which distortion model to fit.
    public enum Model: String, Sendable, Hashable, Codable, CaseIterable {
        /// Hard iron and a full symmetric soft-iron matrix (9 parameters): needs samples over a good
        /// part of the sphere of directions.
        case ellipsoid
        /// Hard iron only (a sphere: centre and radius), soft iron a scale to the field strength:
        /// needs less coverage. Refused when the directions cover too little (their scatter) or the
        /// fitted radius is outside 15–80 µT (the earth's field is 22–67 µT): input in µT.
        case sphere
        /// ``ellipsoid`` when the samples determine it, otherwise ``sphere``.
        case automatic
    }

    /// Fits a magnetometer calibration with a choice of model; see
    /// ``magnetometer(_:fieldStrength:)`` for the ellipsoid and ``Model`` for the others. Returns the
    /// calibration and the model used.
    ///
    /// - Throws: as ``magnetometer(_:fieldStrength:)`` (first of all
    ///   ``CalibrationError/invalidFieldStrength(_:)``, whatever the model); with ``Model/sphere``
    ///   (or ``Model/automatic`` falling back to it) ``CalibrationError/underdetermined(reason:)``
    ///   when even a sphere is not determined (samples in one plane: on a circle, a line or a few
    ///   points).
    public static func magnetometer(
        _ samples: [SIMD3<Double>], fieldStrength: Double? = nil, model: Model
    ) throws(CalibrationError) -> (calibration: MagnetometerCalibration, model: Model) {
        // Before the fits, so that the automatic model's fallback cannot pass a bad one on.
        try checkFieldStrength(fieldStrength)
        switch model {
        case .ellipsoid:
            return (try magnetometer(samples, fieldStrength: fieldStrength), .ellipsoid)
        case .sphere:
            return (try sphere(samples, fieldStrength: fieldStrength), .sphere)
        case .automatic:
            do {
                return (try magnetometer(samples, fieldStrength: fieldStrength), .ellipsoid)
            } catch .underdetermined {
                return (try sphere(samples, fieldStrength: fieldStrength), .sphere)
            }
        }
    }

    /// The smallest eigenvalue of the samples' direction scatter (1/3 for a full cover of the sphere)
    /// below which the sphere fit refuses: 0.05, about what rotating through ±40° about two axes gives.
    public static let minimumSphereCoverage = 0.05

    /// Throws ``CalibrationError/invalidFieldStrength(_:)`` unless the field strength is nil or a
    /// finite number of µT greater than 0 (0 would scale the soft iron to zero, −49 to −I).
    static func checkFieldStrength(_ fieldStrength: Double?) throws(CalibrationError) {
        if let fieldStrength, !(fieldStrength.isFinite && fieldStrength > 0) {
            throw .invalidFieldStrength(fieldStrength)
        }
    }

    /// The sphere fit: `|u − h|² = r²` is linear in `h` and `r² − |h|²` (least squares by LAPACK
    /// `dgelsd`); the soft-iron matrix scales the radius to `fieldStrength` (or is the identity).
    static func sphere(_ samples: [SIMD3<Double>], fieldStrength: Double?) throws(CalibrationError)
        -> MagnetometerCalibration
    {
        try checkFieldStrength(fieldStrength)
        guard samples.count >= 4 else { throw .tooFewSamples(needed: 4, found: samples.count) }
        for (index, s) in samples.enumerated() where !VectorCheck.isFinite(s) {
            throw .nonFiniteSample(index: index)
        }
        let mean = samples.reduce(SIMD3<Double>.zero, +) / Double(samples.count)
        let spread = (samples.map { (($0 - mean) * ($0 - mean)).sum() }.reduce(0, +) / Double(samples.count)).squareRoot()
        guard spread > 0 else { throw .underdetermined(reason: "all samples are the same point") }
        let points = samples.map { ($0 - mean) / spread }
        let n = points.count
        var design = [Double](repeating: 0, count: n * 4)
        var rhs = [Double](repeating: 0, count: n)
        for (i, p) in points.enumerated() {
            design[i] = 2 * p.x
            design[n + i] = 2 * p.y
            design[2 * n + i] = 2 * p.z
            design[3 * n + i] = 1
            rhs[i] = (p * p).sum()
        }
        let fit: (solution: [Double], singularValues: [Double], rank: Int)
        do throws(EstimationError) {
            fit = try LAPACK.leastSquares(design, rows: n, columns: 4, rightHandSides: rhs)
        } catch {
            throw .estimation(error)
        }
        guard fit.singularValues[3] > 0.05 * fit.singularValues[0] else {
            throw .underdetermined(
                reason: "even a sphere is not determined: the samples lie in one plane (on a circle, a line or a few "
                    + "points: a rotation about a single axis, or too few distinct readings); turn the device about "
                    + "more than one axis")
        }
        let centre = SIMD3(fit.solution[0], fit.solution[1], fit.solution[2])
        let r2 = fit.solution[3] + (centre * centre).sum()
        guard r2 > 0 else { throw .notAnEllipsoid }
        // Coverage: the directions from the centre must spread over the sphere; with a small cap a
        // smaller sphere fits as well as the true one. The smallest eigenvalue of their scatter matrix
        // is 1/3 for a full cover and near 0 for a cap or a circle.
        var scatter = [Double](repeating: 0, count: 9)
        for p in points {
            let d = p - centre
            let u = d / max(d.length, .leastNormalMagnitude)
            for i in 0..<3 { for j in 0..<3 { scatter[j * 3 + i] += u[i] * u[j] / Double(n) } }
        }
        let smallest: Double
        do throws(EstimationError) {
            smallest = try LAPACK.symmetricEigen(scatter, order: 3).values[0]
        } catch {
            throw .estimation(error)
        }
        guard smallest >= Self.minimumSphereCoverage else {
            throw .underdetermined(
                reason: "the sensor turned through too few directions for even a sphere fit "
                    + "(direction scatter \((smallest * 1000).rounded() / 1000), at least \(Self.minimumSphereCoverage) is needed)")
        }
        let radius = r2.squareRoot() * spread
        // The earth's field is 22–67 µT everywhere at the surface: a sphere far outside that range
        // means a small cap of directions was fitted by a wrong sphere.
        guard (15...80).contains(radius) else {
            throw .underdetermined(
                reason: "the sensor turned through too few directions: the best sphere has a radius of "
                    + "\((radius * 10).rounded() / 10) µT, outside the earth's field (15–80 µT)")
        }
        let target = fieldStrength ?? radius
        let k = target / radius
        var calibration = MagnetometerCalibration(
            hardIron: mean + centre * spread,
            softIron: RotationMatrix(columns: SIMD3(k, 0, 0), SIMD3(0, k, 0), SIMD3(0, 0, k)),
            fieldStrength: target, residual: 0)
        let squares = samples.map { sample -> Double in
            let r = calibration.apply(sample).length - target
            return r * r
        }
        calibration.residual = (squares.reduce(0, +) / Double(samples.count)).squareRoot()
        if let (_, reason) = calibration.invalidField() { throw .outOfRange(reason: reason) }
        return calibration
    }

    /// Fits a magnetometer calibration (µT in, µT out).
    ///
    /// - Parameters:
    ///   - samples: raw magnetometer readings; they should cover as much of the sphere of directions as
    ///     possible (a partial cover works if it is not nearly planar).
    ///   - fieldStrength: the local field magnitude in µT (from the World Magnetic Model at the
    ///     user's location), or nil to use the fitted radius.
    /// - Throws: ``CalibrationError/invalidFieldStrength(_:)`` when `fieldStrength` is not a finite
    ///   number greater than 0; ``CalibrationError/tooFewSamples(needed:found:)`` below 10 samples;
    ///   ``CalibrationError/nonFiniteSample(index:)``; ``CalibrationError/underdetermined(reason:)``
    ///   when the points lie on a plane or a line, or cover too little of the ellipsoid for a
    ///   unique fit (the two smallest singular values of the design matrix within a factor
    ///   of 100 of each other relative to the spread); ``CalibrationError/notAnEllipsoid`` when the
    ///   best quadric is not an ellipsoid; ``CalibrationError/outOfRange(reason:)`` when the fit is
    ///   outside the ranges a calibration file accepts (see ``MagnetometerCalibration``).
    public static func magnetometer(
        _ samples: [SIMD3<Double>], fieldStrength: Double? = nil
    ) throws(CalibrationError) -> MagnetometerCalibration {
        try checkFieldStrength(fieldStrength)
        guard samples.count >= 10 else { throw .tooFewSamples(needed: 10, found: samples.count) }
        for (index, s) in samples.enumerated() where !VectorCheck.isFinite(s) {
            throw .nonFiniteSample(index: index)
        }
        // 1. Normalize.
        let mean = samples.reduce(SIMD3<Double>.zero, +) / Double(samples.count)
        let spread = (samples.map { (($0 - mean) * ($0 - mean)).sum() }.reduce(0, +) / Double(samples.count)).squareRoot()
        guard spread > 0 else { throw .underdetermined(reason: "all samples are the same point") }
        let points = samples.map { ($0 - mean) / spread }

        // 2. Design matrix rows: x², y², z², 2xy, 2xz, 2yz, x, y, z, 1 (column-major N × 10).
        let n = points.count
        var design = [Double](repeating: 0, count: n * 10)
        for (i, p) in points.enumerated() {
            let row: [Double] = [p.x * p.x, p.y * p.y, p.z * p.z, 2 * p.x * p.y, 2 * p.x * p.z, 2 * p.y * p.z, p.x, p.y, p.z, 1]
            for j in 0..<10 { design[j * n + i] = row[j] }
        }
        let svd: (u: [Double], singularValues: [Double], vt: [Double])
        do throws(EstimationError) {
            svd = try LAPACK.singularValueDecomposition(design, rows: n, columns: 10, computeU: false)
        } catch {
            throw .estimation(error)
        }
        let s = svd.singularValues
        // A second (near-)null direction means the quadric is not unique: planar or too little cover.
        guard s[8] > 1e-6 * s[0], s[8] > 4 * s[9] else {
            let ratio = s[9] > 0 ? s[8] / s[9] : .infinity
            throw .underdetermined(
                reason: "the samples lie on a plane or cover too little of the sphere of directions "
                    + "(the two smallest singular values of the quadric fit differ by a factor of "
                    + "\((ratio * 10).rounded() / 10), at least 4 is needed)")
        }
        // The last row of Vᵀ (column-major 10 × 10) is the smallest singular vector.
        let v = (0..<10).map { svd.vt[$0 * 10 + 9] }
        let a = RotationMatrix<Double>(
            rows: SIMD3(v[0], v[3], v[4]), SIMD3(v[3], v[1], v[5]), SIMD3(v[4], v[5], v[2]))
        let b = SIMD3(v[6], v[7], v[8])

        // 3. Centre and shape.
        guard let aInverse = a.inverted() else { throw .notAnEllipsoid }
        let centre = aInverse * b * -0.5
        let k = centre.dot(a * centre) - v[9]
        guard k != 0, k.isFinite else { throw .notAnEllipsoid }
        let q = [a.column0 / k, a.column1 / k, a.column2 / k]
        let qColumnMajor = [q[0].x, q[0].y, q[0].z, q[1].x, q[1].y, q[1].z, q[2].x, q[2].y, q[2].z]

        // 4. Eigen decomposition: Q must be positive definite.
        let eigen: (values: [Double], vectors: [Double])
        do throws(EstimationError) {
            eigen = try LAPACK.symmetricEigen(qColumnMajor, order: 3)
        } catch {
            throw .estimation(error)
        }
        guard eigen.values.allSatisfy({ $0 > 0 && $0.isFinite }) else { throw .notAnEllipsoid }
        // Back to µT: Q in normalized units becomes Q / spread².
        let lambdas = eigen.values.map { $0 / (spread * spread) }
        let radius = fieldStrength ?? Double.pow(lambdas[0] * lambdas[1] * lambdas[2], -1.0 / 6)
        let vectors = (0..<3).map { SIMD3(eigen.vectors[$0 * 3], eigen.vectors[$0 * 3 + 1], eigen.vectors[$0 * 3 + 2]) }
        var softIron = RotationMatrix<Double>(columns: .zero, .zero, .zero)
        for i in 0..<3 {
            let scale = radius * lambdas[i].squareRoot()
            let e = vectors[i]
            softIron.column0 += e * (e.x * scale)
            softIron.column1 += e * (e.y * scale)
            softIron.column2 += e * (e.z * scale)
        }
        let hardIron = mean + centre * spread
        var calibration = MagnetometerCalibration(
            hardIron: hardIron, softIron: softIron, fieldStrength: radius, residual: 0)
        let squares = samples.map { sample -> Double in
            let r = calibration.apply(sample).length - radius
            return r * r
        }
        calibration.residual = (squares.reduce(0, +) / Double(samples.count)).squareRoot()
        if let (_, reason) = calibration.invalidField() { throw .outOfRange(reason: reason) }
        return calibration
    }
}

extension RotationMatrix where Scalar == Double {
    /// The inverse of a general 3 × 3 matrix by cofactors, or nil when it is singular.
    func inverted() -> RotationMatrix<Double>? {
        let c0 = column1.cross(column2)
        let c1 = column2.cross(column0)
        let c2 = column0.cross(column1)
        let det = column0.dot(c0)
        guard det != 0, det.isFinite else { return nil }
        // The rows of the inverse are the cofactor columns divided by the determinant.
        return RotationMatrix(rows: c0 / det, c1 / det, c2 / det)
    }
}
