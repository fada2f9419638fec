/// The valid ranges of the numbers of a calibration (documented on ``InertialCalibration`` and
/// ``MagnetometerCalibration``): checked when one is decoded, so that a calibration file is never
/// used as it comes, and on what the calibrators produce, so that `motion calibrate` never writes
/// a file that `motion fuse --calibration` refuses.
package enum CalibrationRanges {
    /// Each sensitivity: a gyroscope or accelerometer whose scale is off by more than a factor of
    /// two is broken or read in the wrong unit, not calibrated.
    package static let sensitivity: ClosedRange<Double> = 0.5...2
    /// The largest magnitude of a bias component, in the sensor's SI unit (m/s² or rad/s): 50 m/s²
    /// is 5 g, 50 rad/s is 2900°/s, both beyond any MEMS offset.
    package static let largestBias = 50.0
    /// The misalignment's determinant: right-handed (positive) and close to volume-preserving (the
    /// scale is the sensitivity's).
    package static let misalignmentDeterminant: ClosedRange<Double> = 0.5...2
    /// The misalignment's largest condition number (largest over smallest singular value): 2 admits
    /// a shear of 35° between two axes; MEMS axes are within a degree or two of orthogonal
    /// (condition number about 1.05).
    package static let largestMisalignmentCondition = 2.0
    /// The largest magnitude of a hard-iron component, µT: the full scale of the widest consumer
    /// magnetometers (about ±4900 µT); an offset beyond it could not be measured.
    package static let largestHardIron = 5000.0
    /// The soft iron's determinant: right-handed (positive), and a mean scale (its cube root) from
    /// 0.1 to 10: the calibrated field is the local field, and readings already converted to µT are
    /// within a factor of ten of it.
    package static let softIronDeterminant: ClosedRange<Double> = 1e-3...1e3
    /// The soft iron's largest condition number: an ellipsoid of readings with axes in a ratio of 10
    /// (strong soft-iron distortion in a device is below 1.5).
    package static let largestSoftIronCondition = 10.0

    /// The singular values of a finite 3 × 3 matrix, largest first, or nil.
    package static func singularValues(_ m: RotationMatrix<Double>) -> SIMD3<Double>? { m.singularValues }

    /// Why the matrix `name` is not usable: not finite, its determinant outside `determinant`, or its
    /// condition number beyond `largestCondition`; nil when it is.
    package static func matrixProblem(
        _ m: RotationMatrix<Double>, name: String, determinant: ClosedRange<Double>, largestCondition: Double
    ) -> String? {
        let requirement = "\(name) must be finite with a determinant in \(format(determinant)) and a "
            + "condition number of at most \(format(largestCondition))"
        guard let s = singularValues(m) else { return requirement + "; it is not finite" }
        let det = m.determinant
        let condition = s[2] > 0 ? s[0] / s[2] : .infinity
        guard determinant.contains(det), condition <= largestCondition else {
            return requirement + "; its determinant is \(det), its condition number \(condition)"
        }
        return nil
    }

    /// Why the vector `name` is not usable: a component not finite or beyond `largest` in magnitude.
    package static func vectorProblem(_ v: SIMD3<Double>, name: String, largest: Double, unit: String) -> String? {
        let components = [v.x, v.y, v.z]
        guard components.allSatisfy({ $0.isFinite && abs($0) <= largest }) else {
            return "\(name) must be 3 finite numbers within ±\(format(largest))\(unit), got \(components)"
        }
        return nil
    }

    package static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    package static func format(_ range: ClosedRange<Double>) -> String {
        "[\(format(range.lowerBound)), \(format(range.upperBound))]"
    }
}

extension InertialCalibration {
    /// The first field outside its valid range (see the type's documentation) and why, or nil.
    /// `biasScale` converts the bias to the SI unit the range is stated in (1 when it is in it).
    package func invalidField(biasScale: Double = 1) -> (field: String, reason: String)? {
        if let problem = CalibrationRanges.vectorProblem(
            bias * biasScale, name: "bias", largest: CalibrationRanges.largestBias, unit: " (m/s² or rad/s)")
        {
            return ("bias", problem)
        }
        let s = [sensitivity.x, sensitivity.y, sensitivity.z]
        guard s.allSatisfy({ CalibrationRanges.sensitivity.contains($0) }) else {
            return (
                "sensitivity",
                "sensitivity must be 3 numbers in \(CalibrationRanges.format(CalibrationRanges.sensitivity)) "
                    + "(a scale off by more than a factor of two is not a calibration), got \(s)"
            )
        }
        if let problem = CalibrationRanges.matrixProblem(
            misalignment, name: "misalignment", determinant: CalibrationRanges.misalignmentDeterminant,
            largestCondition: CalibrationRanges.largestMisalignmentCondition)
        {
            return ("misalignment", problem)
        }
        guard residual.isFinite, residual >= 0 else {
            return ("residual", "residual must be a finite number ≥ 0, got \(residual)")
        }
        return nil
    }
}

extension MagnetometerCalibration {
    /// The first field outside its valid range (see the type's documentation) and why, or nil.
    package func invalidField() -> (field: String, reason: String)? {
        if let problem = CalibrationRanges.vectorProblem(
            hardIron, name: "hardIron", largest: CalibrationRanges.largestHardIron, unit: " µT")
        {
            return ("hardIron", problem)
        }
        if let problem = CalibrationRanges.matrixProblem(
            softIron, name: "softIron", determinant: CalibrationRanges.softIronDeterminant,
            largestCondition: CalibrationRanges.largestSoftIronCondition)
        {
            return ("softIron", problem)
        }
        guard fieldStrength.isFinite, fieldStrength > 0 else {
            return ("fieldStrength", "fieldStrength must be a finite number of µT > 0, got \(fieldStrength)")
        }
        guard residual.isFinite, residual >= 0 else {
            return ("residual", "residual must be a finite number ≥ 0, got \(residual)")
        }
        return nil
    }
}
