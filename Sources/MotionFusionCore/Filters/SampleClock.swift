
/// Turns timestamps into sample periods, with documented handling of bad clocks.
///
/// Timestamps are `Double` seconds on the source's clock (at 100 Hz a `Float` clock would lose
/// sub-millisecond resolution after a day). Rules, per sample:
/// - first sample: `dt = 0` (``TimestampEvent/first``);
/// - `t` equal to the previous timestamp: `dt = 0` (``TimestampEvent/repeated``): the filters change
///   nothing, the attitude is held, and the sample still gets its output row;
/// - `t` earlier than the previous timestamp: `dt = 0` and the clock restarts at `t`
///   (``TimestampEvent/backward``), so that one bad stamp does not freeze the rest of the stream;
/// - a step longer than ``maximumGap``: `dt` is the typical period (an average of the regular steps so
///   far, or ``nominalPeriod`` before there is one) (``TimestampEvent/gap``): the motion during a gap
///   is unknown, and integrating a stale rate over it would be a guess;
/// - a NaN or infinite timestamp: `dt = 0`, the clock keeps its time (``TimestampEvent/invalid``).
@frozen
public struct SampleClock: Sendable, Hashable {
    /// Steps longer than this (seconds) are treated as gaps. Default 1 s. `.infinity`: no step is
    /// a gap. A value outside the range (here, in the initializer or when decoded) is replaced by
    /// the default. Valid range: > 0, +∞ allowed.
    public var maximumGap: Double {
        didSet { maximumGap = clamped().maximumGap }
    }
    /// The period used for a gap before any regular step has been seen (seconds). Default 0.01 s.
    /// A value outside the range (here, in the initializer or when decoded) is replaced by the
    /// default. Valid range: > 0, finite.
    public var nominalPeriod: Double {
        didSet { nominalPeriod = clamped().nominalPeriod }
    }
    @usableFromInline var last: Double?
    @usableFromInline var typical: Double?
    @usableFromInline var counts: SIMD4<Int>

    /// The previous accepted timestamp.
    public var lastTimestamp: Double? { last }
    /// The running average of regular steps (seconds), or nil before the first one.
    public var typicalPeriod: Double? { typical }
    /// How many samples had a repeated timestamp.
    public var repeatedCount: Int { counts[0] }
    /// How many samples had a timestamp earlier than the previous one.
    public var backwardCount: Int { counts[1] }
    /// How many steps were longer than ``maximumGap``.
    public var gapCount: Int { counts[2] }
    /// How many samples had a NaN or infinite timestamp.
    public var invalidCount: Int { counts[3] }

    /// A clock with the given gap threshold and nominal period (seconds); a value outside its valid
    /// range is replaced by the default (call ``validate(maximumGap:nominalPeriod:)`` first to
    /// refuse it instead).
    public init(maximumGap: Double = 1, nominalPeriod: Double = 0.01) {
        self.init(unclamped: maximumGap, nominalPeriod)
        self = clamped()
    }

    /// A clock with the values as given (the defaults of the range table).
    private init(unclamped maximumGap: Double, _ nominalPeriod: Double) {
        self.maximumGap = maximumGap
        self.nominalPeriod = nominalPeriod
        counts = .zero
    }

#if !hasFeature(Embedded)
    private enum CodingKeys: String, CodingKey { case maximumGap, nominalPeriod, last, typical, counts }

    /// Decodes a clock; settings outside their valid ranges are replaced as in the initializer.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maximumGap = try c.decode(Double.self, forKey: .maximumGap)
        nominalPeriod = try c.decode(Double.self, forKey: .nominalPeriod)
        last = try c.decodeIfPresent(Double.self, forKey: .last)
        typical = try c.decodeIfPresent(Double.self, forKey: .typical)
        counts = try c.decode(SIMD4<Int>.self, forKey: .counts)
        self = clamped()
    }
#endif

    /// Accepts the next timestamp and returns the step to integrate over.
    @inlinable
    public mutating func step(to timestamp: Double) -> (dt: Double, event: TimestampEvent) {
        guard timestamp.isFinite else {
            counts[3] += 1
            return (0, .invalid)
        }
        guard let previous = last else {
            last = timestamp
            return (0, .first)
        }
        let dt = timestamp - previous
        if dt == 0 {
            counts[0] += 1
            return (0, .repeated)
        }
        last = timestamp
        if dt < 0 {
            counts[1] += 1
            return (0, .backward)
        }
        if dt > maximumGap {
            counts[2] += 1
            return (typical ?? nominalPeriod, .gap)
        }
        // Exponential average with a 64-sample memory: follows slow clock drift, ignores jitter.
        typical = typical.map { $0 + (dt - $0) / 64 } ?? dt
        return (dt, .regular)
    }

    /// Forgets the previous timestamp (the next sample is a ``TimestampEvent/first``); keeps counts.
    public mutating func restart() {
        last = nil
    }
}

extension SampleClock: RangedSettings {
    /// The valid range of the clock's two settings: the one table that
    /// ``validate(maximumGap:nominalPeriod:)``, the clamp and the tests read.
    static var rules: [SettingRule<Self>] {
        [
            SettingRule("maximumGap", { $0.maximumGap }, { $0.maximumGap = $1 }, .positiveOrInfinity),
            SettingRule("nominalPeriod", { $0.nominalPeriod }, { $0.nominalPeriod = $1 }, .positive),
        ]
    }

    static var defaults: Self { Self(unclamped: 1, 0.01) }

    /// Checks a gap threshold and a nominal period against the valid ranges of ``maximumGap`` and
    /// ``nominalPeriod``. A clock replaces values outside them as it is made, so this is the way to
    /// refuse them instead: call it before ``init(maximumGap:nominalPeriod:)``.
    ///
    /// - Throws: ``SettingsError/outOfRange(setting:value:range:)`` for the first value outside
    ///   its range.
    public static func validate(maximumGap: Double, nominalPeriod: Double) throws(SettingsError) {
        if let error = Self(unclamped: maximumGap, nominalPeriod).rangeViolation() { throw error }
    }

    /// These settings with every value moved into its range, as ``SampleClock`` documents.
    @usableFromInline
    func clamped() -> Self { clampedToRanges() }
}

#if !hasFeature(Embedded)
extension TimestampEvent: Codable {}
extension SampleClock: Codable {}
#endif
