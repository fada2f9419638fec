import ArgumentParser
import Foundation
import MotionFusion

/// `motion declination`: the World Magnetic Model 2025 at a place and date.
struct DeclinationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "declination",
        abstract: "Magnetic declination, inclination and field strength from the World Magnetic Model 2025.",
        discussion: """
            Declination is the angle from true north to magnetic north, positive east; inclination \\
            (dip) is positive downward. Valid 2025.0–2030.0, −10 to 850 km above the WGS-84 ellipsoid.
            """)

    @Option(help: "Geodetic latitude, degrees (north positive).")
    var latitude: Double

    @Option(help: "Longitude, degrees (east positive).")
    var longitude: Double

    @Option(help: "Height above the WGS-84 ellipsoid, km.")
    var heightKm: Double = 0

    @Option(help: "Date YYYY-MM-DD (default: today).")
    var date: String?

    func run() throws {
        let year = try decimalYear(date)
        let field: MagneticFieldElements
        do {
            field = try WorldMagneticModel.wmm2025.field(
                latitude: latitude, longitude: longitude, heightKilometers: heightKm, decimalYear: year)
        } catch {
            throw CommandFailure("\(error)")
        }
        print("WMM2025 at \(latitude)°, \(longitude)°, \(heightKm) km, decimal year \(format(year, digits: 4))")
        print("  declination      \(format(field.declinationDegrees, digits: 3))°")
        print("  inclination      \(format(field.inclinationDegrees, digits: 3))°")
        print("  total intensity  \(format(field.totalIntensity, digits: 1)) nT")
        print("  horizontal       \(format(field.horizontalIntensity, digits: 1)) nT")
        print("  north, east, down  \(format(field.north, digits: 1)), \(format(field.east, digits: 1)), \(format(field.down, digits: 1)) nT")
    }
}
