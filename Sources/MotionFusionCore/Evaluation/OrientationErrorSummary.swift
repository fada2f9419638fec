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

#if !hasFeature(Embedded)
extension OrientationErrorSummary: Codable {}
#endif
