import MotionFusion

/// Runs one filter over an endless synthetic recording and keeps the figures a long run is judged
/// by: the largest departure of the attitude from unit length, the largest bias estimate, and the
/// orientation errors (BROAD's measures) against the truth. The samples are made in Double and
/// rounded to the filter's scalar type; the figures are kept in Double.
struct FilterSoak<Filter: AttitudeFilter> {
    typealias Scalar = Filter.Scalar
    let name: String
    var filter: Filter
    let usesMagnetometer: Bool
    /// The largest |‖q‖ − 1| the run accepts: 1e-12 in Double, 1e-6 in Float (a few ulp of each).
    let normBound: Double
    private(set) var updates = 0
    private(set) var largestNormError = 0.0
    private(set) var largestBias = 0.0
    private(set) var nonFiniteAttitudes = 0
    /// Largest total error (degrees) while moving, after the first cycle (the filter has converged).
    private(set) var largestError = 0.0
    /// Sums of squared errors (total, heading, inclination, radians²) over the last scored block.
    private var squares = SIMD3<Double>.zero
    private var scored = 0
    private(set) var lastBlockRMS = SIMD3<Double>.zero
    /// Every `errorStride`-th sample is scored (the error angles cost more than an update).
    let errorStride = 10
    let warmUp: Double

    init(name: String, filter: Filter, usesMagnetometer: Bool, warmUp: Double) {
        self.name = name
        self.filter = filter
        self.usesMagnetometer = usesMagnetometer
        self.warmUp = warmUp
        normBound = Scalar.self == Float.self ? 1e-6 : 1e-12
    }

    @inline(never)
    mutating func run(_ block: EndlessMotion.Block, dt: Double) {
        squares = .zero
        scored = 0
        for i in 0..<block.count {
            filter.update(
                gyroscope: SIMD3<Scalar>(block.gyroscope[i]), accelerometer: SIMD3<Scalar>(block.accelerometer[i]),
                magnetometer: usesMagnetometer ? SIMD3<Scalar>(block.magnetometer[i]) : nil, dt: Scalar(dt))
            let q = Quaternion<Double>(filter.quaternion)
            guard q.isFinite else {
                nonFiniteAttitudes += 1
                continue
            }
            largestNormError = max(largestNormError, abs(q.length - 1))
            let b = SIMD3<Double>(filter.gyroscopeBias)
            largestBias = max(largestBias, (b * b).sum().squareRoot())
            if i % errorStride == 0, block.moving[i], block.timestamps[i] > warmUp {
                var (total, heading, inclination) = OrientationErrors.angles(estimate: q, reference: block.truth[i])
                if !usesMagnetometer { (total, heading) = (inclination, 0) }  // 6D: heading is free
                squares += SIMD3(total * total, heading * heading, inclination * inclination)
                scored += 1
                largestError = max(largestError, total * 180 / .pi)
            }
        }
        updates += block.count
        if scored > 0 { lastBlockRMS = (squares / Double(scored)).squareRoot() * (180 / .pi) }
    }
}

extension SIMD3 where Scalar == Double {
    func squareRoot() -> SIMD3 { SIMD3(x.squareRoot(), y.squareRoot(), z.squareRoot()) }
}
