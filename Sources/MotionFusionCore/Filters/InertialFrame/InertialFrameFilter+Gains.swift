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
            rest = StepGains.gain(dt: dt, tau: restTimeConstant)
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
        /// First-order gain `1 − exp(−T/τ_a)`.
        @usableFromInline var accFirstOrder: Scalar = 1
        /// Heading gain `1 − exp(−T/τ_m)`.
        @usableFromInline var mag: Scalar = 0
        @usableFromInline var magCurrent: Scalar = 0
        @usableFromInline var magReference: Scalar = 0

        @inlinable init() {}

        @inlinable
        init(settings: Settings, dt: Scalar) {
            self.dt = dt
            tauAcc = settings.accelerometerTimeConstant
            tauMag = settings.magnetometerTimeConstant
            tauCurrent = settings.magneticCurrentTimeConstant
            tauReference = settings.magneticReferenceTimeConstant
            acc = ButterworthLowPass(tau: tauAcc, dt: dt)
            accFirstOrder = Self.gain(dt: dt, tau: tauAcc)
            mag = Self.gain(dt: dt, tau: tauMag)
            magCurrent = Self.gain(dt: dt, tau: tauCurrent)
            magReference = Self.gain(dt: dt, tau: tauReference)
        }

        @inlinable
        func matches(_ settings: Settings) -> Bool {
            tauAcc == settings.accelerometerTimeConstant && tauMag == settings.magnetometerTimeConstant
                && tauCurrent == settings.magneticCurrentTimeConstant
                && tauReference == settings.magneticReferenceTimeConstant
        }

        /// `1 − exp(−Δt/τ)`: the exact first-order step gain; 1 (no filtering) for τ ≤ 0.
        @inlinable
        static func gain(dt: Scalar, tau: Scalar) -> Scalar {
            guard tau > 0 else { return 1 }
            return 1 - Scalar.exp(-dt / tau)
        }
    }
}
