
/// The columns of a recording: the one place their names are spelled. The readers
/// (``IMUCSVReader``, ``IMURecording/read(path:timeUnit:gyroscopeUnit:accelerometerUnit:magnetometerUnit:checksUnits:maximumSamples:)``,
/// ``MotionRecorder/read(path:from:to:checksUnits:)``), ``MotionRecorder``'s header and the `motion` tool take
/// the names from here, and ``CSVReader/column(named:)`` the long names a header may use instead.
///
/// | columns | quantity | long names (any case) | header units |
/// |---|---|---|---|
/// | `t` | time | `Time` | ``TimeUnit/headerSpellings`` |
/// | `gx,gy,gz` | angular rate | `Gyroscope X` … | ``GyroscopeUnit/headerSpellings`` |
/// | `ax,ay,az` | specific force | `Accelerometer X` … | ``AccelerometerUnit/headerSpellings`` |
/// | `mx,my,mz` | magnetic field | `Magnetometer X` … | ``MagnetometerUnit/headerSpellings`` |
/// | `qw,qx,qy,qz` | reference attitude, sensor → earth, scalar first | — | — |
/// | `movement` | BROAD's scored samples (1) | — | — |
///
/// A header may write a column's unit after its name (`gx (deg/s)`, ``CSVReader/splitUnit(_:)``).
/// One file per sensor (``SensorCSVReader``) names its axes `x,y,z` (``axes``).
public enum RecordingColumns {
    /// The sample time.
    public static let time = "t"
    /// The gyroscope's axes.
    public static let gyroscope = ["gx", "gy", "gz"]
    /// The accelerometer's axes.
    public static let accelerometer = ["ax", "ay", "az"]
    /// The magnetometer's axes.
    public static let magnetometer = ["mx", "my", "mz"]
    /// The reference attitude's components, scalar first.
    public static let truth = ["qw", "qx", "qy", "qz"]
    /// BROAD's flag of the samples that are scored.
    public static let movement = "movement"
    /// The axes of a file with one sensor's readings (besides ``time``).
    public static let axes = ["x", "y", "z"]

    /// `t,gx,gy,gz,ax,ay,az`: what every recording has.
    public static let inertial = [time] + gyroscope + accelerometer
    /// `t,gx,gy,gz,ax,ay,az,mx,my,mz`: the three sensors, as ``MotionRecorder`` writes them.
    public static let sensors = inertial + magnetometer

    /// The columns of a quantity whose unit a header may give.
    public static func columns(of quantity: MeasuredQuantity) -> [String] {
        switch quantity {
        case .time: [time]
        case .gyroscope: gyroscope
        case .accelerometer: accelerometer
        case .magnetometer: magnetometer
        }
    }

    /// A header line naming `names`, with its newline.
    public static func header(_ names: [String]) -> String {
        names.joined(separator: ",") + "\n"
    }

    /// The long name a header may use for a column instead of its short one, in lower case
    /// (`gyroscope x` for `gx`), or nil for a column that has none.
    public static func longName(of name: String) -> String? {
        for quantity in MeasuredQuantity.allCases {
            let names = columns(of: quantity)
            guard let axis = names.firstIndex(of: name) else { continue }
            return quantity == .time ? "time" : "\(quantity.rawValue) \(axes[axis])"
        }
        return nil
    }
}
