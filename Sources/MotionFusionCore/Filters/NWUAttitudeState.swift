/// The attitude state every filter keeps: sensor → NWU, and whether it has been set. Holds the
/// ``AttitudeFilter/reset(to:)`` and ``AttitudeFilter/initialize(accelerometer:magnetometer:)``
/// logic the filters share.
@frozen @usableFromInline
struct NWUAttitudeState<Scalar: FusionScalar>: Sendable {
    @usableFromInline var q: Quaternion<Scalar> = .identity
    @usableFromInline var initialized = false

    @inlinable init() {}

    /// Sets the attitude from one given in `frame` (normalized).
    @inlinable
    mutating func reset(to attitude: Quaternion<Scalar>, in frame: EarthFrame) {
        q = (frame.fromNWU(Scalar.self).conjugate * attitude).normalized()
        initialized = true
    }

    /// Sets the attitude from one accelerometer (and magnetometer) sample; false when the
    /// accelerometer has no usable direction (nothing changes then).
    @inlinable
    mutating func initialize(accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?) -> Bool {
        guard let start = AttitudeInitializer.nwu(accelerometer: accelerometer, magnetometer: magnetometer)
        else { return false }
        q = start
        initialized = true
        return true
    }
}
