import MotionFusion

extension SplitMix64 {
    /// A uniformly distributed unit vector.
    mutating func unitVector() -> SIMD3<Double> {
        let v = gaussianVector()
        return v / v.length
    }
}
