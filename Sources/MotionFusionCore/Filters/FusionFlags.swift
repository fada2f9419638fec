/// Per-sample flags of a ``FusionStream`` update.
public struct FusionFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The accelerometer corrected the attitude this step.
    public static let accelerometerUsed = FusionFlags(rawValue: 1 << 0)
    /// The magnetometer corrected the heading this step (a 9D step).
    public static let magnetometerUsed = FusionFlags(rawValue: 1 << 1)
    /// The gyroscope had a NaN or infinite component, or a magnitude of 1000 rad/s or more (no
    /// gyroscope measures that: a corrupt sample): nothing was integrated.
    public static let gyroscopeInvalid = FusionFlags(rawValue: 1 << 2)
    /// A gyroscope component reached the configured range.
    public static let gyroscopeSaturated = FusionFlags(rawValue: 1 << 3)
    /// An accelerometer component reached the configured range: its correction was skipped.
    public static let accelerometerSaturated = FusionFlags(rawValue: 1 << 4)
    /// The bias estimator, or the filter's own rest detector (``AttitudeFilter/isRestDetected``), detected rest.
    public static let restDetected = FusionFlags(rawValue: 1 << 5)
    /// The timestamp repeated the previous one (``TimestampEvent/repeated``).
    public static let timestampRepeated = FusionFlags(rawValue: 1 << 6)
    /// The timestamp went backwards (``TimestampEvent/backward``).
    public static let timestampBackward = FusionFlags(rawValue: 1 << 7)
    /// The step was longer than the clock's maximum gap (``TimestampEvent/gap``).
    public static let timestampGap = FusionFlags(rawValue: 1 << 8)
    /// The timestamp was NaN or infinite (``TimestampEvent/invalid``).
    public static let timestampInvalid = FusionFlags(rawValue: 1 << 9)
    /// The filter has no attitude yet (no usable accelerometer sample so far); the attitude is the
    /// identity.
    public static let notInitialized = FusionFlags(rawValue: 1 << 10)
}
