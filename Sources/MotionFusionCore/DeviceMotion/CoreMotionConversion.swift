/// The one place where the library's physical quantities become Core Motion's.
///
/// The accelerometer measures specific force `f` (at rest +1 g along the axis pointing up). Core
/// Motion reports acceleration in g with the opposite sign (lying flat, face up, it reads
/// (0, 0, −1)), and splits it into `gravity` (lying flat: (0, 0, −1)) and `userAcceleration`, whose sum
/// is the reported acceleration.
public enum CoreMotionConversion {
    /// Standard gravity, m/s² per g.
    public static let standardGravity = 9.80665

    /// Core Motion's acceleration in g from specific force in m/s²: `−f / g₀`.
    @inlinable
    public static func acceleration<S: FusionScalar>(specificForce: SIMD3<S>) -> SIMD3<S> {
        specificForce * (-1 / S(standardGravity))
    }

    /// Core Motion's gravity in g from the gravitational acceleration in the sensor frame in m/s²
    /// (``FusionOutput/gravity``, which already has Core Motion's sign).
    @inlinable
    public static func gravity<S: FusionScalar>(_ gravitationalAcceleration: SIMD3<S>) -> SIMD3<S> {
        gravitationalAcceleration * (1 / S(standardGravity))
    }

    /// Core Motion's user acceleration in g: the reported acceleration minus gravity,
    /// `−(f + gravity) / g₀`, so that `gravity + userAcceleration == acceleration(specificForce:)`.
    @inlinable
    public static func userAcceleration<S: FusionScalar>(
        specificForce: SIMD3<S>, gravitationalAcceleration: SIMD3<S>
    ) -> SIMD3<S> {
        acceleration(specificForce: specificForce) - gravity(gravitationalAcceleration)
    }
}
