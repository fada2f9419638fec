import MotionFusionCore
import RealModule

/// A small seeded random number generator (SplitMix64, Steele, Lea and Flood 2014) with uniform and
/// Gaussian draws: the same seed gives the same numbers on every platform, which the simulator, the
/// demo and the tests rely on. Not for cryptography.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [a, b).
    @inlinable
    public mutating func uniform(_ a: Double, _ b: Double) -> Double {
        a + (b - a) * Double(next() >> 11) * 0x1p-53
    }

    /// A standard normal draw (Box–Muller).
    @inlinable
    public mutating func gaussian() -> Double {
        let u = max(uniform(0, 1), Double.leastNormalMagnitude)
        let v = uniform(0, 1)
        return (-2 * Double.log(u)).squareRoot() * Double.cos(2 * .pi * v)
    }

    /// Three independent standard normal draws.
    @inlinable
    public mutating func gaussianVector() -> SIMD3<Double> {
        SIMD3(gaussian(), gaussian(), gaussian())
    }

    /// A uniformly distributed random rotation (a normalized Gaussian 4-vector).
    @inlinable
    public mutating func rotation() -> Quaternion<Double> {
        Quaternion(w: gaussian(), x: gaussian(), y: gaussian(), z: gaussian()).normalized()
    }
}
