/// Units a magnetometer column may be recorded in.
public enum MagnetometerUnit: String, CaseIterable, Sendable {
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
}

#if !hasFeature(Embedded)
extension MagnetometerUnit: Codable {}
#endif
