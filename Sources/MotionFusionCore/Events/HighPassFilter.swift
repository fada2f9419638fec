import RealModule

/// A first-order high-pass filter for vectors: the input minus its ``LowPassFilter`` with the same
/// time constant, so slow components (gravity, drift) are removed and fast ones (movement, shakes)
/// pass. The first sample gives zero. Bad input is treated as by ``LowPassFilter``.
public struct HighPassFilter<Scalar: FusionScalar>: Sendable {
    /// The low-pass whose output is subtracted.
    public private(set) var lowPass: LowPassFilter<Scalar>
    /// The current output.
    public private(set) var value: SIMD3<Scalar> = .zero

    /// A filter with time constant `timeConstant` seconds.
    public init(timeConstant: Scalar) {
        lowPass = LowPassFilter(timeConstant: timeConstant)
    }

    /// A filter with the −3 dB cut-off `frequency` in hertz.
    public init(cutoffFrequency frequency: Scalar) {
        lowPass = LowPassFilter(cutoffFrequency: frequency)
    }

    /// Filters one sample and returns the output.
    @discardableResult
    public mutating func update(_ x: SIMD3<Scalar>, dt: Scalar) -> SIMD3<Scalar> {
        guard VectorCheck.isFinite(x) else { return value }
        value = x - lowPass.update(x, dt: dt)
        return value
    }

    /// Forgets the state.
    public mutating func reset() {
        lowPass.reset()
        value = .zero
    }
}
