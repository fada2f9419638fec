/// ``InertialFrameFilter``'s test of whether the magnetometer sees the earth's field at all, or a
/// field that turns with the sensor: an uncalibrated magnetometer's hard iron (a phone's raw
/// magnetometer reads 500–850 µT of it against the earth's 47 µT) or a magnet carried with the
/// device.
///
/// The earth's field is fixed in the almost inertial frame I (the strapdown frame, which the
/// gyroscope keeps still over seconds) and turns in the sensor frame as the sensor turns; a field
/// fixed to the sensor does the opposite. At each correction step the averaged field is seen in
/// both frames, and each is compared with its own low-pass over ``lowPassTime``: the mean square
/// deviation in I (`V_I`) and in the sensor frame (`V_S`), each averaged over ``averagingTime``.
/// A field that is mostly the earth's moves in the sensor frame and not in I (`V_I ≪ V_S`); one
/// dominated by a sensor-fixed part moves in I and not in the sensor frame (`V_S ≪ V_I`); a field
/// that changes by itself (a magnet moved near the device) moves in both. The field turns with the
/// sensor once `V_S < ratio · V_I` (``ratio`` = 0.25: the fixed part is at least about two thirds
/// of the field), and is usable again once `V_I < ratio · V_S`; in between (a field that changes,
/// or one whose fixed part is comparable with the earth's) the verdict is kept, and the norm-and-dip
/// test judges the field as before. Only rotation tells the two apart: the verdict is
/// updated only while `V_I + V_S` exceeds `(0.05 |m|)²`, that is while the sensor turns enough to
/// move a fixed field by 5 % of its length (about 3°) within ``lowPassTime``; otherwise it is kept.
/// It starts false (the field is used).
///
/// The limit: I drifts at the gyroscope's residual bias b, which moves the earth's field in I as a
/// turn at the rate b moves a fixed field, so while a sensor whose bias is unknown and large turns
/// slower than about twice it, the earth's field can be judged to turn with the sensor (and the
/// heading left to the gyroscope). Requiring turns faster than twice `biasLimit` (20°/s) before
/// judging was tried and was worse on every set of recordings here (<doc:InertialFrameFiltering>
/// gives the figures).
@frozen @usableFromInline
struct SensorFixedFieldTest<Scalar: FusionScalar>: Sendable {
    /// s: the low-pass against which each frame's deviation is taken.
    @usableFromInline static var lowPassTime: Scalar { 1 }
    /// s: the averaging of the squared deviations.
    @usableFromInline static var averagingTime: Scalar { 4 }
    /// The largest `V_I / V_S` of a usable field.
    @usableFromInline static var ratio: Scalar { 0.25 }

    @usableFromInline var inertial: SIMD3<Scalar> = .zero  // low-pass of the field in I
    @usableFromInline var sensor: SIMD3<Scalar> = .zero  // low-pass of the field in the sensor frame
    @usableFromInline var inertialVariance: Scalar = 0
    @usableFromInline var sensorVariance: Scalar = 0
    @usableFromInline var seeded = false
    /// The verdict: the field turns with the sensor, and carries no heading.
    @usableFromInline var turnsWithSensor = false

    @inlinable init() {}

    /// One correction step: `inertialField` is the step's averaged field in I (µT), `strapdown` the
    /// rotation sensor → I; `lowPass` and `averaging` are the first-order gains of ``lowPassTime``
    /// and ``averagingTime`` for the step's length. Returns the verdict.
    @inlinable @discardableResult
    mutating func step(
        inertialField m: SIMD3<Scalar>, strapdown: Quaternion<Scalar>, lowPass: Scalar, averaging: Scalar
    ) -> Bool {
        let s = strapdown.inverseAct(on: m)
        guard seeded else {
            inertial = m
            sensor = s
            seeded = true
            return turnsWithSensor
        }
        let di = m - inertial
        let ds = s - sensor
        inertial += di * lowPass
        sensor += ds * lowPass
        FirstOrder.step(&inertialVariance, toward: (di * di).sum(), gain: averaging)
        FirstOrder.step(&sensorVariance, toward: (ds * ds).sum(), gain: averaging)
        let norm2 = (m * m).sum()
        if inertialVariance + sensorVariance > 0.0025 * norm2 {
            if sensorVariance < Self.ratio * inertialVariance {
                turnsWithSensor = true
            } else if inertialVariance < Self.ratio * sensorVariance {
                turnsWithSensor = false
            }
        }
        return turnsWithSensor
    }

    /// Forgets the low-passes (the attitude, and so the frame I, was replaced); the verdict stays.
    @inlinable mutating func restart() {
        seeded = false
        inertialVariance = 0
        sensorVariance = 0
    }
}
