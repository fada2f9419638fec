import RealModule

/// The World Magnetic Model (WMM): the Earth's main magnetic field at a place and time, for turning
/// magnetic headings into true headings and for the reference field of the attitude filters.
///
/// ``wmm2025`` is WMM2025 by NOAA's National Centers for Environmental Information and the British
/// Geological Survey, valid from 2025.0 to 2030.0. Its coefficients are embedded in the library; no
/// file is read at run time.
///
/// ```swift
/// let model = WorldMagneticModel.wmm2025
/// let year = try WorldMagneticModel.decimalYear(year: 2026, month: 7, day: 2)
/// let field = try model.field(latitude: 48.85, longitude: 2.35, heightKilometers: 0.1, decimalYear: year)
/// field.declinationDegrees   // magnetic north is this far east of true north
/// let b = try model.fieldENU(latitude: 48.85, longitude: 2.35, heightKilometers: 0.1, decimalYear: year)
/// // b: (east, north, up) in µT, north = true north
/// ```
///
/// ## Computation
///
/// As in the WMM technical report:
/// 1. The geodetic position (latitude φ, longitude λ, height h above the WGS-84 ellipsoid, a =
///    6378.137 km, f = 1/298.257223563) becomes geocentric spherical coordinates: radius r and
///    geocentric latitude φ′.
/// 2. The Gauss coefficients are moved from the epoch t₀ to the date t with their secular variation:
///    `g(t) = g + (t − t₀) ġ`, likewise h, with t in decimal years.
/// 3. The spherical harmonic synthesis to degree 12, with Schmidt semi-normalized associated
///    Legendre functions `Pₙᵐ(sin φ′)` and the reference radius 6371.2 km, gives the field in the
///    geocentric frame, X′ (north), Y′ (east) and Z′ (down), and, with ġ and ḣ, their yearly rates.
/// 4. X′ and Z′ are rotated by φ′ − φ into the geodetic frame, giving X, Y, Z, and then
///    H, F, I and D (see ``MagneticFieldElements``).
///
/// Y′ has a factor `1 / cos φ′`, which is singular at the geographic poles. Instead of dividing,
/// the synthesis computes `Pₙᵐ / cos φ′` directly (every `Pₙᵐ` with m ≥ 1 contains `cos φ′` as a
/// factor), so the field is finite and continuous up to and at ±90°, where it agrees with the limit
/// that NOAA's reference software evaluates with a special formula.
///
/// Heights are above the WGS-84 **ellipsoid**, not above mean sea level. The two differ by the geoid
/// height, at most about 110 m; the intensity falls by roughly 20–30 nT per km of height, so
/// using a height above sea level instead changes it by up to about 3 nT, and the angles far less.
public struct WorldMagneticModel: Sendable {
    /// WMM2025: epoch 2025.0, valid 2025.0 through 2030.0, released 13 November 2024.
    public static let wmm2025 = WorldMagneticModel(table: .wmm2025)

    /// The heights above the WGS-84 ellipsoid, in km, that ``field(latitude:longitude:heightKilometers:decimalYear:)``
    /// accepts: −10 km (NOAA's WMM software warns below this) to 850 km (the top of the altitude
    /// range the WMM is specified for).
    public static let validHeightsKilometers: ClosedRange<Double> = -10...850

    /// The model's name, as in its coefficient file (`"WMM-2025"`).
    public let name: String
    /// The epoch t₀ of the coefficients, as a decimal year (2025.0).
    public let epoch: Double
    /// The dates, in decimal years, for which the model is valid: five years from the epoch,
    /// both ends included. Other dates are rejected.
    public let validYears: ClosedRange<Double>
    /// The highest spherical harmonic degree of the model (12).
    public let maximumDegree: Int

    /// The coefficients as published, in file order.
    let table: CoefficientTable
    /// Gauss coefficients (nT) and secular variation (nT/yr), indexed by `n(n+1)/2 + m`.
    private let g: [Double], h: [Double], gDot: [Double], hDot: [Double]

    /// WGS-84 semi-major axis, km.
    static let semiMajorAxis = 6378.137
    /// WGS-84 flattening.
    static let flattening = 1 / 298.257223563
    /// The geomagnetic reference radius of the spherical harmonic expansion, km.
    static let referenceRadius = 6371.2

    init(table: CoefficientTable) {
        self.table = table
        name = table.name
        epoch = table.epoch
        validYears = table.epoch...(table.epoch + 5)
        let degree = table.terms.map { $0.n }.max() ?? 0
        maximumDegree = degree
        let count = (degree + 1) * (degree + 2) / 2
        var g = [Double](repeating: 0, count: count), h = g, gDot = g, hDot = g
        for term in table.terms {
            let i = Self.index(term.n, term.m)
            g[i] = term.g
            h[i] = term.h
            gDot[i] = term.gDot
            hDot[i] = term.hDot
        }
        self.g = g
        self.h = h
        self.gDot = gDot
        self.hDot = hDot
    }

    /// The magnetic field elements at a place and time.
    ///
    /// - Parameters:
    ///   - latitude: geodetic latitude on WGS-84, in degrees, −90...90 (north positive).
    ///   - longitude: longitude in degrees, east positive, −360...360 (it is used modulo 360°).
    ///   - heightKilometers: height above the WGS-84 ellipsoid in km, within ``validHeightsKilometers``.
    ///   - decimalYear: the date as a decimal year, within ``validYears``; see
    ///     ``decimalYear(year:month:day:)``.
    /// - Returns: X, Y, Z, H, F in nT, I and D in degrees, and their yearly rates.
    /// - Throws: ``WorldMagneticModelError`` for a non-finite input, a latitude outside ±90°, a
    ///   longitude outside ±360°, or a height or date outside the model's ranges.
    public func field(
        latitude: Double, longitude: Double, heightKilometers: Double, decimalYear: Double
    ) throws(WorldMagneticModelError) -> MagneticFieldElements {
        for (parameter, value) in [
            ("latitude", latitude), ("longitude", longitude), ("heightKilometers", heightKilometers),
            ("decimalYear", decimalYear),
        ] where !value.isFinite {
            throw .notFinite(parameter: parameter)
        }
        guard (-90...90).contains(latitude) else { throw .latitudeOutOfRange(degrees: latitude) }
        guard (-360...360).contains(longitude) else { throw .longitudeOutOfRange(degrees: longitude) }
        guard Self.validHeightsKilometers.contains(heightKilometers) else {
            throw .heightOutOfRange(kilometers: heightKilometers, valid: Self.validHeightsKilometers)
        }
        guard validYears.contains(decimalYear) else {
            throw .dateOutOfRange(decimalYear: decimalYear, valid: validYears)
        }
        return synthesize(
            latitude: latitude, longitude: longitude, height: heightKilometers,
            years: decimalYear - epoch)
    }

    /// The field vector in µT in the local east-north-up frame with **true** north:
    /// `(east, north, up) = (Y, X, −Z) / 1000`.
    ///
    /// This is ``MagneticFieldElements/microtesla(in:)`` with ``EarthFrame/enu`` of
    /// ``field(latitude:longitude:heightKilometers:decimalYear:)``; the parameters and errors are the same.
    /// The filters' ENU frame has *magnetic* north along +y; this vector is turned from it by the
    /// declination.
    public func fieldENU(
        latitude: Double, longitude: Double, heightKilometers: Double, decimalYear: Double
    ) throws(WorldMagneticModelError) -> SIMD3<Double> {
        try field(
            latitude: latitude, longitude: longitude, heightKilometers: heightKilometers,
            decimalYear: decimalYear
        ).microtesla(in: .enu)
    }

    /// The decimal year of a calendar day, as NOAA's WMM software computes it:
    /// `year + (dayOfYear − 1) / daysInYear`, with `dayOfYear` = 1 on 1 January and `daysInYear`
    /// = 366 in leap years (Gregorian rules) and 365 otherwise.
    ///
    /// So 1 January 2025 is exactly 2025.0, and 2 July 2026 (day 183 of 365) is 2026 + 182/365.
    /// The day is taken at 0:00; the time of day is not part of NOAA's convention.
    ///
    /// - Throws: ``WorldMagneticModelError/invalidCalendarDate(year:month:day:)`` when the month is
    ///   outside 1...12 or the day does not exist in that month.
    public static func decimalYear(year: Int, month: Int, day: Int) throws(WorldMagneticModelError) -> Double {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let monthLengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...monthLengths[month - 1]).contains(day) else {
            throw .invalidCalendarDate(year: year, month: month, day: day)
        }
        let dayOfYear = monthLengths[..<(month - 1)].reduce(0, +) + day
        return Double(year) + Double(dayOfYear - 1) / Double(leap ? 366 : 365)
    }

    /// Index of the coefficient or Legendre function of degree n and order m in the flat arrays.
    static func index(_ n: Int, _ m: Int) -> Int { n * (n + 1) / 2 + m }

    /// The synthesis for validated inputs; `years` is the time from the epoch.
    private func synthesize(latitude: Double, longitude: Double, height: Double, years: Double)
        -> MagneticFieldElements
    {
        // 1. Geodetic to geocentric spherical coordinates.
        let phi = latitude * .pi / 180
        let sinPhi = Double.sin(phi)
        let cosPhi = Double.cos(phi)
        let e2 = Self.flattening * (2 - Self.flattening)
        let rc = Self.semiMajorAxis / (1 - e2 * sinPhi * sinPhi).squareRoot()
        let p = (rc + height) * cosPhi  // distance from the rotation axis
        let z = (rc * (1 - e2) + height) * sinPhi  // distance from the equatorial plane
        let r = (p * p + z * z).squareRoot()
        let x = z / r  // sin φ′
        let u = p / r  // cos φ′ ≥ 0

        // 2.–3. Legendre functions and synthesis. s[n, 0] = Pₙ⁰(x); s[n, m] = Pₙᵐ(x) / u for m ≥ 1.
        // Pₙᵐ / u obeys the same recursion in n as Pₙᵐ, only the start differs, so no division by u.
        let degree = maximumDegree
        var s = [Double](repeating: 0, count: Self.index(degree, degree) + 1)
        s[0] = 1
        for n in 1...degree {
            for m in 0...n {
                let i = Self.index(n, m)
                if m == n {
                    s[i] = n == 1 ? 1 : (Double(2 * n - 1) / Double(2 * n)).squareRoot() * u * s[Self.index(n - 1, n - 1)]
                } else {
                    let previous = Double(2 * n - 1) * x * s[Self.index(n - 1, m)]
                    let beforePrevious = n - 2 >= m
                        ? Double((n - 1) * (n - 1) - m * m).squareRoot() * s[Self.index(n - 2, m)] : 0
                    s[i] = (previous - beforePrevious) / Double(n * n - m * m).squareRoot()
                }
            }
        }

        let lambda = longitude * .pi / 180
        var cosM = [Double](repeating: 1, count: degree + 1)
        var sinM = [Double](repeating: 0, count: degree + 1)
        for m in 1...degree {
            cosM[m] = Double.cos(Double(m) * lambda)
            sinM[m] = Double.sin(Double(m) * lambda)
        }

        let ratio = Self.referenceRadius / r
        var radial = ratio * ratio  // (a/r)^(n+2), starting at n = 0
        var field = SIMD3<Double>.zero  // X′, Y′, Z′
        var rate = SIMD3<Double>.zero  // their yearly rates
        for n in 1...degree {
            radial *= ratio
            var sum = SIMD3<Double>.zero  // Σₘ of the X′, Y′, Z′ terms of degree n
            var sumRate = SIMD3<Double>.zero
            for m in 0...n {
                let i = Self.index(n, m)
                // Pₙᵐ, dPₙᵐ/dφ′ and (for m ≥ 1) Pₙᵐ / cos φ′, without dividing by cos φ′:
                // dPₙ⁰/dφ′ = √(n(n+1)/2) Pₙ¹; for m ≥ 1, dPₙᵐ/dφ′ = √(n² − m²) Qₙ₋₁ᵐ − n sin φ′ Qₙᵐ
                // with Qₙᵐ = Pₙᵐ / cos φ′.
                let legendre: Double, derivative: Double, overCos: Double
                if m == 0 {
                    legendre = s[i]
                    derivative = (Double(n * (n + 1)) / 2).squareRoot() * u * s[i + 1]
                    overCos = 0
                } else {
                    overCos = s[i]
                    legendre = u * overCos
                    let lower = n - 1 >= m ? s[Self.index(n - 1, m)] : 0
                    derivative = Double(n * n - m * m).squareRoot() * lower - Double(n) * x * overCos
                }
                let functions = SIMD3(derivative, Double(m) * overCos, legendre)
                // (g cos mλ + h sin mλ, g sin mλ − h cos mλ, g cos mλ + h sin mλ), for the
                // coefficients at the date and for their rates.
                func harmonic(_ g: Double, _ h: Double) -> SIMD3<Double> {
                    let inPhase: Double = g * cosM[m] + h * sinM[m]
                    let quadrature: Double = g * sinM[m] - h * cosM[m]
                    return SIMD3(inPhase, quadrature, inPhase)
                }
                sum += harmonic(g[i] + years * gDot[i], h[i] + years * hDot[i]) * functions
                sumRate += harmonic(gDot[i], hDot[i]) * functions
            }
            let scale = SIMD3(-radial, radial, -Double(n + 1) * radial)
            field += scale * sum
            rate += scale * sumRate
        }

        // 4. Rotate from geocentric to geodetic: by ψ = φ′ − φ about the east axis.
        let cosPsi = u * cosPhi + x * sinPhi
        let sinPsi = x * cosPhi - u * sinPhi
        func geodetic(_ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(v.x * cosPsi - v.z * sinPsi, v.y, v.x * sinPsi + v.z * cosPsi)
        }
        let b = geodetic(field)
        let bRate = geodetic(rate)
        return MagneticFieldElements(
            north: b.x, east: b.y, down: b.z, northRate: bRate.x, eastRate: bRate.y, downRate: bRate.z)
    }
}

extension WorldMagneticModel {
    /// A model's coefficients exactly as its COF file lists them (see `WMM2025Coefficients.swift`,
    /// generated from `Reference/WMM2025.COF` by `scripts/make_wmm_coefficients`).
    struct CoefficientTable: Sendable {
        /// One line of the COF file: degree n, order m, Gauss coefficients g, h (nT) and their
        /// secular variation ġ, ḣ (nT/yr).
        struct Term: Sendable, Hashable {
            var n: Int
            var m: Int
            var g: Double
            var h: Double
            var gDot: Double
            var hDot: Double
        }

        var name: String
        var epoch: Double
        var releaseDate: String
        var terms: [Term]
    }
}
