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
