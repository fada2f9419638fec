import MotionFusionCore

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
