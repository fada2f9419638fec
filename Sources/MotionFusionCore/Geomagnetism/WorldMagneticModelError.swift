/// Why the World Magnetic Model cannot give the field for a request.
public enum WorldMagneticModelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An input is NaN or infinite. `parameter` names it: `latitude`, `longitude`,
    /// `heightKilometers` or `decimalYear`.
    case notFinite(parameter: String)
    /// The geodetic latitude is outside [−90°, 90°].
    case latitudeOutOfRange(degrees: Double)
    /// The longitude is outside [−360°, 360°]. Within it, longitudes are taken modulo 360°; a
    /// larger value is far more likely a mistake than a position (and beyond about 5.7e305° its
    /// conversion to radians overflows).
    case longitudeOutOfRange(degrees: Double)
    /// The height above the WGS-84 ellipsoid is outside the range the model is meant for
    /// (``WorldMagneticModel/validHeightsKilometers``).
    case heightOutOfRange(kilometers: Double, valid: ClosedRange<Double>)
    /// The date is outside the model's five-year validity (``WorldMagneticModel/validYears``);
    /// the WMM's results are invalid there.
    case dateOutOfRange(decimalYear: Double, valid: ClosedRange<Double>)
    /// The calendar date does not exist (month outside 1...12, or day outside that month).
    case invalidCalendarDate(year: Int, month: Int, day: Int)

    public var description: String {
        switch self {
        case .notFinite(let parameter): "\(parameter) is not a finite number"
        case .latitudeOutOfRange(let degrees): "latitude \(degrees)° is outside [-90°, 90°]"
        case .longitudeOutOfRange(let degrees): "longitude \(degrees)° is outside [-360°, 360°]"
        case .heightOutOfRange(let kilometers, let valid):
            "height \(kilometers) km is outside the model's range \(valid.lowerBound) km ... \(valid.upperBound) km"
        case .dateOutOfRange(let decimalYear, let valid):
            "date \(decimalYear) is outside the model's validity \(valid.lowerBound) ... \(valid.upperBound)"
        case .invalidCalendarDate(let year, let month, let day):
            "\(year)-\(month)-\(day) is not a calendar date"
        }
    }
}
