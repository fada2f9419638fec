/// A gyroscope or accelerometer calibration: `c = M · s ⊙ (u − b)` (x-io Fusion's inertial model).
///
/// `u` is the raw reading, `b` the bias (offset, in the sensor's unit), `s` the per-axis sensitivity
/// (scale) and `M` the misalignment matrix (identity for perfectly orthogonal axes). The calibrated
/// reading `c` is in the same unit as `u`. `Codable` as
/// `{"bias": [3], "sensitivity": [3], "misalignment": [[3], [3], [3]]}` (row-major).
///
/// Decoding (a calibration file is never used as it comes) checks each field's valid range and
/// throws `DecodingError.dataCorrupted` naming the field and the range otherwise:
/// - `bias`: 3 finite numbers within ±50 in the sensor's SI unit (m/s² or rad/s; 5 g, 2900°/s —
///   beyond any MEMS offset);
/// - `sensitivity`: 3 numbers in [0.5, 2] (a scale off by more than a factor of two is broken or
///   in the wrong unit, not calibrated);
/// - `misalignment` (optional, default identity): finite, determinant in [0.5, 2] (right-handed;
///   the scale is the sensitivity's) and condition number (largest over smallest singular value)
///   at most 2 — a shear of 35° between two axes, where MEMS axes are within a degree or two;
/// - `residual` (optional, default 0): finite, ≥ 0.
///
/// ``AccelerometerCalibrator`` and ``GyroscopeCalibrator`` refuse a result outside these ranges
/// (``CalibrationError/outOfRange(reason:)``). The memberwise initializer does not check.
public struct InertialCalibration: Sendable, Hashable {
    /// `b`, subtracted first, in the sensor's unit.
    public var bias: SIMD3<Double>
    /// `s`, multiplied per axis after the bias is removed.
    public var sensitivity: SIMD3<Double>
    /// `M`, applied last.
    public var misalignment: RotationMatrix<Double>
    /// The RMS residual of the fit that produced this calibration, in the sensor's unit (0 when
    /// set by hand).
    public var residual: Double

    /// A calibration from its parts; the defaults change nothing.
    public init(
        bias: SIMD3<Double> = .zero, sensitivity: SIMD3<Double> = SIMD3(1, 1, 1),
        misalignment: RotationMatrix<Double> = .identity, residual: Double = 0
    ) {
        self.bias = bias
        self.sensitivity = sensitivity
        self.misalignment = misalignment
        self.residual = residual
    }

    /// The identity calibration.
    public static let identity = InertialCalibration()

    /// Applies `c = M · s ⊙ (u − b)`. Non-finite readings stay non-finite (the filters skip them).
    @inlinable
    public func apply<Scalar: FusionScalar>(_ raw: SIMD3<Scalar>) -> SIMD3<Scalar> {
        let u = SIMD3<Double>(raw)
        return SIMD3<Scalar>(misalignment * ((u - bias) * sensitivity))
    }

#if !hasFeature(Embedded)
    private enum CodingKeys: String, CodingKey { case bias, sensitivity, misalignment, residual }

    /// Decodes a calibration and checks every field's range (see the type's documentation).
    ///
    /// - Throws: `DecodingError.dataCorrupted` at the first field outside its range, its debug
    ///   description naming the field and the range.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        bias = try Self.vector(c, .bias)
        sensitivity = try Self.vector(c, .sensitivity)
        misalignment = try c.decodeIfPresent(RotationMatrix<Double>.self, forKey: .misalignment) ?? .identity
        residual = try c.decodeIfPresent(Double.self, forKey: .residual) ?? 0
        if let (field, reason) = invalidField(), let key = CodingKeys(rawValue: field) {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: reason)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode([bias.x, bias.y, bias.z], forKey: .bias)
        try c.encode([sensitivity.x, sensitivity.y, sensitivity.z], forKey: .sensitivity)
        try c.encode(misalignment, forKey: .misalignment)
        try c.encode(residual, forKey: .residual)
    }

    private static func vector(
        _ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) throws -> SIMD3<Double> {
        let values = try c.decode([Double].self, forKey: key)
        guard values.count == 3, values.allSatisfy({ $0.isFinite }) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: c, debugDescription: "\(key.rawValue) needs 3 finite numbers")
        }
        return SIMD3(values[0], values[1], values[2])
    }
#endif
}

#if !hasFeature(Embedded)
extension InertialCalibration: Codable {}
#endif
