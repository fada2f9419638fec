
/// The kinds of IIO channel ``IIODevice`` reads, named as in the kernel's sysfs files
/// (`in_<type>_x_raw`).
public enum IIOChannelType: String, CaseIterable, Sendable, Codable {
    /// Accelerometer (`in_accel_*`). The kernel reports m/s²; so does ``IIODevice/read(_:)``.
    case accelerometer = "accel"
    /// Gyroscope (`in_anglvel_*`). The kernel reports rad/s; so does ``IIODevice/read(_:)``.
    case gyroscope = "anglvel"
    /// Magnetometer (`in_magn_*`). The kernel reports gauss; ``IIODevice/read(_:)`` returns µT.
    case magnetometer = "magn"

    /// The factor from the kernel's unit for this type to the library's unit: 1 for m/s² and
    /// rad/s, 100 for gauss → µT.
    public var toLibraryUnit: Double {
        switch self {
        case .accelerometer, .gyroscope: 1
        case .magnetometer: 100
        }
    }
}
