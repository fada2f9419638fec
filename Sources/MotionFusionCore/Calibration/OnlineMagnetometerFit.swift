/// The decisions of ``OnlineMagnetometerCalibrator`` on its kept samples: which fit, whether it
/// replaces the calibration in use, which samples are outliers, and the accuracy level. The rules
/// and their numbers are documented on ``OnlineMagnetometerCalibrator``; they live here once.
@usableFromInline
enum OnlineMagnetometerFit {
    /// The outcome of one round of fitting.
    @usableFromInline
    struct Verdict: Sendable {
        /// The calibration to use from now on, nil to keep the one in use.
        @usableFromInline var adopted: MagnetometerCalibration?
        @usableFromInline var adoptedHasSoftIron = false
        /// Bit i set: sample i is an outlier, to be dropped.
        @usableFromInline var outliers: UInt64 = 0
        /// The level of the calibration in use after this round.
        @usableFromInline var accuracy: MagneticFieldAccuracy = .uncalibrated
    }

    static var fieldStrengthRange: ClosedRange<Double> { OnlineMagnetometerCalibrator<Double>.earthFieldStrengths }
    static let sphereResidualLimit = 0.05
    static let ellipsoidResidualLimit = 0.03
    static let acceptedCoverage = 0.05
    static let ellipsoidCoverage = 0.12
    static let ellipsoidSamples = 24
    static let softIronConditionLimit = 1.6
    static let improvement = 0.8
    static let significance = 2.0
    static let calibratedResidual = 0.05
    static let highResidual = 0.015
    static let highCoverage = 0.15
    static let highSamples = 32
    static let mediumResidual = 0.03
    /// The largest standard error of the hard iron, µT, for `medium` and for `high`.
    static let mediumHardIronError = 2.0
    static let highHardIronError = 1.0

    /// Fits the points (which it may reorder: inliers first) and judges the fit against `current`.
    @usableFromInline
    static func judge(
        _ points: UnsafeMutableBufferPointer<SIMD3<Double>>, current: MagnetometerCalibration?
    ) -> Verdict {
        var verdict = Verdict()
        var inliers = UnsafeBufferPointer(points)
        var candidate = fit(inliers)
        if let (fitted, _) = candidate {
            // Outliers: far off the fitted surface; dropped, then one more fit without them.
            let rms = MagneticFieldFit.residual(of: fitted, inliers)
            let limit = max(3 * rms, 0.05 * fitted.fieldStrength)
            var kept = 0
            for i in 0..<points.count {
                let p = points[i]
                if abs(MagneticFieldFit.surfaceError(of: fitted, p)) > limit {
                    verdict.outliers |= 1 << UInt64(i)
                } else {
                    points[kept] = p
                    kept += 1
                }
            }
            if verdict.outliers != 0 {
                inliers = UnsafeBufferPointer(rebasing: points[0..<kept])
                candidate = kept >= 12 ? fit(inliers) : nil
            }
        }
        // Without a calibration in use, the field as it comes (h = 0, S = I, R its mean norm) is
        // the one to beat: an input that is calibrated already keeps its field, and is judged.
        var inUse = current
        var reference = current
        var referenceParameters = 0
        // A field that comes within `calibratedResidual` of a sphere of an earth field's strength
        // is taken as calibrated and never replaced by a learned fit: on the norm alone, a few µT
        // of hard iron cannot be told from a field that varies by a few µT from place to place
        // (BROAD's lab: 1–1.5 µT), and whoever calibrated the sensor used more than the last
        // minute's samples. It is judged like any calibration in use (its accuracy).
        var learns = true
        let learnedInUse = current.map { $0.hardIron != .zero || $0.softIron != .identity } ?? false
        if !learnedInUse, let asItComes = identity(inliers) {
            reference = asItComes
            referenceParameters = 1
            if fieldStrengthRange.contains(asItComes.fieldStrength)
                && asItComes.residual <= calibratedResidual * asItComes.fieldStrength
            {
                learns = false
                if MagneticFieldFit.coverage(around: .zero, inliers) >= acceptedCoverage {
                    verdict.adopted = asItComes
                    inUse = asItComes
                }
            }
        }
        if !learns { candidate = nil }
        if let (fitted, ellipsoid) = candidate {
            let parameters = ellipsoid ? 9 : 4
            let residual = MagneticFieldFit.residual(of: fitted, inliers, parameters: parameters)
            var better = acceptable(
                fitted, inliers, residual: residual, limit: ellipsoid ? ellipsoidResidualLimit : sphereResidualLimit)
            if better, let reference {
                // Better on these samples, and by more than the field's own unevenness: a change
                // of calibration smaller than twice the fit's residual is within what a field that
                // varies from place to place (a lab's 1–2 µT) makes of any fit.
                better = residual < improvement * MagneticFieldFit.residual(of: reference, inliers, parameters: referenceParameters)
                    && largestChange(from: reference, to: fitted) > significance * residual
            }
            if better {
                var adopted = fitted
                adopted.residual = residual
                verdict.adopted = adopted
                verdict.adoptedHasSoftIron = ellipsoid
                inUse = adopted
            }
        }
        if let inUse {
            let residual = MagneticFieldFit.residual(of: inUse, inliers)
            let relative = residual / inUse.fieldStrength
            let coverage = MagneticFieldFit.coverage(around: inUse.hardIron, inliers)
            let uncertainty = MagneticFieldFit.hardIronUncertainty(of: inUse, inliers, residual: residual)
            if relative <= highResidual && coverage >= highCoverage && inliers.count >= highSamples
                && uncertainty <= highHardIronError
            {
                verdict.accuracy = .high
            } else if relative <= mediumResidual && coverage >= acceptedCoverage && uncertainty <= mediumHardIronError {
                verdict.accuracy = .medium
            } else {
                verdict.accuracy = .low
            }
        }
        return verdict
    }

    /// The largest change, µT, of a calibrated field of `new`'s strength when `old` calibrates the
    /// same reading instead of `new` (`|S₀(u − h₀) − S₁(u − h₁)|`), over the six axis directions of
    /// the calibrated field: enough to tell a refinement from a change.
    @usableFromInline
    static func largestChange(from old: MagnetometerCalibration, to new: MagnetometerCalibration) -> Double {
        guard let inverse = Matrix3<Double>(
            columns: new.softIron.column0, new.softIron.column1, new.softIron.column2).inverse
        else { return .infinity }
        var largest = 0.0
        for axis in 0..<6 {
            var m = SIMD3<Double>.zero
            m[axis % 3] = axis < 3 ? new.fieldStrength : -new.fieldStrength
            // The raw reading that `new` calibrates to m, and what `old` makes of it.
            let raw = inverse.c0 * m.x + inverse.c1 * m.y + inverse.c2 * m.z + new.hardIron
            largest = max(largest, VectorCheck.length(old.apply(raw) - m))
        }
        return largest
    }

    /// The field as it comes: no hard or soft iron, the field strength its mean norm.
    static func identity(_ points: UnsafeBufferPointer<SIMD3<Double>>) -> MagnetometerCalibration? {
        guard !points.isEmpty else { return nil }
        var sum = 0.0
        for p in points { sum += VectorCheck.length(p) }
        var calibration = MagnetometerCalibration(fieldStrength: sum / Double(points.count))
        calibration.residual = MagneticFieldFit.residual(of: calibration, points, parameters: 1)
        return calibration
    }

    /// Whether a fit passes the acceptance rules on its own: field strength, relative residual (its
    /// `residual` on the points, corrected for its parameters) and coverage.
    static func acceptable(
        _ c: MagnetometerCalibration, _ points: UnsafeBufferPointer<SIMD3<Double>>, residual: Double, limit: Double
    ) -> Bool {
        fieldStrengthRange.contains(c.fieldStrength)
            && residual <= limit * c.fieldStrength
            && MagneticFieldFit.coverage(around: c.hardIron, points) >= acceptedCoverage
    }

    /// The ellipsoid when the coverage and the samples allow it, its soft iron is plausible and
    /// its residual is within the ellipsoid's limit; otherwise the sphere (judged by its own
    /// limit); nil when not even a sphere is determined.
    static func fit(_ points: UnsafeBufferPointer<SIMD3<Double>>) -> (MagnetometerCalibration, Bool)? {
        guard let sphere = MagneticFieldFit.sphere(points) else { return nil }
        guard points.count >= ellipsoidSamples,
            MagneticFieldFit.coverage(around: sphere.hardIron, points) >= ellipsoidCoverage,
            let ellipsoid = MagneticFieldFit.ellipsoid(points, around: sphere),
            let values = ellipsoid.softIron.singularValues, values.z > 0,
            values.x / values.z <= softIronConditionLimit,
            MagneticFieldFit.residual(of: ellipsoid, points, parameters: 9)
                <= ellipsoidResidualLimit * ellipsoid.fieldStrength
        else { return (sphere, false) }
        return (ellipsoid, true)
    }
}
