import RealModule

extension InertialFrameFilter {
    /// The rest detector's gain for one sample period and its squared thresholds, cached: made
    /// anew when Δt changes by more than its tolerance, and when the settings are set (the filter's
    /// `settings` empties it).
    @usableFromInline
    struct SampleGains: Sendable {
        @usableFromInline var dt: Scalar = 0
        @usableFromInline var tolerance: Scalar = -1  // |Δt − dt| beyond this: made anew
        @usableFromInline var rest: Scalar = 1
        @usableFromInline var gyroscopeThreshold2: Scalar = 0
        @usableFromInline var accelerometerThreshold2: Scalar = 0

        @inlinable init() {}

        @inlinable
        init(dt: Scalar, settings: Settings) {
            self.dt = dt
            tolerance = dt * 1e-4
            rest = FirstOrder.gain(dt: dt, timeConstant: settings.restTimeConstant)
            // 0 when rest is not estimated: no deviation is below it, so nothing is ever still.
            let on: Scalar = settings.estimatesBiasAtRest ? 1 : 0
            gyroscopeThreshold2 = on * settings.restGyroscopeThreshold * settings.restGyroscopeThreshold
            accelerometerThreshold2 = on * settings.restAccelerometerThreshold * settings.restAccelerometerThreshold
        }
    }

    /// Gains for one correction interval, cached: made anew when the interval changes by more than
    /// 0.1 %, and when the settings are set (the filter's `settings` empties it).
    @usableFromInline
    struct StepGains: Sendable {
        @usableFromInline var dt: Scalar = 0
        /// The accelerometer low-pass (second-order Butterworth, τ_a).
        @usableFromInline var acc = ButterworthLowPass<Scalar>()
        /// First-order gain `1 − e^(−T/τ_a)`.
        @usableFromInline var accFirstOrder: Scalar = 1
        /// Heading gain `1 − e^(−T/τ_m)`.
        @usableFromInline var mag: Scalar = 0
        @usableFromInline var magCurrent: Scalar = 0
        @usableFromInline var magReference: Scalar = 0
        /// The magnetometer lag estimate's high-pass gain (``MagnetometerLatency/highPassTime``).
        @usableFromInline var latencyHighPass: Scalar = 0
        /// The sensor-fixed field test's gains (``SensorFixedFieldTest/lowPassTime``,
        /// ``SensorFixedFieldTest/averagingTime``).
        @usableFromInline var fieldLowPass: Scalar = 0
        @usableFromInline var fieldAveraging: Scalar = 0

        @inlinable init() {}

        @inlinable
        init(settings: Settings, dt: Scalar) {
            self.dt = dt
            acc = ButterworthLowPass(tau: settings.accelerometerTimeConstant, dt: dt)
            accFirstOrder = FirstOrder.gain(dt: dt, timeConstant: settings.accelerometerTimeConstant)
            mag = FirstOrder.gain(dt: dt, timeConstant: settings.magnetometerTimeConstant)
            magCurrent = FirstOrder.gain(dt: dt, timeConstant: settings.magneticCurrentTimeConstant)
            magReference = FirstOrder.gain(dt: dt, timeConstant: settings.magneticReferenceTimeConstant)
            latencyHighPass = FirstOrder.gain(dt: dt, timeConstant: MagnetometerLatency<Scalar>.highPassTime)
            fieldLowPass = FirstOrder.gain(dt: dt, timeConstant: SensorFixedFieldTest<Scalar>.lowPassTime)
            fieldAveraging = FirstOrder.gain(dt: dt, timeConstant: SensorFixedFieldTest<Scalar>.averagingTime)
        }
    }
}
