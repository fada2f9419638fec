import Foundation
import Testing

@testable import MotionFusionCore
import MotionFusionSimulation

/// The bias Kalman filter's covariance update (three independent measurements used one after the
/// other) against the textbook batch update written here with plain arrays:
/// `S = H P Hᵀ + diag(w)`, `K = P Hᵀ S⁻¹` (S inverted by Gauss–Jordan elimination with partial
/// pivoting), `x = K e`, `P' = P − K H P`. In exact arithmetic the two are the same update.
@Suite("Covariance6")
struct Covariance6Tests {
    typealias Matrix = [[Double]]

    /// A symmetric positive definite 6 × 6 matrix A Aᵀ + 0.1 I with A's entries in ±1, scaled.
    static func randomCovariance(_ random: inout SplitMix64, scale: Double) -> Matrix {
        let a: Matrix = (0..<6).map { _ in (0..<6).map { _ in Double.random(in: -1...1, using: &random) } }
        return (0..<6).map { i in
            (0..<6).map { j in
                scale * (sum(6) { a[i][$0] * a[j][$0] } + (i == j ? 0.1 : 0))
            }
        }
    }

    /// `p`'s upper triangle as a `Covariance6<S>` (rounded to S).
    static func covariance<S: FusionScalar>(_ p: Matrix, as _: S.Type) -> Covariance6<S> {
        var c = Covariance6<S>(diagonal: .zero)
        for i in 0..<6 { for j in i..<6 { c[i, j] = S(p[i][j]) } }
        return c
    }

    /// A row of six as the update takes it (rounded to S), its last two lanes zero.
    static func simd<S: FusionScalar>(_ r: [Double], as _: S.Type) -> SIMD8<S> {
        SIMD8(S(r[0]), S(r[1]), S(r[2]), S(r[3]), S(r[4]), S(r[5]), 0, 0)
    }

    static func inverse(_ m: Matrix) -> Matrix {
        let n = m.count
        var a = m.enumerated().map { i, row in row + (0..<n).map { $0 == i ? 1.0 : 0.0 } }
        for column in 0..<n {
            let pivot = (column..<n).max { abs(a[$0][column]) < abs(a[$1][column]) }!
            a.swapAt(column, pivot)
            let d = a[column][column]
            a[column] = a[column].map { $0 / d }
            for row in 0..<n where row != column {
                let f = a[row][column]
                a[row] = zip(a[row], a[column]).map { $0 - f * $1 }
            }
        }
        return a.map { Array($0[n...]) }
    }

    /// The batch update of `p` with the non-zero rows among `rows`.
    static func batch(_ p: Matrix, rows: [[Double]], innovation: [Double], variance: [Double]) -> (Matrix, [Double]) {
        let used: [Int] = rows.indices.filter { rows[$0].contains { $0 != 0 } }
        let h: Matrix = used.map { rows[$0] }
        let e: [Double] = used.map { innovation[$0] }
        let m = h.count
        let ph: Matrix = (0..<6).map { i in h.map { row in sum(6) { p[i][$0] * row[$0] } } }  // 6 × m
        let s: Matrix = (0..<m).map { a in
            (0..<m).map { b in sum(6) { h[a][$0] * ph[$0][b] } + (a == b ? variance[used[a]] : 0) }
        }
        let si = inverse(s)
        let k: Matrix = (0..<6).map { i in (0..<m).map { b in sum(m) { ph[i][$0] * si[$0][b] } } }
        let x: [Double] = (0..<6).map { i in sum(m) { k[i][$0] * e[$0] } }
        let next: Matrix = (0..<6).map { i in (0..<6).map { j in p[i][j] - sum(m) { k[i][$0] * ph[j][$0] } } }
        return (next, x)
    }

    /// `term(0) + term(1) + … + term(n − 1)`, summed in that order.
    static func sum(_ n: Int, _ term: (Int) -> Double) -> Double {
        var total = 0.0
        for i in 0..<n { total += term(i) }
        return total
    }

    /// Random covariances, rows and innovations, in the filter's ranges (bias variances about 1e-5,
    /// rows of unit size, measurement variances 1e-6 to 1e-3), three rows and with the third row
    /// zero (6D): the state correction and every element of the covariance within 1e-9 of the batch
    /// update's, relative to the largest. (The stored matrix is symmetric by construction: one
    /// scalar per pair of elements.)
    @Test(arguments: [false, true])
    func sequentialUpdateEqualsTheBatchUpdate(sixD: Bool) {
        var random = SplitMix64(seed: sixD ? 61 : 63)
        for _ in 0..<200 {
            let p = Self.randomCovariance(&random, scale: 1e-5)
            var rows = (0..<3).map { _ in (0..<6).map { _ in Double.random(in: -1...1, using: &random) } }
            if sixD { rows[2] = Array(repeating: 0, count: 6) }
            let e = (0..<3).map { _ in Double.random(in: -0.01...0.01, using: &random) }
            let w = (0..<3).map { _ in pow(10, Double.random(in: -6 ... -3, using: &random)) }
            let (expected, expectedX) = Self.batch(p, rows: rows, innovation: e, variance: w)

            var c = Self.covariance(p, as: Double.self)
            let x = c.update(
                rows: Self.simd(rows[0], as: Double.self), Self.simd(rows[1], as: Double.self),
                Self.simd(rows[2], as: Double.self), innovation: SIMD3(e[0], e[1], e[2]),
                variance: SIMD3(w[0], w[1], w[2]))
            guard let x else {
                Issue.record("the update was refused")
                return
            }
            let xScale = expectedX.map(abs).max()!
            for i in 0..<6 { #expect(abs(x[i] - expectedX[i]) <= 1e-9 * xScale) }
            #expect(x[6] == 0 && x[7] == 0)
            let pScale = p.flatMap { $0 }.map(abs).max()!
            for i in 0..<6 {
                for j in 0..<6 {
                    #expect(abs(c[i, j] - expected[i][j]) <= 1e-9 * pScale)
                }
            }
        }
    }

    /// The filter's own mix of scales, in `Double` and in `Float`: a bias block of about 1e-8
    /// (rad/s)² (a converged bias) beside a sensitivity block of about 1e-4 (an unconverged one),
    /// rows whose sensitivity part is R diag(ω) with |ω| from 0.1 to 5 rad/s. Every element is
    /// compared on its own scale, √(P_ii P_jj) of the prior, so that an error in the small block
    /// cannot hide under the large one: within 1e-9 in `Double`, 1e-4 in `Float` (whose rounding is
    /// 6e-8, amplified by the update's cancellation); the state correction within the same
    /// fraction of each block's largest component.
    @Test(arguments: [false, true])
    func blocksOfDifferentScalesFollowTheBatchUpdate(float: Bool) {
        var random = SplitMix64(seed: float ? 71 : 73)
        let tolerance = float ? 1e-4 : 1e-9
        for _ in 0..<200 {
            let a = Self.randomCovariance(&random, scale: 1)
            let d: [Double] = [1e-4, 1e-4, 1e-4, 1e-2, 1e-2, 1e-2]  // standard deviations
            let p: Matrix = (0..<6).map { i in (0..<6).map { j in d[i] * a[i][j] * d[j] } }
            let rows: Matrix = (0..<3).map { _ in
                let omega = Double.random(in: 0.1...5, using: &random)
                return (0..<6).map { k in Double.random(in: -1...1, using: &random) * (k < 3 ? 1 : omega) }
            }
            let e = (0..<3).map { _ in Double.random(in: -0.01...0.01, using: &random) }
            let w = (0..<3).map { _ in pow(10, Double.random(in: -6 ... -3, using: &random)) }
            let (expected, expectedX) = Self.batch(p, rows: rows, innovation: e, variance: w)
            let (next, x) = float ? Self.run(Float.self, p, rows, e, w) : Self.run(Double.self, p, rows, e, w)
            guard let next, let x else {
                Issue.record("the update was refused")
                return
            }
            for block in [0..<3, 3..<6] {
                let scale = block.map { abs(expectedX[$0]) }.max()!
                for i in block { #expect(abs(x[i] - expectedX[i]) <= tolerance * scale, "x[\(i)]") }
            }
            for i in 0..<6 {
                for j in 0..<6 {
                    let scale = (p[i][i] * p[j][j]).squareRoot()
                    #expect(abs(next[i][j] - expected[i][j]) <= tolerance * scale, "P[\(i), \(j)]")
                }
            }
        }
    }

    /// `Covariance6<S>.update` on `p` (rounded to S), its covariance and correction back in Double.
    static func run<S: FusionScalar>(
        _: S.Type, _ p: Matrix, _ rows: Matrix, _ e: [Double], _ w: [Double]
    ) -> (Matrix?, [Double]?) {
        var c = covariance(p, as: S.self)
        guard
            let x = c.update(
                rows: simd(rows[0], as: S.self), simd(rows[1], as: S.self), simd(rows[2], as: S.self),
                innovation: SIMD3(S(e[0]), S(e[1]), S(e[2])),
                variance: SIMD3(S(w[0]), S(w[1]), S(w[2])))
        else { return (nil, nil) }
        return ((0..<6).map { i in (0..<6).map { j in Double(c[i, j]) } }, (0..<6).map { Double(x[$0]) })
    }

    /// A zero row is no measurement: the update equals the one without it, bit for bit.
    @Test func zeroRowsAreSkipped() {
        var random = SplitMix64(seed: 7)
        let p = Self.covariance(Self.randomCovariance(&random, scale: 1e-4), as: Double.self)
        let h0 = SIMD8<Double>(0.3, -0.2, 0.9, 0.01, 0.2, -0.1, 0, 0)
        let h1 = SIMD8<Double>(-0.5, 0.7, 0.1, 0.3, 0, 0.05, 0, 0)
        var withZero = p
        var alone = p
        let a = withZero.update(rows: .zero, h0, h1, innovation: SIMD3(5, 1e-3, -2e-3), variance: SIMD3(0, 1e-4, 1e-4))
        let b = alone.update(rows: h0, h1, .zero, innovation: SIMD3(1e-3, -2e-3, 0), variance: SIMD3(1e-4, 1e-4, 1))
        #expect(a != nil && a == b)
        for i in 0..<6 { for j in 0..<6 { #expect(withZero[i, j] == alone[i, j]) } }
    }

    /// What is refused changes nothing: a measurement variance that leaves the innovation variance
    /// at or below zero, a NaN innovation, an infinite row, and an update that would take a
    /// variance below zero.
    @Test func refusedUpdatesChangeNothing() {
        let p = Covariance6<Double>(diagonal: SIMD8(1e-4, 1e-4, 1e-4, 1e-6, 1e-6, 1e-6, 0, 0))
        let h = SIMD8<Double>(1, 0, 0, 0, 0, 0, 0, 0)
        let cases: [(SIMD8<Double>, Double, Double)] = [
            (h, 1e-3, -1e-4),  // s = 1e-4 − 1e-4 = 0
            (h, 1e-3, -1),  // s < 0
            (h, .nan, 1e-4),
            (SIMD8(.infinity, 0, 0, 0, 0, 0, 0, 0), 1e-3, 1e-4),
            (h, 1e-3, -0.5e-4),  // s = 0.5e-4 > 0, but the variance becomes 1e-4 − 2e-4 < 0
        ]
        for (row, e, w) in cases {
            var c = p
            #expect(c.update(rows: row, .zero, .zero, innovation: SIMD3(e, 0, 0), variance: SIMD3(w, 1, 1)) == nil)
            for i in 0..<6 { for j in 0..<6 { #expect(c[i, j].bitPattern == p[i, j].bitPattern) } }
        }
    }
}
