/// An orientation filter: fuses gyroscope, accelerometer and (optionally) magnetometer samples into
/// an attitude, one time step at a time.
///
/// Inputs, at every call: gyroscope in rad/s, accelerometer as specific force in m/s² (reads about
/// +9.81 along the axis pointing up at rest; any scale works, only the direction is used),
/// magnetometer in µT (only its direction is used), `dt` in seconds. The attitude quaternion maps
/// sensor-frame vectors to the filter's ``EarthFrame``.
///
/// Bad input never produces a NaN attitude; every conforming filter:
/// - integrates nothing when `dt` is zero, negative or not finite, or the gyroscope has a NaN or
///   infinite component (the attitude is held);
/// - skips the accelerometer correction when the accelerometer is zero, non-finite or flagged
///   saturated;
/// - skips the magnetometer correction (a 6D step) when the magnetometer is nil, zero or non-finite.
///
/// Conforming types are value types with `@inlinable` updates that allocate nothing. Use them directly
/// for full control, or through ``FusionStream`` for timestamps, bias estimation and derived outputs.
public protocol AttitudeFilter<Scalar>: Sendable {
    /// The floating-point type of the computation.
    associatedtype Scalar: FusionScalar

    /// The earth frame of ``quaternion``.
    var frame: EarthFrame { get }

    /// The current attitude: sensor → ``frame``, unit length.
    var quaternion: Quaternion<Scalar> { get }

    /// The filter's own gyroscope bias estimate (rad/s), zero for filters that have none.
    var gyroscopeBias: SIMD3<Scalar> { get }

    /// True while the filter's own rest detector sees the sensor at rest (false for filters without
    /// one); ``FusionStream`` reports it as ``FusionFlags/restDetected``.
    var isRestDetected: Bool { get }

    /// True once the filter has an attitude (after ``initialize(accelerometer:magnetometer:)``,
    /// ``reset(to:)``, or its first update with a usable accelerometer).
    var isInitialized: Bool { get }

    /// Sets the attitude (sensor → ``frame``; normalized) and marks the filter initialized. The bias
    /// estimate is kept.
    mutating func reset(to attitude: Quaternion<Scalar>)

    /// Sets the attitude from one accelerometer (and magnetometer) sample: tilt from gravity, heading
    /// from the magnetometer or, without one, zero yaw (``AttitudeInitializer``). Returns false, and
    /// changes nothing, when the accelerometer has no usable direction.
    @discardableResult
    mutating func initialize(
        accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?
    ) -> Bool

    /// One time step. If the filter is not initialized yet, the sample initializes it instead.
    mutating func update(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?,
        dt: Scalar)

    /// The magnetometer's calibration changed (``FusionStream``'s online calibration accepted a new
    /// fit): what the filter learned about the field it saw before (a reference norm and dip, a
    /// verdict on the field) no longer holds. The default does nothing.
    mutating func magnetometerCalibrationChanged()
}

extension AttitudeFilter {
    /// Nothing: by default a filter keeps no knowledge of the field.
    @inlinable
    public mutating func magnetometerCalibrationChanged() {}

    /// False: by default a filter has no rest detector.
    @inlinable
    public var isRestDetected: Bool { false }

    /// The attitude as a Core Motion-style ``Attitude`` (device → ``frame``).
    @inlinable
    public var attitude: Attitude<Scalar> { Attitude(unitQuaternion: quaternion) }
}

