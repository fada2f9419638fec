import MotionFusionCore

/// The quantities of an IMU recording whose unit a CSV header may give; a ``CSVError`` about a
/// header unit names one.
public enum MeasuredQuantity: String, CaseIterable, Sendable {
    /// The timestamp column `t` (``TimeUnit``; the columns of each quantity: ``RecordingColumns``).
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
        case .time: TimeUnit.headerSpellings.map { $0.key }
        case .gyroscope: GyroscopeUnit.headerSpellings.map { $0.key }
        case .accelerometer: AccelerometerUnit.headerSpellings.map { $0.key }
        case .magnetometer: MagnetometerUnit.headerSpellings.map { $0.key }
        }
    }
}

#if !hasFeature(Embedded)
    extension MeasuredQuantity: Codable {}
#endif
