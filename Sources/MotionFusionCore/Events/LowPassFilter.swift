import RealModule

/// A first-order low-pass filter for vectors, specified by a time constant in seconds, with the
/// exact gain `1 − e^(−Δt/τ)` for each step, so irregular sampling is handled.
///
/// The classic use is to isolate gravity from an accelerometer: `gravity = lowPass.update(a, dt:)`.
/// The first sample seeds the state (the output equals it). A non-finite sample or `Δt` ≤ 0, NaN
/// or infinite leaves the state unchanged and returns it (a NaN never enters the state).
public struct LowPassFilter<Scalar: FusionScalar>: Sendable {
    /// τ, seconds. 0 passes the input through.
    public var timeConstant: Scalar
    /// The state: the output and whether a sample has seeded it.
    private var state = FirstOrderLowPass<Scalar>()

    /// The current output (zero before the first sample).
    public var value: SIMD3<Scalar> { state.value }
    /// True once a sample has seeded the state.
    public var isSeeded: Bool { state.seeded }

    /// A filter with time constant `timeConstant` seconds (clamped to ≥ 0).
    public init(timeConstant: Scalar) {
        self.timeConstant = max(timeConstant, 0)
    }

    /// A filter with the −3 dB cut-off `frequency` in hertz: `τ = 1 / (2π f)`.
    public init(cutoffFrequency frequency: Scalar) {
        self.init(timeConstant: frequency > 0 ? 1 / (2 * .pi * frequency) : 0)
    }

    /// Filters one sample taken `dt` seconds after the previous one and returns the output.
    @discardableResult
    public mutating func update(_ x: SIMD3<Scalar>, dt: Scalar) -> SIMD3<Scalar> {
        guard VectorCheck.isFinite(x) else { return value }
        guard state.seeded else { return state.update(x, gain: 1) }
        guard dt > 0, dt.isFinite else { return value }
        return state.update(x, gain: FirstOrder.gain(dt: dt, timeConstant: timeConstant))
    }

    /// Forgets the state; the next sample seeds it again.
    public mutating func reset() {
        state.reset()
    }
}
