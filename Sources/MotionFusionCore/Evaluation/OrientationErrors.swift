import RealModule

/// Root-mean-square orientation errors in degrees, as the BROAD benchmark scores them.
public struct OrientationErrorSummary: Sendable, Hashable, CustomStringConvertible {
    /// RMS of the total error angle, degrees. NaN when no sample was scored.
    public var total: Double
    /// RMS of the heading error (rotation about the vertical), degrees. NaN when no sample was
    /// scored. For a 6D estimate (no magnetometer) heading is not observable, so this and
    /// ``total`` measure how far its arbitrary heading happens to be off; read ``inclination``.
    public var heading: Double
    /// RMS of the inclination error (tilt), degrees. NaN when no sample was scored.
    public var inclination: Double
    /// How many samples were scored.
    public var count: Int
    /// Samples that were to be scored, with a usable reference, whose estimate is zero or not
    /// finite (``OrientationErrors/isUsable(_:)``): left out of the RMS, and counted here, rather
    /// than normalized into the identity and scored as if they were an attitude.
    public var unusableEstimates: Int
    /// Samples that were to be scored whose reference is zero or not finite (BROAD's optical
    /// dropouts are NaN): left out, and counted here.
    public var unusableReferences: Int

    public init(
        total: Double, heading: Double, inclination: Double, count: Int, unusableEstimates: Int = 0,
        unusableReferences: Int = 0
    ) {
        self.total = total
        self.heading = heading
        self.inclination = inclination
        self.count = count
        self.unusableEstimates = unusableEstimates
        self.unusableReferences = unusableReferences
    }

#if !hasFeature(Embedded)
    private enum CodingKeys: String, CodingKey {
        case total, heading, inclination, count, unusableEstimates, unusableReferences
    }

    /// Decodes a summary; one encoded before the unusable counts existed reads them as 0.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        total = try c.decode(Double.self, forKey: .total)
        heading = try c.decode(Double.self, forKey: .heading)
        inclination = try c.decode(Double.self, forKey: .inclination)
        count = try c.decode(Int.self, forKey: .count)
        unusableEstimates = try c.decodeIfPresent(Int.self, forKey: .unusableEstimates) ?? 0
        unusableReferences = try c.decodeIfPresent(Int.self, forKey: .unusableReferences) ?? 0
    }
#endif

    public var description: String {
        var text = "total \(total)°, heading \(heading)°, inclination \(inclination)° over \(count) samples"
        if unusableEstimates > 0 { text += "; \(unusableEstimates) with a zero or non-finite estimate left out" }
        if unusableReferences > 0 { text += "; \(unusableReferences) with a zero or non-finite reference left out" }
        return text
    }
}

/// BROAD's orientation error measures (D. Laidig et al., "BROAD — A Benchmark for Robust Inertial
/// Orientation Estimation", Data 6(7):72, 2021; `broad_utils.py`).
///
/// With an estimate and a reference attitude, both sensor → earth with the same earth frame (z
/// vertical), the error quaternion in the earth frame is `e = q_est ⊗ q_ref⁻¹`, and
/// - total error = `2 acos|e_w|`,
/// - heading error = `2 atan(|e_z| / |e_w|)` (the rotation about the vertical),
/// - inclination error = `2 acos √(e_w² + e_z²)` (the rest: tilt).
///
/// Heading is not observable without a magnetometer: for a 6D estimate, total and heading measure
/// an arbitrary heading offset, and inclination is the figure that means something (BROAD scores
/// 6D methods by inclination only).
///
/// A zero or non-finite quaternion is not an attitude. ``Quaternion/normalized()`` turns one into
/// the identity, which against an identity reference would score a perfect 0°; ``summary(estimates:references:scored:)``
/// leaves such samples out instead and counts them (``OrientationErrorSummary/unusableEstimates``,
/// ``OrientationErrorSummary/unusableReferences``).
public enum OrientationErrors {
    /// The three error angles of one sample, radians. Non-finite input gives NaN angles; a zero
    /// quaternion is taken as the identity (check ``isUsable(_:)`` first).
    @inlinable
    public static func angles(
        estimate: Quaternion<Double>, reference: Quaternion<Double>
    ) -> (total: Double, heading: Double, inclination: Double) {
        let e = (estimate.normalized() * reference.normalized().conjugate).components
        let w = min(abs(e[0]), 1)
        let total = 2 * Double.acos(w)
        let heading = 2 * Double.atan(abs(e[3]) / w)
        let inclination = 2 * Double.acos(min((e[0] * e[0] + e[3] * e[3]).squareRoot(), 1))
        return (total, heading, inclination)
    }

    /// True when `q` can be scored: finite and not zero, so that it has a direction (a huge or tiny
    /// but finite quaternion is rescaled by ``Quaternion/normalized()`` and counts).
    @inlinable
    public static func isUsable(_ q: Quaternion<Double>) -> Bool {
        q.isFinite && (q.w != 0 || q.x != 0 || q.y != 0 || q.z != 0)
    }

    /// RMS errors over the samples where `scored` is true and both quaternions are usable
    /// (``isUsable(_:)``): BROAD's movement phase, without optical dropouts. Samples left out for
    /// an unusable reference or estimate are counted in the summary; with no sample scored the
    /// RMS values are NaN, not 0. (``OrientationErrorAccumulator`` does the same one sample at a
    /// time, for recordings too long to hold.)
    ///
    /// - Precondition: the three arrays have the same length.
    public static func summary(
        estimates: [Quaternion<Double>], references: [Quaternion<Double>], scored: [Bool]
    ) -> OrientationErrorSummary {
        precondition(estimates.count == references.count && references.count == scored.count)
        var accumulator = OrientationErrorAccumulator()
        for i in estimates.indices { accumulator.add(estimate: estimates[i], reference: references[i], scored: scored[i]) }
        return accumulator.summary
    }
}

/// BROAD's RMS errors (``OrientationErrors``) accumulated one sample at a time, in constant memory.
public struct OrientationErrorAccumulator: Sendable, Hashable {
    /// What ``add(estimate:reference:scored:)`` did with a sample.
    public enum Outcome: Sendable, Hashable {
        /// Not to be scored (`scored` false).
        case notScored
        /// Scored.
        case scored
        /// Left out: the reference is zero or not finite.
        case unusableReference
        /// Left out: the estimate is zero or not finite (the reference is usable).
        case unusableEstimate
    }

    private var sums = SIMD3<Double>.zero
    private var count = 0, unusableEstimates = 0, unusableReferences = 0

    public init() {}

    /// Adds one sample.
    @discardableResult
    public mutating func add(estimate: Quaternion<Double>, reference: Quaternion<Double>, scored: Bool) -> Outcome {
        guard scored else { return .notScored }
        guard OrientationErrors.isUsable(reference) else {
            unusableReferences += 1
            return .unusableReference
        }
        guard OrientationErrors.isUsable(estimate) else {
            unusableEstimates += 1
            return .unusableEstimate
        }
        let (t, h, inc) = OrientationErrors.angles(estimate: estimate, reference: reference)
        sums += SIMD3(t * t, h * h, inc * inc)
        count += 1
        return .scored
    }

    /// The RMS errors so far (NaN with no sample scored).
    public var summary: OrientationErrorSummary {
        let rms = count == 0 ? SIMD3(repeating: .nan) : (sums / Double(count)).squareRoot() * (180 / Double.pi)
        return OrientationErrorSummary(
            total: rms.x, heading: rms.y, inclination: rms.z, count: count, unusableEstimates: unusableEstimates,
            unusableReferences: unusableReferences)
    }
}

extension SIMD3 where Scalar == Double {
    @usableFromInline
    func squareRoot() -> SIMD3 { SIMD3(x.squareRoot(), y.squareRoot(), z.squareRoot()) }
}

#if !hasFeature(Embedded)
extension OrientationErrorSummary: Codable {}
#endif
