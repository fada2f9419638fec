/// A magnetometer calibration: `m = S · (u − h)`, with the hard-iron offset `h` (µT) and the
/// symmetric soft-iron matrix `S`.
///
/// A stable file contract (outside tools read it): `Codable` as
/// `{"hardIron": [hx, hy, hz], "softIron": [[…], […], […]], "fieldStrength": F, "residual": r}` with
/// `softIron` row-major and calibrated = softIron · (raw − hardIron). `fieldStrength` is the radius
/// (µT) the calibrated field lies on; `residual` the RMS of `|m| − fieldStrength` over the fit
/// samples (µT).
///
/// Decoding (a calibration file is never used as it comes) checks each field's valid range and
/// throws `DecodingError.dataCorrupted` naming the field and the range otherwise:
/// - `hardIron`: 3 finite numbers within ±5000 µT (the full scale of the widest consumer
///   magnetometers, about ±4900 µT);
/// - `softIron`: finite, determinant in [0.001, 1000] (right-handed, with a mean scale — the cube
///   root — from 0.1 to 10: readings in µT are within a factor of ten of the local field) and
///   condition number (largest over smallest singular value) at most 10 (strong soft-iron
///   distortion in a device is below 1.5);
/// - `fieldStrength` (optional, default 50): finite, > 0;
/// - `residual` (optional, default 0): finite, ≥ 0.
///
/// ``EllipsoidFit`` refuses a fit outside these ranges (``CalibrationError/outOfRange(reason:)``).
/// The memberwise initializer does not check.
public struct MagnetometerCalibration: Sendable, Hashable {
    /// `h`, µT, subtracted first.
    public var hardIron: SIMD3<Double>
    /// `S`, symmetric, applied after.
    public var softIron: RotationMatrix<Double>
    /// The field magnitude the calibration maps to, µT.
    public var fieldStrength: Double
    /// RMS of `|calibrated| − fieldStrength` over the samples of the fit, µT.
    public var residual: Double

    /// A calibration from its parts.
    public init(
        hardIron: SIMD3<Double> = .zero, softIron: RotationMatrix<Double> = .identity,
        fieldStrength: Double = 50, residual: Double = 0
    ) {
        self.hardIron = hardIron
        self.softIron = softIron
        self.fieldStrength = fieldStrength
        self.residual = residual
    }

    /// Applies `m = S · (u − h)`.
    @inlinable
    public func apply<Scalar: FusionScalar>(_ raw: SIMD3<Scalar>) -> SIMD3<Scalar> {
        SIMD3<Scalar>(softIron * (SIMD3<Double>(raw) - hardIron))
    }

    /// How much to trust the calibrated field, from the fit's relative residual: high below 1 %,
    /// medium below 3 %, low otherwise.
    public var accuracy: MagneticFieldAccuracy {
        let relative = residual / max(fieldStrength, .leastNormalMagnitude)
        return relative < 0.01 ? .high : (relative < 0.03 ? .medium : .low)
    }

#if !hasFeature(Embedded)
    private enum CodingKeys: String, CodingKey { case hardIron, softIron, fieldStrength, residual }

    /// Decodes a calibration and checks every field's range (see the type's documentation).
    ///
    /// - Throws: `DecodingError.dataCorrupted` at the first field outside its range, its debug
    ///   description naming the field and the range.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let h = try c.decode([Double].self, forKey: .hardIron)
        guard h.count == 3, h.allSatisfy({ $0.isFinite }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .hardIron, in: c, debugDescription: "hardIron needs 3 finite numbers")
        }
        hardIron = SIMD3(h[0], h[1], h[2])
        softIron = try c.decode(RotationMatrix<Double>.self, forKey: .softIron)
        fieldStrength = try c.decodeIfPresent(Double.self, forKey: .fieldStrength) ?? 50
        residual = try c.decodeIfPresent(Double.self, forKey: .residual) ?? 0
        if let (field, reason) = invalidField(), let key = CodingKeys(rawValue: field) {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: reason)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode([hardIron.x, hardIron.y, hardIron.z], forKey: .hardIron)
        try c.encode(softIron, forKey: .softIron)
        try c.encode(fieldStrength, forKey: .fieldStrength)
        try c.encode(residual, forKey: .residual)
    }
#endif
}

#if !hasFeature(Embedded)
extension MagnetometerCalibration: Codable {}
extension MagneticFieldAccuracy: Codable {}
#endif
