/// The attitude implied by one accelerometer and magnetometer sample.
public enum AttitudeInitializer {
    /// The sensor → NWU attitude that makes the accelerometer (specific force) point up and, with a
    /// magnetometer, the horizontal part of the field point north (TRIAD: up = â,
    /// west = â × m̂, north = west × up). Without a magnetometer — or with one parallel to gravity —
    /// the yaw is chosen as zero: the shortest rotation that levels the accelerometer.
    ///
    /// Returns nil when the accelerometer has no usable direction (zero, NaN or infinite).
    @inlinable
    public static func nwu<Scalar: FusionScalar>(
        accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?
    ) -> Quaternion<Scalar>? {
        guard let up = VectorCheck.readingDirection(accelerometer) else { return nil }
        if let magnetometer, let m = VectorCheck.readingDirection(magnetometer),
            let west = VectorCheck.readingDirection(up.cross(m))
        {
            let north = west.cross(up)
            // Rows of the sensor → earth matrix are the earth axes seen in the sensor frame.
            return RotationMatrix(rows: north, west, up).quaternion
        }
        return try? Quaternion.rotation(from: up, to: SIMD3(0, 0, 1))
    }

    /// The same attitude in any earth frame.
    @inlinable
    public static func attitude<Scalar: FusionScalar>(
        accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?, frame: EarthFrame
    ) -> Quaternion<Scalar>? {
        nwu(accelerometer: accelerometer, magnetometer: magnetometer).map { frame.fromNWU() * $0 }
    }
}
