/// ``InertialFrameFilter``'s low-pass of the specific force in the almost inertial frame I, with its
/// start-up: a second-order Butterworth (delay τ_a) of the correction steps' averages, whose output
/// for the first τ_a seconds is instead the running mean of those averages, so that a start in
/// motion converges in τ_a, not in several τ_a.
@frozen @usableFromInline
struct InertialAccelerometerLowPass<Scalar: FusionScalar>: Sendable {
    /// The Butterworth filter's state.
    @usableFromInline var state1: SIMD3<Scalar> = .zero
    @usableFromInline var state2: SIMD3<Scalar> = .zero
    /// Whether an average has set the state (false: the next one does).
    @usableFromInline var isSeeded = false
    /// Whether the output is still the running mean (the first τ_a seconds).
    @usableFromInline var isStarting = false
    /// Seconds averaged into the running mean, and the mean.
    @usableFromInline var startTime: Scalar = 0
    @usableFromInline var startMean: SIMD3<Scalar> = .zero

    @inlinable init() {}

    /// Starts again from the next average (after the attitude was replaced, the state is in a frame
    /// that no longer exists).
    @inlinable mutating func restart() { isSeeded = false }

    /// The output after the correction step's average `inertial` (in I) over `interval` seconds,
    /// with the step's `filter` (``ButterworthLowPass`` for that interval and τ_a = `timeConstant`).
    /// A non-finite state starts the filter again from `inertial`.
    @inlinable
    mutating func step(
        _ inertial: SIMD3<Scalar>, interval: Scalar, filter: ButterworthLowPass<Scalar>, timeConstant: Scalar
    ) -> SIMD3<Scalar> {
        if isSeeded && isStarting && VectorCheck.isFinite(startMean) {
            startTime += interval
            startMean += (inertial - startMean) * (interval / startTime)
            (state1, state2) = filter.steadyState(startMean)
            // Once: changing τ_a later does not restart the mean.
            isStarting = startTime < timeConstant
            return startMean
        }
        if isSeeded && VectorCheck.isFinite(state1 + state2) {
            return filter.step(inertial, &state1, &state2)
        }
        (state1, state2) = filter.steadyState(inertial)
        startTime = interval
        startMean = inertial
        isStarting = true
        isSeeded = true
        return inertial
    }
}
