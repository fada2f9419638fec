import Foundation
import MotionFusionCore
import MotionFusionIO

/// The magnetic declination that turns magnetic north into true north for
/// ``AttitudeReferenceFrame/xTrueNorthZVertical``: given in degrees, or computed from the World
/// Magnetic Model (WMM2025) at a place and date.
///
/// The declination is the angle from true north to magnetic north, **in degrees, positive east** —
/// the number `motion declination` prints, that charts give and that Core Location's headings
/// imply (`trueHeading − magneticHeading`).
///
/// ```swift
/// manager.startDeviceMotionUpdates(using: .xTrueNorthZVertical, declination: .degrees(1.2))
/// manager.startDeviceMotionUpdates(
///     using: .xTrueNorthZVertical, declination: .location(latitude: 48.85, longitude: 2.35))
/// ```
public enum MagneticDeclination: Sendable, Hashable {
    /// A declination in degrees east of true north (west is negative).
    case degrees(Double)
    /// The declination from ``WorldMagneticModel/wmm2025`` at a place: geodetic latitude and
    /// longitude in degrees (north and east positive), height above the WGS-84 ellipsoid in km, and
    /// the date (nil: the moment device motion starts; only the UTC calendar day counts).
    case location(latitude: Double, longitude: Double, heightKilometers: Double = 0, date: Date? = nil)

    /// The declination in degrees east.
    ///
    /// - Throws: ``MotionManagerError/declinationNotAvailable(_:)`` for a non-finite number of
    ///   degrees, or for a place or date that ``WorldMagneticModel/field(latitude:longitude:heightKilometers:decimalYear:)``
    ///   rejects.
    public func degreesEast() throws(MotionManagerError) -> Double {
        switch self {
        case .degrees(let degrees):
            guard degrees.isFinite else { throw .declinationNotAvailable(.notFinite(parameter: "degrees")) }
            return degrees
        case .location(let latitude, let longitude, let height, let date):
            do throws(WorldMagneticModelError) {
                if let date, !date.timeIntervalSinceReferenceDate.isFinite { throw .notFinite(parameter: "date") }
                let day = Calendar(identifier: .gregorian).dateComponents(
                    in: TimeZone(identifier: "UTC")!, from: date ?? Date())
                let year = try WorldMagneticModel.decimalYear(year: day.year!, month: day.month!, day: day.day!)
                return try WorldMagneticModel.wmm2025.field(
                    latitude: latitude, longitude: longitude, heightKilometers: height, decimalYear: year
                ).declinationDegrees
            } catch {
                throw .declinationNotAvailable(error)
            }
        }
    }
}
