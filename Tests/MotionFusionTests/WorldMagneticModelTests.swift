import Foundation
import Testing
import RealModule

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Where the WMM files are: the official test values in ../shared/reference-data/wmm (read in place)
/// and the shipped coefficient file Reference/WMM2025.COF.
enum WMMData {
    /// The repository root: #filePath is <root>/Tests/MotionFusionTests/WorldMagneticModelTests.swift.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let testValues = root.deletingLastPathComponent()
        .appendingPathComponent("shared/reference-data/wmm/WMM2025_TEST_VALUES.txt")

    static let coefficients = root.appendingPathComponent("Reference/WMM2025.COF")

    static var testValuesAvailable: Bool { FileManager.default.fileExists(atPath: testValues.path) }

    /// True when the official-values test should run: the file is there, or CI=true (where its
    /// absence must fail, not skip).
    static var testValuesRequired: Bool {
        testValuesAvailable || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    /// One line of WMM2025_TEST_VALUES.txt (19 whitespace-separated fields; grid variation is NaN
    /// away from the poles and is not used).
    struct TestPoint {
        var decimalYear, height, latitude, longitude: Double
        var x, y, z, h, f, inclination, declination: Double
        var xDot, yDot, zDot, hDot, fDot, inclinationDot, declinationDot: Double
    }

    static func readTestPoints() throws -> [TestPoint] {
        let text = try String(contentsOf: testValues, encoding: .utf8)
        var points: [TestPoint] = []
        for (number, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(whereSeparator: \.isWhitespace).map(String.init)
            guard fields.count == 19 else {
                throw ParseError(message: "line \(number + 1): \(fields.count) fields, expected 19")
            }
            var v: [Double] = []
            for (column, field) in fields.enumerated() {
                guard let value = Double(field) else {
                    throw ParseError(message: "line \(number + 1), field \(column + 1): '\(field)'")
                }
                v.append(value)
            }
            points.append(
                TestPoint(
                    decimalYear: v[0], height: v[1], latitude: v[2], longitude: v[3],
                    x: v[4], y: v[5], z: v[6], h: v[7], f: v[8], inclination: v[9], declination: v[10],
                    xDot: v[12], yDot: v[13], zDot: v[14], hDot: v[15], fDot: v[16],
                    inclinationDot: v[17], declinationDot: v[18]))
        }
        return points
    }

    struct ParseError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

@Suite("World Magnetic Model 2025")
struct WorldMagneticModelTests {
    let model = WorldMagneticModel.wmm2025

    // MARK: - Official test values

    @Test(
        "Every official WMM2025 test point",
        .enabled(if: WMMData.testValuesRequired, "WMM2025_TEST_VALUES.txt not found at ../shared/reference-data/wmm"))
    func officialTestValues() throws {
        guard WMMData.testValuesAvailable else {
            Issue.record("CI=true but \(WMMData.testValues.path) is missing")
            return
        }
        let points = try WMMData.readTestPoints()
        #expect(points.count == 12)
        // Largest |computed − published| per quantity, over all points.
        var worst: [String: Double] = [:]
        func check(_ name: String, _ computed: Double, _ expected: Double, _ tolerance: Double, _ p: WMMData.TestPoint) {
            let deviation = abs(computed - expected)
            worst[name] = max(worst[name] ?? 0, deviation)
            #expect(
                deviation <= tolerance,
                "\(name) at \(p.decimalYear), \(p.height) km, \(p.latitude)°, \(p.longitude)°: \(computed) vs \(expected)")
        }
        for p in points {
            let e = try model.field(
                latitude: p.latitude, longitude: p.longitude, heightKilometers: p.height, decimalYear: p.decimalYear)
            check("X", e.north, p.x, 1, p)
            check("Y", e.east, p.y, 1, p)
            check("Z", e.down, p.z, 1, p)
            check("H", e.horizontalIntensity, p.h, 1, p)
            check("F", e.totalIntensity, p.f, 1, p)
            check("I", e.inclinationDegrees, p.inclination, 0.01, p)
            check("D", e.declinationDegrees, p.declination, 0.01, p)
            // The rates are published to 0.1 nT/yr and 0.01°/yr, so rounding alone is ≤ 0.05 and
            // ≤ 0.005; the tolerances leave a little room for the last printed digit.
            let r = e.yearlyRates
            check("Xdot", r.north, p.xDot, 0.06, p)
            check("Ydot", r.east, p.yDot, 0.06, p)
            check("Zdot", r.down, p.zDot, 0.06, p)
            check("Hdot", r.horizontalIntensity, p.hDot, 0.06, p)
            check("Fdot", r.totalIntensity, p.fDot, 0.06, p)
            check("Idot", r.inclinationDegrees, p.inclinationDot, 0.006, p)
            check("Ddot", r.declinationDegrees, p.declinationDot, 0.006, p)
        }
        let report = worst.keys.sorted().map { "\($0) \(worst[$0]!)" }.joined(separator: ", ")
        print("WMM2025 largest deviations from the official test values: \(report)")
        // Stronger than required: every value agrees to the precision it is printed with (0.1 nT,
        // 0.01°, 0.1 nT/yr, 0.01°/yr), i.e. within half a unit of the last digit.
        for name in ["X", "Y", "Z", "H", "F", "Xdot", "Ydot", "Zdot", "Hdot", "Fdot"] {
            #expect(worst[name, default: .infinity] <= 0.0501, "\(name): \(report)")
        }
        for name in ["I", "D", "Idot", "Ddot"] {
            #expect(worst[name, default: .infinity] <= 0.00501, "\(name): \(report)")
        }
    }

    // MARK: - Shipped coefficients

    @Test("The generated coefficient file matches Reference/WMM2025.COF exactly")
    func coefficientsMatchCOF() throws {
        let text = try String(contentsOf: WMMData.coefficients, encoding: .ascii)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines[0].split(whereSeparator: \.isWhitespace).map(String.init)
        let table = WorldMagneticModel.CoefficientTable.wmm2025
        #expect(header == [String(table.epoch), table.name, table.releaseDate])
        #expect(Double(header[0]) == table.epoch)

        var terms: [WorldMagneticModel.CoefficientTable.Term] = []
        var endLines = 0
        for line in lines.dropFirst() where !line.isEmpty {
            if line.allSatisfy({ $0 == "9" }) {
                endLines += 1
                continue
            }
            let f = line.split(whereSeparator: \.isWhitespace).map(String.init)
            try #require(f.count == 6, "bad line '\(line)'")
            let n = try #require(Int(f[0])), m = try #require(Int(f[1]))
            let v = try f[2...].map { try #require(Double($0), "'\($0)' in '\(line)'") }
            terms.append(.init(n: n, m: m, g: v[0], h: v[1], gDot: v[2], hDot: v[3]))
        }
        #expect(endLines == 2)
        #expect(terms.count == 90)
        #expect(table.terms.count == terms.count)
        for (shipped, parsed) in zip(table.terms, terms) {
            // Bit for bit, so that even the sign of a zero (the file has -0.0) is checked.
            let same =
                shipped.n == parsed.n && shipped.m == parsed.m
                && shipped.g.bitPattern == parsed.g.bitPattern && shipped.h.bitPattern == parsed.h.bitPattern
                && shipped.gDot.bitPattern == parsed.gDot.bitPattern
                && shipped.hDot.bitPattern == parsed.hDot.bitPattern
            #expect(same, "shipped \(shipped) vs COF \(parsed)")
        }
        #expect(model.name == "WMM-2025")
        #expect(model.epoch == 2025.0)
        #expect(model.validYears == 2025.0...2030.0)
        #expect(model.maximumDegree == 12)
    }

    // MARK: - Errors

    @Test("Out-of-range and non-finite inputs throw")
    func errors() {
        func error(
            latitude: Double = 45, longitude: Double = 10, height: Double = 0, year: Double = 2026
        ) -> WorldMagneticModelError? {
            do {
                _ = try model.field(
                    latitude: latitude, longitude: longitude, heightKilometers: height, decimalYear: year)
                return nil
            } catch {
                return error
            }
        }
        #expect(error() == nil)
        #expect(error(latitude: 91) == .latitudeOutOfRange(degrees: 91))
        #expect(error(latitude: -90.000001) == .latitudeOutOfRange(degrees: -90.000001))
        #expect(error(latitude: .nan) == .notFinite(parameter: "latitude"))
        #expect(error(longitude: .infinity) == .notFinite(parameter: "longitude"))
        #expect(error(height: .nan) == .notFinite(parameter: "heightKilometers"))
        #expect(error(year: .nan) == .notFinite(parameter: "decimalYear"))
        #expect(error(year: 2040) == .dateOutOfRange(decimalYear: 2040, valid: 2025...2030))
        #expect(error(year: 2024.999) == .dateOutOfRange(decimalYear: 2024.999, valid: 2025...2030))
        #expect(error(height: 851) == .heightOutOfRange(kilometers: 851, valid: -10...850))
        #expect(error(height: -10.5) == .heightOutOfRange(kilometers: -10.5, valid: -10...850))
        // The ends of every range are accepted; longitudes outside ±180° are used modulo 360°.
        #expect(error(year: 2025) == nil)
        #expect(error(year: 2030) == nil)
        #expect(error(height: -10) == nil)
        #expect(error(height: 850) == nil)
        #expect(error(latitude: 90) == nil)
        #expect(error(latitude: -90) == nil)
        #expect(throws: WorldMagneticModelError.notFinite(parameter: "latitude")) {
            try model.fieldENU(latitude: .nan, longitude: 0, heightKilometers: 0, decimalYear: 2026)
        }
        #expect(WorldMagneticModelError.latitudeOutOfRange(degrees: 91).description.contains("91"))
    }

    @Test("A finite longitude outside ±360° throws, and every accepted one gives a finite field")
    func longitudeRange() throws {
        // 1e308 · π overflowed to infinity in the radians, and the field came out NaN.
        for longitude in [1e308, -1e308, 360.000001, -400, .greatestFiniteMagnitude] {
            #expect(throws: WorldMagneticModelError.longitudeOutOfRange(degrees: longitude), "\(longitude)") {
                let e = try model.field(latitude: 10, longitude: longitude, heightKilometers: 0, decimalYear: 2026)
                Issue.record("\(longitude): \(e)")
            }
        }
        for longitude in [-360.0, -359.9, -180, 0, 180, 359.9, 360] {
            let e = try model.field(latitude: 10, longitude: longitude, heightKilometers: 0, decimalYear: 2026)
            #expect(e.totalIntensity.isFinite && e.declinationDegrees.isFinite, "\(longitude)")
        }
        let a = try model.field(latitude: 10, longitude: -360, heightKilometers: 0, decimalYear: 2026)
        let b = try model.field(latitude: 10, longitude: 360, heightKilometers: 0, decimalYear: 2026)
        #expect(abs(a.north - b.north) < 1e-6 && abs(a.east - b.east) < 1e-6 && abs(a.down - b.down) < 1e-6)
    }

    @Test("Longitudes that differ by 360° give the same field")
    func longitudeWraps() throws {
        let a = try model.field(latitude: -33.9, longitude: 151.2, heightKilometers: 0.05, decimalYear: 2027.3)
        let b = try model.field(latitude: -33.9, longitude: 151.2 - 360, heightKilometers: 0.05, decimalYear: 2027.3)
        #expect(abs(a.north - b.north) < 1e-6 && abs(a.east - b.east) < 1e-6 && abs(a.down - b.down) < 1e-6)
    }

    // MARK: - Decimal year

    @Test("Calendar dates to decimal years, as NOAA computes them")
    func decimalYears() throws {
        #expect(try WorldMagneticModel.decimalYear(year: 2025, month: 1, day: 1) == 2025.0)
        // 2026 is not a leap year: 2 July is day 31+28+31+30+31+30+2 = 183.
        #expect(try WorldMagneticModel.decimalYear(year: 2026, month: 7, day: 2) == 2026 + 182.0 / 365)
        #expect(try WorldMagneticModel.decimalYear(year: 2026, month: 12, day: 31) == 2026 + 364.0 / 365)
        // 2028 is a leap year: 2 July is day 184 of 366, and 29 February exists.
        #expect(try WorldMagneticModel.decimalYear(year: 2028, month: 7, day: 2) == 2028 + 183.0 / 366)
        #expect(try WorldMagneticModel.decimalYear(year: 2028, month: 3, day: 1) == 2028 + 60.0 / 366)
        #expect(try WorldMagneticModel.decimalYear(year: 2028, month: 2, day: 29) == 2028 + 59.0 / 366)
        #expect(try WorldMagneticModel.decimalYear(year: 2000, month: 12, day: 31) == 2000 + 365.0 / 366)
        #expect(try WorldMagneticModel.decimalYear(year: 2030, month: 1, day: 1) == 2030.0)
        // Gregorian rules: 2100 and 1900 are not leap years, 2000 is.
        #expect(try WorldMagneticModel.decimalYear(year: 2000, month: 2, day: 29) == 2000 + 59.0 / 366)
        #expect(throws: WorldMagneticModelError.invalidCalendarDate(year: 2100, month: 2, day: 29)) {
            try WorldMagneticModel.decimalYear(year: 2100, month: 2, day: 29)
        }
        #expect(throws: WorldMagneticModelError.invalidCalendarDate(year: 2026, month: 2, day: 29)) {
            try WorldMagneticModel.decimalYear(year: 2026, month: 2, day: 29)
        }
        #expect(throws: WorldMagneticModelError.self) { try WorldMagneticModel.decimalYear(year: 2026, month: 13, day: 1) }
        #expect(throws: WorldMagneticModelError.self) { try WorldMagneticModel.decimalYear(year: 2026, month: 0, day: 1) }
        #expect(throws: WorldMagneticModelError.self) { try WorldMagneticModel.decimalYear(year: 2026, month: 4, day: 31) }
        #expect(throws: WorldMagneticModelError.self) { try WorldMagneticModel.decimalYear(year: 2026, month: 4, day: 0) }
    }

    // MARK: - Poles

    @Test("The geographic poles give finite values, continuous with the nearby field", arguments: [90.0, -90.0])
    func poles(latitude: Double) throws {
        let sign = latitude > 0 ? 1.0 : -1.0
        var horizontalECEF: [SIMD2<Double>] = []
        var reference: MagneticFieldElements?
        for longitude in [0.0, 37.5, 90, 180, -120] {
            let e = try model.field(latitude: latitude, longitude: longitude, heightKilometers: 0, decimalYear: 2026.5)
            for value in [
                e.north, e.east, e.down, e.horizontalIntensity, e.totalIntensity, e.inclinationDegrees,
                e.declinationDegrees, e.yearlyRates.north, e.yearlyRates.east, e.yearlyRates.down,
                e.yearlyRates.declinationDegrees, e.yearlyRates.inclinationDegrees,
            ] {
                #expect(value.isFinite)
            }
            #expect(e.totalIntensity > 50_000)  // about 56–58 µT near the geographic poles
            // H, Z, F and I do not depend on the longitude at the pole.
            if let reference {
                #expect(abs(e.horizontalIntensity - reference.horizontalIntensity) < 1e-6)
                #expect(abs(e.down - reference.down) < 1e-6)
                #expect(abs(e.totalIntensity - reference.totalIntensity) < 1e-6)
            } else {
                reference = e
            }
            // X and Y are along the meridian of `longitude`; in earth-fixed (ECEF) x, y the
            // horizontal field must be the same for every longitude. At the north pole, north
            // points along −(cos λ, sin λ); at the south pole along +(cos λ, sin λ).
            let l = longitude * .pi / 180
            let northAxis = -sign * SIMD2(cos(l), sin(l))
            let eastAxis = SIMD2(-sin(l), cos(l))
            horizontalECEF.append(e.north * northAxis + e.east * eastAxis)

            // Continuity: a point 1e-7° (about 1 cm) from the pole on the same meridian.
            let near = try model.field(
                latitude: latitude - sign * 1e-7, longitude: longitude, heightKilometers: 0, decimalYear: 2026.5)
            #expect(abs(near.north - e.north) < 0.01)
            #expect(abs(near.east - e.east) < 0.01)
            #expect(abs(near.down - e.down) < 0.01)
        }
        for v in horizontalECEF {
            #expect(abs(v.x - horizontalECEF[0].x) < 1e-6 && abs(v.y - horizontalECEF[0].y) < 1e-6, "\(horizontalECEF)")
        }
    }

    // MARK: - Frames and units

    @Test("The ENU convenience is (Y, X, −Z) / 1000 in µT, and the other frames agree")
    func frames() throws {
        let e = try model.field(latitude: 52.2, longitude: 0.1, heightKilometers: 0.02, decimalYear: 2026.0)
        let enu = try model.fieldENU(latitude: 52.2, longitude: 0.1, heightKilometers: 0.02, decimalYear: 2026.0)
        #expect(enu == SIMD3(e.east, e.north, -e.down) / 1000)
        #expect(e.microtesla(in: .ned) == SIMD3(e.north, e.east, e.down) / 1000)
        #expect(e.microtesla(in: .nwu) == SIMD3(e.north, -e.east, -e.down) / 1000)
        // In Cambridge (UK) the field points down and mostly north, about 49 µT in total.
        #expect(enu.y > 15 && enu.z < -40)
        #expect(abs(((enu * enu).sum()).squareRoot() * 1000 - e.totalIntensity) < 1e-6)
        #expect(abs(e.inclination - e.inclinationDegrees * .pi / 180) < 1e-15)
        #expect(abs(e.declination - Double.atan2(y: e.east, x: e.north)) < 1e-15)
    }

    @Test("Elements derived from a field vector are consistent")
    func elementsFromVector() throws {
        let e = MagneticFieldElements(north: 3000, east: -4000, down: 12000, northRate: 10, eastRate: 5, downRate: -20)
        #expect(e.horizontalIntensity == 5000)
        #expect(e.totalIntensity == 13000)
        #expect(abs(e.declinationDegrees - Double.atan2(y: -4000, x: 3000) * 180 / .pi) < 1e-12)
        #expect(abs(e.inclinationDegrees - Double.atan2(y: 12000, x: 5000) * 180 / .pi) < 1e-12)
        // Rates against central finite differences over ±0.5 year.
        let before = MagneticFieldElements(north: 2995, east: -4002.5, down: 12010)
        let after = MagneticFieldElements(north: 3005, east: -3997.5, down: 11990)
        #expect(abs(e.yearlyRates.horizontalIntensity - (after.horizontalIntensity - before.horizontalIntensity)) < 1e-3)
        #expect(abs(e.yearlyRates.totalIntensity - (after.totalIntensity - before.totalIntensity)) < 1e-3)
        #expect(abs(e.yearlyRates.declinationDegrees - (after.declinationDegrees - before.declinationDegrees)) < 1e-6)
        #expect(abs(e.yearlyRates.inclinationDegrees - (after.inclinationDegrees - before.inclinationDegrees)) < 1e-6)
        // A vertical field (a dip pole) has declination 0 and no division by zero.
        let vertical = MagneticFieldElements(north: 0, east: 0, down: -50000, northRate: 1, eastRate: 1, downRate: 1)
        #expect(vertical.declinationDegrees == 0 && vertical.inclinationDegrees == -90)
        #expect(vertical.yearlyRates.declinationDegrees == 0 && vertical.yearlyRates.horizontalIntensity == 0)
        let data = try JSONEncoder().encode(e)
        #expect(try JSONDecoder().decode(MagneticFieldElements.self, from: data) == e)
    }

    @Test("The secular variation is linear in time, matching the model's rates")
    func secularVariation() throws {
        let a = try model.field(latitude: 40, longitude: -105, heightKilometers: 1.6, decimalYear: 2026)
        let b = try model.field(latitude: 40, longitude: -105, heightKilometers: 1.6, decimalYear: 2027)
        // X, Y, Z are linear in t (the coefficients are), so one year's change equals the rate.
        #expect(abs((b.north - a.north) - a.yearlyRates.north) < 1e-9)
        #expect(abs((b.east - a.east) - a.yearlyRates.east) < 1e-9)
        #expect(abs((b.down - a.down) - a.yearlyRates.down) < 1e-9)
        #expect(a.yearlyRates.north == b.yearlyRates.north)
    }
}
