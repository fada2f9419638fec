import MotionFusion

/// Statistics of a set of vector magnitudes, for reporting calibration quality.
struct NormSpread {
    var mean = 0.0, standardDeviation = 0.0, minimum = 0.0, maximum = 0.0

    init(_ vectors: [SIMD3<Double>]) {
        let norms = vectors.map(\.length)
        guard !norms.isEmpty else { return }
        mean = norms.reduce(0, +) / Double(norms.count)
        standardDeviation = (norms.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(norms.count)).squareRoot()
        minimum = norms.min()!
        maximum = norms.max()!
    }

    var text: String {
        "mean \(format(mean, digits: 2)), std \(format(standardDeviation, digits: 3)), range "
            + "\(format(minimum, digits: 2))…\(format(maximum, digits: 2))"
    }
}
