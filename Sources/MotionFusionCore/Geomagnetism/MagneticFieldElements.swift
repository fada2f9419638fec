import RealModule

/// The geomagnetic field at one place and time: the seven magnetic elements of the World Magnetic
/// Model and their yearly rates of change (secular variation).
///
/// The vector components are in the local **geodetic** frame of the point, in nanotesla (nT):
///
/// | element | property | meaning |
/// |---|---|---|
/// | X | ``north`` | toward **true (geographic) north**, along the meridian |
/// | Y | ``east`` | toward east |
/// | Z | ``down`` | down, along the normal to the WGS-84 ellipsoid |
/// | H | ``horizontalIntensity`` | `√(X² + Y²)` |
/// | F | ``totalIntensity`` | `√(H² + Z²)` |
/// | I | ``inclinationDegrees`` | dip below the horizontal, `atan2(Z, H)`, in [−90°, 90°]; positive when the field points down (northern magnetic hemisphere) |
/// | D | ``declinationDegrees`` | angle from true north to the horizontal field, `atan2(Y, X)`, in [−180°, 180°]; positive east |
///
/// Magnetic north is true north turned by D toward east: a compass heading plus the declination is
/// the true heading.
///
/// At a geographic pole "north" and "east" are taken along the meridian of the longitude that was
/// asked for, so X, Y and D depend on that longitude there, while H, Z, F and I do not. Where
/// H is exactly zero (at a magnetic dip pole) the declination is reported as 0.
///
/// Create values with ``WorldMagneticModel/field(latitude:longitude:heightKilometers:decimalYear:)``,
/// or from a field vector with ``init(north:east:down:northRate:eastRate:downRate:)``.
public struct MagneticFieldElements: Sendable, Hashable {
    /// X, the northward component (toward true north), in nT.
    public let north: Double
    /// Y, the eastward component, in nT.
    public let east: Double
    /// Z, the downward component, in nT.
    public let down: Double
    /// H, the horizontal intensity `√(X² + Y²)`, in nT.
    public let horizontalIntensity: Double
    /// F, the total intensity `√(X² + Y² + Z²)`, in nT.
    public let totalIntensity: Double
    /// I, the inclination (dip angle) in degrees: positive when the field points below the horizon.
    public let inclinationDegrees: Double
    /// D, the declination (magnetic variation) in degrees: the angle from true north to magnetic
    /// north, positive toward east.
    public let declinationDegrees: Double
    /// How fast each element changes, per year, according to the model's secular variation.
    public let yearlyRates: Rates

    /// The yearly rates of change of the magnetic elements (the model's secular variation).
    ///
    /// Intensities are in nT per year and angles in degrees per year. Where H is exactly zero, the
    /// rates of H and D are reported as 0.
    public struct Rates: Sendable, Hashable {
        /// dX/dt in nT per year.
        public let north: Double
        /// dY/dt in nT per year.
        public let east: Double
        /// dZ/dt in nT per year.
        public let down: Double
        /// dH/dt in nT per year.
        public let horizontalIntensity: Double
        /// dF/dt in nT per year.
        public let totalIntensity: Double
        /// dI/dt in degrees per year.
        public let inclinationDegrees: Double
        /// dD/dt in degrees per year.
        public let declinationDegrees: Double
    }

    /// Derives all elements and their rates from the field vector and its yearly rate of change.
    ///
    /// - Parameters:
    ///   - north: X, toward true north, in nT.
    ///   - east: Y, toward east, in nT.
    ///   - down: Z, down along the ellipsoid normal, in nT.
    ///   - northRate: dX/dt in nT per year.
    ///   - eastRate: dY/dt in nT per year.
    ///   - downRate: dZ/dt in nT per year.
    public init(
        north: Double, east: Double, down: Double,
        northRate: Double = 0, eastRate: Double = 0, downRate: Double = 0
    ) {
        let degreesPerRadian = 180 / Double.pi
        let h = (north * north + east * east).squareRoot()
        let f = (h * h + down * down).squareRoot()
        self.north = north
        self.east = east
        self.down = down
        horizontalIntensity = h
        totalIntensity = f
        inclinationDegrees = f > 0 ? Double.atan2(y: down, x: h) * degreesPerRadian : 0
        declinationDegrees = h > 0 ? Double.atan2(y: east, x: north) * degreesPerRadian : 0

        let hRate = h > 0 ? (north * northRate + east * eastRate) / h : 0
        let fRate = f > 0 ? (north * northRate + east * eastRate + down * downRate) / f : 0
        let iRate = f > 0 ? (h * downRate - down * hRate) / (f * f) : 0
        let dRate = h > 0 ? (north * eastRate - east * northRate) / (h * h) : 0
        yearlyRates = Rates(
            north: northRate, east: eastRate, down: downRate,
            horizontalIntensity: hRate, totalIntensity: fRate,
            inclinationDegrees: iRate * degreesPerRadian, declinationDegrees: dRate * degreesPerRadian)
    }

    /// I, the inclination in radians.
    public var inclination: Double { inclinationDegrees * .pi / 180 }

    /// D, the declination in radians (positive when magnetic north is east of true north).
    public var declination: Double { declinationDegrees * .pi / 180 }

    /// The field vector in microtesla (µT, the unit the filters use), in the given earth frame with
    /// its north axis pointing to **true** north.
    ///
    /// | frame | vector |
    /// |---|---|
    /// | ``EarthFrame/enu`` | `(Y, X, −Z) / 1000` (east, north, up) |
    /// | ``EarthFrame/nwu`` | `(X, −Y, −Z) / 1000` (north, west, up) |
    /// | ``EarthFrame/ned`` | `(X, Y, Z) / 1000` (north, east, down) |
    ///
    /// The filters' frames point to *magnetic* north, where the field has no east component; this
    /// vector is that field turned by the declination D about the vertical.
    public func microtesla(in frame: EarthFrame) -> SIMD3<Double> {
        switch frame {
        case .enu: SIMD3(east, north, -down) / 1000
        case .nwu: SIMD3(north, -east, -down) / 1000
        case .ned: SIMD3(north, east, down) / 1000
        }
    }
}

#if !hasFeature(Embedded)
extension MagneticFieldElements: Codable {}
extension MagneticFieldElements.Rates: Codable {}
#endif
