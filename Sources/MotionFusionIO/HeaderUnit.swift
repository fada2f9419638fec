import MotionFusionCore

/// A unit that a CSV header may write after a column's name (`Gyroscope X (deg/s)`); see
/// ``CSVReader/unit(ofColumns:given:)``.
public protocol HeaderUnit: RawRepresentable<String>, Equatable, Sendable {
    /// The quantity the unit measures, for error messages.
    static var quantity: MeasuredQuantity { get }
    /// The library's unit of that quantity (s, rad/s, m/s², µT): the unit when neither the header
    /// nor the caller gives one.
    static var libraryUnit: Self { get }
    /// Every spelling a header may write, case included, and the unit it means, in the order
    /// messages list them: the one table ``init(headerText:)`` reads. A micro sign (U+00B5) also
    /// stands for the Greek mu (U+03BC) that some files write instead.
    static var headerSpellings: KeyValuePairs<String, Self> { get }
}

extension HeaderUnit {
    /// The unit a header spelling means (``headerSpellings``), or nil for a spelling that is not
    /// accepted: nothing is guessed at, so `S`, `Ms`, `sec` or `Rad/s` are nil.
    public init?(headerText text: String) {
        // The Greek mu (U+03BC) and the micro sign (U+00B5) are one symbol written two ways.
        let micro = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\u{3BC}" ? "\u{B5}" : $0 }))
        guard let spelling = Self.headerSpellings.first(where: { $0.key == micro }) else { return nil }
        self = spelling.value
    }
}

// The units' header spellings. The units themselves are in MotionFusionCore.

extension TimeUnit: HeaderUnit {
    /// The units a CSV header writes, for example `s` in `Time (s)`: `s`; `ms`; `us` and `µs`; `ns`.
    public static let headerSpellings: KeyValuePairs<String, TimeUnit> = [
        "s": .seconds, "ms": .milliseconds, "us": .microseconds, "\u{B5}s": .microseconds, "ns": .nanoseconds,
    ]
    public static let quantity = MeasuredQuantity.time
    public static let libraryUnit = TimeUnit.seconds
}

extension GyroscopeUnit: HeaderUnit {
    /// The units a CSV header writes, for example `deg/s` in `Gyroscope X (deg/s)`: `rad/s`; `deg/s`,
    /// `°/s` and `dps`.
    public static let headerSpellings: KeyValuePairs<String, GyroscopeUnit> = [
        "rad/s": .radiansPerSecond, "deg/s": .degreesPerSecond, "\u{B0}/s": .degreesPerSecond, "dps": .degreesPerSecond,
    ]
    public static let quantity = MeasuredQuantity.gyroscope
    public static let libraryUnit = GyroscopeUnit.radiansPerSecond
}

extension AccelerometerUnit: HeaderUnit {
    /// The units a CSV header writes, for example `g` in `Accelerometer X (g)`: `g` (standard
    /// gravity); `m/s²`, `m/s^2`, `m/s2` and `ms^-2`. An upper case `G` is not among them: it is the
    /// symbol of gauss (see ``MagnetometerUnit/headerSpellings``), and an accelerometer column
    /// labelled with it is refused rather than guessed at.
    public static let headerSpellings: KeyValuePairs<String, AccelerometerUnit> = [
        "g": .standardGravity, "m/s\u{B2}": .metersPerSecondSquared, "m/s^2": .metersPerSecondSquared,
        "m/s2": .metersPerSecondSquared, "ms^-2": .metersPerSecondSquared,
    ]
    public static let quantity = MeasuredQuantity.accelerometer
    public static let libraryUnit = AccelerometerUnit.metersPerSecondSquared
}

extension MagnetometerUnit: HeaderUnit {
    /// The units a CSV header writes, for example `uT` in `Magnetometer X (uT)`: `µT` and `uT`; `nT`;
    /// `mT`; `gauss` and `G`. Case matters: `G` is gauss here, while a lower case `g` (standard
    /// gravity, see ``AccelerometerUnit/headerSpellings``) is not accepted, and neither is `MT`
    /// (megatesla).
    public static let headerSpellings: KeyValuePairs<String, MagnetometerUnit> = [
        "\u{B5}T": .microtesla, "uT": .microtesla, "nT": .nanotesla, "mT": .millitesla, "gauss": .gauss, "G": .gauss,
    ]
    public static let quantity = MeasuredQuantity.magnetometer
    public static let libraryUnit = MagnetometerUnit.microtesla
}
