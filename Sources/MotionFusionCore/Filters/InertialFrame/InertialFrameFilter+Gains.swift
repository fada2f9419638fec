import RealModule

extension InertialFrameFilter {
    /// The rest detector's gain for one sample period, cached.
    @usableFromInline
    struct SampleGains: Sendable {
        @usableFromInline var dt: Scalar = 0
        @usableFromInline var tau: Scalar = -1
        @usableFromInline var rest: Scalar = 1

        @inlinable init() {}

        @inlinable
        init(dt: Scalar, restTimeConstant: Scalar) {
            self.dt = dt
            tau = restTimeConstant
            rest = FirstOrder.gain(dt: dt, timeConstant: restTimeConstant)
        }
    }

    /// Gains for one correction interval, cached.
    @usableFromInline
    struct StepGains: Sendable {
        @usableFromInline var dt: Scalar = 0
        @usableFromInline var tauAcc: Scalar = -1
        @usableFromInline var tauMag: Scalar = 0
        @usableFromInline var tauCurrent: Scalar = 0
        @usableFromInline var tauReference: Scalar = 0
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
            tauAcc = settings.accelerometerTimeConstant
            tauMag = settings.magnetometerTimeConstant
            tauCurrent = settings.magneticCurrentTimeConstant
            tauReference = settings.magneticReferenceTimeConstant
            acc = ButterworthLowPass(tau: tauAcc, dt: dt)
            accFirstOrder = FirstOrder.gain(dt: dt, timeConstant: tauAcc)
            mag = FirstOrder.gain(dt: dt, timeConstant: tauMag)
            magCurrent = FirstOrder.gain(dt: dt, timeConstant: tauCurrent)
            magReference = FirstOrder.gain(dt: dt, timeConstant: tauReference)
            latencyHighPass = FirstOrder.gain(dt: dt, timeConstant: MagnetometerLatency<Scalar>.highPassTime)
            fieldLowPass = FirstOrder.gain(dt: dt, timeConstant: SensorFixedFieldTest<Scalar>.lowPassTime)
            fieldAveraging = FirstOrder.gain(dt: dt, timeConstant: SensorFixedFieldTest<Scalar>.averagingTime)
        }

        @inlinable
        func matches(_ settings: Settings) -> Bool {
            tauAcc == settings.accelerometerTimeConstant && tauMag == settings.magnetometerTimeConstant
                && tauCurrent == settings.magneticCurrentTimeConstant
                && tauReference == settings.magneticReferenceTimeConstant
        }
    }
}
