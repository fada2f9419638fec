/// One raw sample from a sensor source, in the library's units: seconds on the source's clock,
/// gyroscope rad/s, accelerometer specific force m/s² (reads +9.81 along the axis pointing up at
/// rest), magnetometer µT. A sensor the source does not have, or did not sample this time, is nil.
public struct SensorSample: Sendable, Hashable {
    public var timestamp: Double
    public var gyroscope: SIMD3<Double>?
    public var accelerometer: SIMD3<Double>?
    public var magnetometer: SIMD3<Double>?
    /// When the accelerometer reading was taken, if not at ``timestamp``: a ``SampleAssembler``
    /// pairs a gyroscope reading with the latest reading of a slower sensor. nil: at ``timestamp``.
    public var accelerometerTimestamp: Double?
    /// When the magnetometer reading was taken, if not at ``timestamp`` (as
    /// ``accelerometerTimestamp``).
    public var magnetometerTimestamp: Double?

    public init(
        timestamp: Double, gyroscope: SIMD3<Double>?, accelerometer: SIMD3<Double>?, magnetometer: SIMD3<Double>?,
        accelerometerTimestamp: Double? = nil, magnetometerTimestamp: Double? = nil
    ) {
        self.timestamp = timestamp
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
        self.accelerometerTimestamp = accelerometerTimestamp == timestamp ? nil : accelerometerTimestamp
        self.magnetometerTimestamp = magnetometerTimestamp == timestamp ? nil : magnetometerTimestamp
    }
}
