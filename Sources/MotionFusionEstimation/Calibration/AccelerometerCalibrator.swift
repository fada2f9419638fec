import MotionFusionCore
/// Accelerometer calibration from a recording in which the sensor rests in six or more different
/// orientations: bias, sensitivity and (with nine or more orientations) misalignment.
///
/// ## Model and what it can determine
///
/// The result is an ``InertialCalibration`` `c = M · s ⊙ (u − b)`, that is `c = K (u − b)` with
/// `K = M · diag(s)`. At rest the only thing known about the calibrated reading is its length,
/// `|c| = g`, so `K` is determined only up to a rotation (`R K` fits exactly as well for every
/// rotation `R`). The calibrator removes that freedom by taking `K` **upper triangular** with a
/// positive diagonal: the calibrated z axis is the sensor's z sensing axis, the calibrated y axis
/// lies in the plane of the sensor's y and z sensing axes, and x completes a right-handed frame.
/// Then `s = diag(K)` and `M = K · diag(s)⁻¹` (upper triangular with a unit diagonal). The sensor's
/// axes are assumed to have the right polarity (positive sensitivities).
///
/// - **Full model** (``Model/full``): 6 entries of `K` + 3 of `b` = 9 unknowns; it needs
///   at least 9 well-spread static orientations (not only the six "faces": the misalignment terms
///   need orientations with two or three axes sensing gravity at once).
/// - **Bias and sensitivity** (``Model/biasAndSensitivity``): `K` diagonal, `M` = identity,
///   6 unknowns; at least 6 orientations, for example the six faces of a box.
/// - ``Model/automatic`` (the default) uses the full model when there are at least 9
///   static segments and they determine it (condition number within
///   ``Settings/maximumConditionNumber``), otherwise bias and sensitivity; the result
///   says which (``Result/estimatesMisalignment``, ``Result/note``).
///
/// ## Procedure
///
/// 1. The static segments are found by a ``StaticSegmentDetector``; each contributes its mean
///    reading `u_k`. Segments should be in different orientations; repeated orientations add
///    little.
/// 2. A linear least-squares fit (LAPACK `dgelsd`) of the quadric `(u − b)ᵀ Q (u − b) = g²`, written
///    as `uᵀAu − 2wᵀu = 1`, linear in the entries of `A` and `w` (readings scaled by `1/g`). Its
///    singular values decide whether the orientations determine the model. Then `b = A⁻¹w`,
///    `Q = A / (1 + bᵀAb)` (positive definite, checked by LAPACK `dsyev`), and `K` is the Cholesky
///    factor `Q = KᵀK`.
/// 3. Gauss–Newton refinement of the geometric residuals `r_k = |K (u_k − b)| − g` over the 9 (or
///    6) unknowns, each step a LAPACK least-squares solve, with step halving when a step does not
///    reduce the sum of squares. Every segment counts once, whatever its length.
///
/// The reported residual is the RMS of `|c_k| − g` over the segments, in the input's unit.
///
/// ## Errors
///
/// - ``CalibrationError/tooFewSamples(needed:found:)`` — fewer than 6 static segments (9 for the
///   full model when forced).
/// - ``CalibrationError/underdetermined(reason:)`` — the orientations do not cover enough directions
///   (for example all near one axis): the condition number of the linear fit exceeds
///   ``Settings/maximumConditionNumber`` or its rank is short; or invalid gravity.
/// - ``CalibrationError/notAnEllipsoid`` — the readings do not lie on an ellipsoid (not static, or
///   not an accelerometer).
/// - ``CalibrationError/nonFiniteSample(index:)`` — a static reading given to
///   ``calibrate(staticReadings:gravity:settings:)`` is not finite. From a recording, non-finite
///   samples are skipped by the detector instead (see ``StaticSegmentDetector``).
/// - ``CalibrationError/didNotConverge(iterations:)`` — Gauss–Newton did not settle.
/// - ``CalibrationError/outOfRange(reason:)`` — the result is outside the ranges a calibration
///   file accepts (see ``InertialCalibration``; the bias compared in units of gravity as m/s²).
public enum AccelerometerCalibrator {
    /// Which unknowns to estimate.
    public enum Model: String, Sendable, Hashable, Codable, CaseIterable {
        /// The full model when the static orientations determine it (at least 9, well spread),
        /// otherwise bias and sensitivity.
        case automatic
        /// Bias, sensitivity and misalignment (`K` upper triangular): 9 unknowns.
        case full
        /// Bias and sensitivity, misalignment = identity: 6 unknowns.
        case biasAndSensitivity
    }

    /// What the calibration is fitted to and how.
    public struct Settings: Sendable, Hashable, Codable {
        /// The magnitude of gravity at the place of the recording, m/s² (converted to the input's
        /// unit). Default 9.80665 m/s², standard gravity.
        public var gravity: Double
        /// The unknowns to estimate. Default ``Model/automatic``.
        public var model: Model
        /// Finds the static segments; its thresholds are in m/s² and rad/s whatever the input's unit.
        public var detector: StaticSegmentDetector
        /// The largest condition number (largest / smallest singular value) of the linear fit for
        /// which the orientations count as determining the model. Default 1000.
        public var maximumConditionNumber: Double
        /// The most Gauss–Newton iterations. Default 100.
        public var maximumIterations: Int

        /// Settings; every default is stated on its property.
        public init(
            gravity: Double = 9.80665, model: Model = .automatic,
            detector: StaticSegmentDetector = StaticSegmentDetector(), maximumConditionNumber: Double = 1000,
            maximumIterations: Int = 100
        ) {
            self.gravity = gravity
            self.model = model
            self.detector = detector
            self.maximumConditionNumber = maximumConditionNumber
            self.maximumIterations = maximumIterations
        }
    }

    /// A calibration with the diagnostics of its fit.
    public struct Result: Sendable, Hashable {
        /// The calibration, in the input's unit (its ``InertialCalibration/residual`` is
        /// ``residual``).
        public var calibration: InertialCalibration
        /// The model that was fitted: ``Model/full`` or
        /// ``Model/biasAndSensitivity`` (never `automatic`).
        public var model: Model
        /// The static segments the fit used (empty when static readings were given directly).
        public var segments: [StaticSegment]
        /// The static readings the fit used (the segments' mean accelerometer readings).
        public var staticReadings: [SIMD3<Double>]
        /// The gravity magnitude the calibrated readings are fitted to, in the input's unit.
        public var gravity: Double
        /// The RMS of `|c_k| − gravity` over the static readings, in the input's unit.
        public var residual: Double
        /// The singular values of the linear fit's design matrix (readings scaled to `|u| ≈ 1`), in
        /// descending order.
        public var singularValues: [Double]
        /// Largest over smallest singular value of the linear fit.
        public var conditionNumber: Double
        /// The Gauss–Newton iterations taken.
        public var iterations: Int
        /// Why the model is what it is when ``Model/automatic`` did not estimate the
        /// misalignment; nil otherwise.
        public var note: String?

        /// True when the misalignment was estimated (the full model); false when it is the identity
        /// by assumption.
        public var estimatesMisalignment: Bool { model == .full }

        /// The calibration matrix `K = M · diag(s)` (upper triangular).
        public var matrix: RotationMatrix<Double> {
            let s = calibration.sensitivity
            let m = calibration.misalignment
            return RotationMatrix(columns: m.column0 * s.x, m.column1 * s.y, m.column2 * s.z)
        }
    }

    /// Calibrates from a recording (accelerometer in m/s²; the gyroscope helps the detector find
    /// rest).
    ///
    /// - Parameters:
    ///   - recording: a recording with six or more static orientations (nine or more for the
    ///     misalignment), each held for at least `minimumDuration + windowDuration` of the detector
    ///     (1.5 s with the defaults).
    ///   - settings: gravity, model, detector and fit settings.
    /// - Returns: the calibration in m/s² and the diagnostics of the fit.
    /// - Throws: ``CalibrationError`` as described in the type's documentation.
    public static func calibrate(
        _ recording: IMURecording, settings: Settings = Settings()
    ) throws(CalibrationError) -> Result {
        try calibrate(
            timestamps: recording.timestamps, accelerometer: recording.accelerometer,
            gyroscope: recording.gyroscope, settings: settings)
    }

    /// Calibrates from raw arrays in a given unit.
    ///
    /// - Parameters:
    ///   - timestamps: sample times, s.
    ///   - accelerometer: the raw accelerometer readings, in `unit`.
    ///   - gyroscope: the gyroscope readings in rad/s (help the detector), or nil.
    ///   - unit: the accelerometer's unit: the detector's thresholds and the gravity of `settings`
    ///     are converted to it, and the calibration's bias and residual are in it.
    ///   - settings: gravity (m/s²), model, detector and fit settings.
    /// - Throws: ``CalibrationError`` as described in the type's documentation;
    ///   ``CalibrationError/estimation(_:)`` when the arrays differ in length.
    public static func calibrate(
        timestamps: [Double], accelerometer: [SIMD3<Double>], gyroscope: [SIMD3<Double>]? = nil,
        unit: AccelerometerUnit = .metersPerSecondSquared, settings: Settings = Settings()
    ) throws(CalibrationError) -> Result {
        let toUnit = 1 / unit.toMetersPerSecondSquared
        let detector = settings.detector.rescaled(accelerometerScale: toUnit, gyroscopeScale: 1)
        let segments = try detector.segments(
            timestamps: timestamps, accelerometer: accelerometer, gyroscope: gyroscope)
        var result = try calibrate(
            staticReadings: segments.map(\.meanAccelerometer), gravity: settings.gravity * toUnit,
            settings: settings)
        result.segments = segments
        return result
    }

    /// Calibrates from static readings given directly: one mean reading per orientation.
    ///
    /// - Parameters:
    ///   - staticReadings: the mean accelerometer reading of each static orientation, any unit.
    ///   - gravity: the magnitude the calibrated readings should have, in the readings' unit (this
    ///     replaces `settings.gravity`; pass 1 for readings in g).
    ///   - settings: model and fit settings (the detector is not used).
    /// - Throws: ``CalibrationError`` as described in the type's documentation.
    public static func calibrate(
        staticReadings: [SIMD3<Double>], gravity: Double, settings: Settings = Settings()
    ) throws(CalibrationError) -> Result {
        guard gravity.isFinite, gravity > 0 else {
            throw .underdetermined(reason: "the gravity magnitude must be positive and finite, not \(gravity)")
        }
        for (k, reading) in staticReadings.enumerated() where !VectorCheck.isFinite(reading) {
            throw .nonFiniteSample(index: k)
        }
        let count = staticReadings.count
        let needed = settings.model == .full ? 9 : 6
        guard count >= needed else { throw .tooFewSamples(needed: needed, found: count) }
        let x = staticReadings.map { $0 / gravity }

        // The linear fit decides the model.
        let model: Model
        let linear: LinearFit
        var note: String? = nil
        if settings.model == .full || (settings.model == .automatic && count >= 9) {
            let full = try LinearFit(x, full: true)
            let problem = full.problem(maximumConditionNumber: settings.maximumConditionNumber)
            if let problem, settings.model == .full { throw .underdetermined(reason: problem) }
            if let problem { note = "misalignment not estimated: for the full model, \(problem)" }
            if problem == nil {
                (model, linear) = (.full, full)
            } else {
                (model, linear) = (.biasAndSensitivity, try LinearFit(x, full: false))
            }
        } else {
            if settings.model == .automatic {
                note = "misalignment not estimated: \(count) static orientations (the full model needs 9)"
            }
            (model, linear) = (.biasAndSensitivity, try LinearFit(x, full: false))
        }
        if model == .biasAndSensitivity,
            let problem = linear.problem(maximumConditionNumber: settings.maximumConditionNumber)
        {
            throw .underdetermined(reason: problem)
        }

        var (k, b) = try linear.initialEstimate()
        let pairs = model == .full ? upperEntries : diagonalEntries
        let iterations = try refine(x, k: &k, b: &b, entries: pairs, maximumIterations: settings.maximumIterations)

        // Positive diagonal: a row's sign does not change |K y|.
        for row in 0..<3 where k[row, row] < 0 {
            for column in 0..<3 { k[row, column] = -k[row, column] }
        }
        let s = SIMD3(k[0, 0], k[1, 1], k[2, 2])
        guard s.x > 0, s.y > 0, s.z > 0, k.isFinite, VectorCheck.isFinite(b) else {
            throw .notAnEllipsoid
        }
        let misalignment = model == .full
            ? RotationMatrix(columns: k.column0 / s.x, k.column1 / s.y, k.column2 / s.z)
            : RotationMatrix<Double>.identity
        var squares = 0.0
        for u in x {
            let r = length(k * (u - b)) - 1
            squares += r * r
        }
        let residual = gravity * (squares / Double(count)).squareRoot()
        let calibration = InertialCalibration(
            bias: b * gravity, sensitivity: s, misalignment: misalignment, residual: residual)
        // The ranges a calibration file accepts, with the bias in m/s² (the readings' unit scaled so
        // that gravity is standard gravity).
        if let (_, reason) = calibration.invalidField(biasScale: 9.80665 / gravity) {
            throw .outOfRange(reason: reason)
        }
        return Result(
            calibration: calibration, model: model, segments: [], staticReadings: staticReadings,
            gravity: gravity, residual: residual, singularValues: linear.singularValues,
            conditionNumber: linear.conditionNumber, iterations: iterations, note: note)
    }

    // MARK: - The fit

    /// The entries of `K` that are unknowns, (row, column).
    static let upperEntries = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
    static let diagonalEntries = [(0, 0), (1, 1), (2, 2)]

    static func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

    /// The algebraic fit of `xᵀAx − 2wᵀx = 1` (A symmetric; diagonal without misalignment).
    struct LinearFit {
        let full: Bool
        let count: Int
        let solution: [Double]
        let singularValues: [Double]
        let rank: Int

        init(_ x: [SIMD3<Double>], full: Bool) throws(CalibrationError) {
            self.full = full
            count = x.count
            let n = full ? 9 : 6
            let m = x.count
            var design = [Double](repeating: 0, count: m * n)
            for (row, p) in x.enumerated() {
                let columns: [Double] = full
                    ? [p.x * p.x, p.y * p.y, p.z * p.z, 2 * p.x * p.y, 2 * p.x * p.z, 2 * p.y * p.z,
                       -2 * p.x, -2 * p.y, -2 * p.z]
                    : [p.x * p.x, p.y * p.y, p.z * p.z, -2 * p.x, -2 * p.y, -2 * p.z]
                for column in 0..<n { design[column * m + row] = columns[column] }
            }
            do {
                (solution, singularValues, rank) = try LAPACK.leastSquares(
                    design, rows: m, columns: n, rightHandSides: [Double](repeating: 1, count: m))
            } catch {
                throw .estimation(error)
            }
        }

        var unknowns: Int { full ? 9 : 6 }

        var conditionNumber: Double {
            guard let largest = singularValues.first, let smallest = singularValues.last, smallest > 0 else {
                return .infinity
            }
            return largest / smallest
        }

        /// Why these orientations do not determine the model, or nil when they do.
        func problem(maximumConditionNumber: Double) -> String? {
            let what = full ? "bias, sensitivity and misalignment" : "bias and sensitivity"
            let advice = full
                ? "add orientations with two or three axes tilted against gravity at once"
                : "hold each axis pointing up and pointing down"
            if rank < unknowns {
                return "the \(count) static orientations do not cover enough directions to determine \(what) "
                    + "(rank \(rank) of \(unknowns)); \(advice)"
            }
            if !(conditionNumber <= maximumConditionNumber) {
                let shown = (conditionNumber * 10).rounded() / 10
                return "the \(count) static orientations do not cover enough directions to determine \(what) "
                    + "(condition number \(shown) > \(maximumConditionNumber)); \(advice)"
            }
            return nil
        }

        /// `K` (upper triangular, Cholesky) and `b` from the quadric, in units of g.
        func initialEstimate() throws(CalibrationError) -> (RotationMatrix<Double>, SIMD3<Double>) {
            let p = solution
            let a: RotationMatrix<Double> = full
                ? RotationMatrix(rows: SIMD3(p[0], p[3], p[4]), SIMD3(p[3], p[1], p[5]), SIMD3(p[4], p[5], p[2]))
                : RotationMatrix(rows: SIMD3(p[0], 0, 0), SIMD3(0, p[1], 0), SIMD3(0, 0, p[2]))
            let w = full ? SIMD3(p[6], p[7], p[8]) : SIMD3(p[3], p[4], p[5])
            let columnMajor = [a.column0.x, a.column0.y, a.column0.z, a.column1.x, a.column1.y,
                               a.column1.z, a.column2.x, a.column2.y, a.column2.z]
            do {
                let eigen = try LAPACK.symmetricEigen(columnMajor, order: 3)
                guard let smallest = eigen.values.first, smallest > 0, eigen.values.allSatisfy(\.isFinite) else {
                    throw CalibrationError.notAnEllipsoid
                }
                let solved = try LAPACK.leastSquares(columnMajor, rows: 3, columns: 3, rightHandSides: [w.x, w.y, w.z])
                let b = SIMD3(solved.solution[0], solved.solution[1], solved.solution[2])
                let scale = 1 + (b * (a * b)).sum()
                guard scale > 0, scale.isFinite else { throw CalibrationError.notAnEllipsoid }
                let q = RotationMatrix(columns: a.column0 / scale, a.column1 / scale, a.column2 / scale)
                guard let k = AccelerometerCalibrator.cholesky(q) else { throw CalibrationError.notAnEllipsoid }
                return (k, b)
            } catch let error as CalibrationError {
                throw error
            } catch let error as EstimationError {
                throw .estimation(error)
            } catch {
                throw .notAnEllipsoid
            }
        }
    }

    /// The upper-triangular `K` with a positive diagonal and `KᵀK = Q` (closed form for 3 × 3; `Q`
    /// was checked positive definite by `dsyev`); nil if a pivot is not positive.
    static func cholesky(_ q: RotationMatrix<Double>) -> RotationMatrix<Double>? {
        let d0 = q[0, 0]
        guard d0 > 0 else { return nil }
        let k00 = d0.squareRoot()
        let k01 = q[0, 1] / k00
        let k02 = q[0, 2] / k00
        let d1 = q[1, 1] - k01 * k01
        guard d1 > 0 else { return nil }
        let k11 = d1.squareRoot()
        let k12 = (q[1, 2] - k01 * k02) / k11
        let d2 = q[2, 2] - k02 * k02 - k12 * k12
        guard d2 > 0 else { return nil }
        return RotationMatrix(rows: SIMD3(k00, k01, k02), SIMD3(0, k11, k12), SIMD3(0, 0, d2.squareRoot()))
    }

    /// Gauss–Newton on `r_k = |K (x_k − b)| − 1` over the given entries of `K` and `b`; returns the
    /// iterations taken.
    static func refine(
        _ x: [SIMD3<Double>], k: inout RotationMatrix<Double>, b: inout SIMD3<Double>,
        entries: [(Int, Int)], maximumIterations: Int
    ) throws(CalibrationError) -> Int {
        let m = x.count
        let n = entries.count + 3
        func cost(_ k: RotationMatrix<Double>, _ b: SIMD3<Double>) -> Double {
            var total = 0.0
            for u in x {
                let r = length(k * (u - b)) - 1
                total += r * r
            }
            return total
        }
        var current = cost(k, b)
        for iteration in 1...max(1, maximumIterations) {
            var jacobian = [Double](repeating: 0, count: m * n)
            var negativeResidual = [Double](repeating: 0, count: m)
            for (row, u) in x.enumerated() {
                let y = u - b
                let z = k * y
                let norm = length(z)
                guard norm > 0 else { throw .notAnEllipsoid }
                negativeResidual[row] = 1 - norm
                for (column, (i, j)) in entries.enumerated() {
                    jacobian[column * m + row] = z[i] * y[j] / norm
                }
                let db = -(k.transposed * z) / norm
                for axis in 0..<3 { jacobian[(entries.count + axis) * m + row] = db[axis] }
            }
            let step: [Double]
            do {
                step = try LAPACK.leastSquares(jacobian, rows: m, columns: n, rightHandSides: negativeResidual)
                    .solution
            } catch {
                throw .estimation(error)
            }
            guard step.allSatisfy(\.isFinite) else { throw .didNotConverge(iterations: iteration) }
            let largest = step.map(abs).max() ?? 0
            // Try the full step, then halves, until the sum of squares goes down.
            var fraction = 1.0
            var accepted = false
            while fraction >= 0x1p-30 {
                var trialK = k
                for (column, (i, j)) in entries.enumerated() { trialK[i, j] += fraction * step[column] }
                let trialB = b + fraction * SIMD3(step[n - 3], step[n - 2], step[n - 1])
                let trialCost = cost(trialK, trialB)
                if trialCost < current || (largest * fraction <= 1e-12 && trialCost <= current) {
                    k = trialK
                    b = trialB
                    current = trialCost
                    accepted = true
                    break
                }
                fraction /= 2
            }
            // Converged: a negligible step, or no step reduces the sum of squares any more.
            if !accepted || largest * fraction <= 1e-11 { return iteration }
        }
        throw .didNotConverge(iterations: maximumIterations)
    }
}
