import ArgumentParser
import MotionFusion

/// `motion declination`: the World Magnetic Model 2025 at a place and date.
struct DeclinationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "declination",
        abstract: "Magnetic declination, inclination and field strength from the World Magnetic Model 2025.",
        discussion: """
            Declination is the angle from true north to magnetic north, positive east; inclination \
            (dip) is positive downward. Valid 2025.0–2030.0, −10 to 850 km above the WGS-84 ellipsoid.
            """)

    // `.unconditional`: the value may start with a minus sign (south, west, below the ellipsoid).
    @Option(parsing: .unconditional, help: "Geodetic latitude, degrees (north positive), e.g. --latitude -33.87.")
    var latitude: Double

    @Option(parsing: .unconditional, help: "Longitude, degrees (east positive), −360...360.")
    var longitude: Double

    @Option(parsing: .unconditional, help: "Height above the WGS-84 ellipsoid, km (−10...850).")
    var heightKm: Double = 0

    @Option(help: "Date YYYY-MM-DD (default: today).")
    var date: String?

    func run() throws {
        print(try report(), terminator: "")
    }

    /// What `run` prints.
    func report() throws -> String {
        let year = try decimalYear(date)
        let field: MagneticFieldElements
        do {
            field = try WorldMagneticModel.wmm2025.field(
                latitude: latitude, longitude: longitude, heightKilometers: heightKm, decimalYear: year)
        } catch {
            throw CommandFailure("\(error)")
        }
        return """
            WMM2025 at \(latitude)°, \(longitude)°, \(heightKm) km, decimal year \(format(year, digits: 4))
              declination      \(format(field.declinationDegrees, digits: 3))°
              inclination      \(format(field.inclinationDegrees, digits: 3))°
              total intensity  \(format(field.totalIntensity, digits: 1)) nT
              horizontal       \(format(field.horizontalIntensity, digits: 1)) nT
              north, east, down  \(format(field.north, digits: 1)), \(format(field.east, digits: 1)), \(format(field.down, digits: 1)) nT

            """
    }
}
