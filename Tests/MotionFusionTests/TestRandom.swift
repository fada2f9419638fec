import Foundation

@testable import MotionFusion

/// A seeded generator for tests (SplitMix64), so failures reproduce.
struct TestRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func gaussian() -> Double {
        let u = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &self)
        let v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    mutating func gaussianVector() -> SIMD3<Double> {
        SIMD3(gaussian(), gaussian(), gaussian())
    }

    mutating func rotation() -> Quaternion<Double> {
        Quaternion(w: gaussian(), x: gaussian(), y: gaussian(), z: gaussian()).normalized()
    }
}
