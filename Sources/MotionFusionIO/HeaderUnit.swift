import MotionFusionCore

/// A unit that a CSV header may write after a column's name (`Gyroscope X (deg/s)`); see
/// ``CSVReader/unit(ofColumns:given:)``.
public protocol HeaderUnit: RawRepresentable<String>, Equatable, Sendable {
    /// The quantity the unit measures, for error messages.
    static var quantity: MeasuredQuantity { get }
    /// The library's unit of that quantity (s, rad/s, m/s², µT): the unit when neither the header
    /// nor the caller gives one.
    static var libraryUnit: Self { get }
    /// The unit a header spelling means, or nil for a spelling that is not accepted.
    init?(headerText: String)
}

// The units' header spellings. The units themselves are in MotionFusionCore.

extension TimeUnit: HeaderUnit {
    /// The unit a CSV header writes, for example `s` in `Time (s)`.
    ///
    /// Accepted, case included: `s`; `ms`; `us`, `µs` (micro sign, U+00B5) and `μs` (Greek mu,
    /// U+03BC); `ns`. Anything else is nil: `S`, `Ms` or `sec` are not guessed at.
    public init?(headerText text: String) {
        switch text {
        case "s": self = .seconds
        case "ms": self = .milliseconds
        case "us", "\u{B5}s", "\u{3BC}s": self = .microseconds
        case "ns": self = .nanoseconds
        default: return nil
        }
    }

    /// The spellings ``init(headerText:)`` accepts, for messages.
    public static let headerSpellings = ["s", "ms", "us", "µs", "ns"]
    public static let quantity = MeasuredQuantity.time
    public static let libraryUnit = TimeUnit.seconds
}

extension GyroscopeUnit: HeaderUnit {
    /// The unit a CSV header writes, for example `deg/s` in `Gyroscope X (deg/s)`.
    ///
    /// Accepted, case included: `rad/s`; `deg/s`, `°/s`, `dps`. Anything else is nil.
    public init?(headerText text: String) {
        switch text {
        case "rad/s": self = .radiansPerSecond
        case "deg/s", "\u{B0}/s", "dps": self = .degreesPerSecond
        default: return nil
        }
    }

    /// The spellings ``init(headerText:)`` accepts, for messages.
    public static let headerSpellings = ["rad/s", "deg/s", "°/s", "dps"]
    public static let quantity = MeasuredQuantity.gyroscope
    public static let libraryUnit = GyroscopeUnit.radiansPerSecond
}

extension AccelerometerUnit: HeaderUnit {
    /// The unit a CSV header writes, for example `g` in `Accelerometer X (g)`.
    ///
    /// Accepted, case included: `g` (standard gravity); `m/s²`, `m/s^2`, `m/s2`, `ms^-2`. An upper
    /// case `G` is nil: it is the symbol of gauss (see ``MagnetometerUnit/init(headerText:)``), and
    /// an accelerometer column labelled with it is refused rather than guessed at.
    public init?(headerText text: String) {
        switch text {
        case "g": self = .standardGravity
        case "m/s\u{B2}", "m/s^2", "m/s2", "ms^-2": self = .metersPerSecondSquared
        default: return nil
        }
    }

    /// The spellings ``init(headerText:)`` accepts, for messages.
    public static let headerSpellings = ["g", "m/s²", "m/s^2", "m/s2", "ms^-2"]
    public static let quantity = MeasuredQuantity.accelerometer
    public static let libraryUnit = AccelerometerUnit.metersPerSecondSquared
}

extension MagnetometerUnit: HeaderUnit {
    /// The unit a CSV header writes, for example `uT` in `Magnetometer X (uT)`.
    ///
    /// Accepted, case included: `µT` (micro sign, U+00B5), `μT` (Greek mu, U+03BC), `uT`; `nT`;
    /// `mT`; `gauss` and `G`. Case matters: `G` is gauss here, while a lower case `g` (standard
    /// gravity, see ``AccelerometerUnit/init(headerText:)``) is nil, and so is `MT` (megatesla).
    public init?(headerText text: String) {
        switch text {
        case "\u{B5}T", "\u{3BC}T", "uT": self = .microtesla
        case "nT": self = .nanotesla
        case "mT": self = .millitesla
        case "gauss", "G": self = .gauss
        default: return nil
        }
    }

    /// The spellings ``init(headerText:)`` accepts, for messages.
    public static let headerSpellings = ["µT", "uT", "nT", "mT", "gauss", "G"]
    public static let quantity = MeasuredQuantity.magnetometer
    public static let libraryUnit = MagnetometerUnit.microtesla
}
