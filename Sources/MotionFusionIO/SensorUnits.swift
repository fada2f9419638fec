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

/// Units a gyroscope column may be recorded in.
public enum GyroscopeUnit: String, CaseIterable, Sendable, Codable, HeaderUnit {
    /// Radians per second (the library's unit).
    case radiansPerSecond = "rad/s"
    /// Degrees per second.
    case degreesPerSecond = "deg/s"

    /// The factor that converts a value in this unit to rad/s.
    public var toRadiansPerSecond: Double {
        self == .radiansPerSecond ? 1 : Double.pi / 180
    }

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

/// Units an accelerometer column may be recorded in. Either way the values are specific force
/// (about +1 g along the axis pointing up at rest).
public enum AccelerometerUnit: String, CaseIterable, Sendable, Codable, HeaderUnit {
    /// Metres per second squared (the library's unit).
    case metersPerSecondSquared = "m/s2"
    /// Standard gravity, 1 g = 9.80665 m/s².
    case standardGravity = "g"

    /// The factor that converts a value in this unit to m/s².
    public var toMetersPerSecondSquared: Double {
        self == .metersPerSecondSquared ? 1 : 9.80665
    }

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

/// Units a magnetometer column may be recorded in.
public enum MagnetometerUnit: String, CaseIterable, Sendable, Codable, HeaderUnit {
    /// Microtesla (the library's unit).
    case microtesla = "uT"
    /// Nanotesla.
    case nanotesla = "nT"
    /// Gauss, 1 G = 100 µT.
    case gauss = "gauss"
    /// Millitesla, 1 mT = 1000 µT.
    case millitesla = "mT"

    /// The factor that converts a value in this unit to µT.
    public var toMicrotesla: Double {
        switch self {
        case .microtesla: 1
        case .nanotesla: 0.001
        case .gauss: 100
        case .millitesla: 1000
        }
    }

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

/// The quantities of an IMU recording whose unit a CSV header may give; a ``CSVError`` about a
/// header unit names one.
public enum MeasuredQuantity: String, CaseIterable, Sendable, Codable {
    /// The timestamp column `t` (``TimeUnit``).
    case time
    /// The gyroscope columns `gx,gy,gz` (``GyroscopeUnit``).
    case gyroscope
    /// The accelerometer columns `ax,ay,az` (``AccelerometerUnit``).
    case accelerometer
    /// The magnetometer columns `mx,my,mz` (``MagnetometerUnit``).
    case magnetometer

    /// The header spellings of this quantity's units.
    public var headerSpellings: [String] {
        switch self {
        case .time: TimeUnit.headerSpellings
        case .gyroscope: GyroscopeUnit.headerSpellings
        case .accelerometer: AccelerometerUnit.headerSpellings
        case .magnetometer: MagnetometerUnit.headerSpellings
        }
    }
}
