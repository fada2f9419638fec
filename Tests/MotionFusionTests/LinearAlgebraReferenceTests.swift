import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Wahba's problem, quaternion averaging and shortest-arc rotations against SciPy
/// (`align_vectors`, `mean`): Reference/wahba_*.csv, average_*.csv, rotation_between.csv.
@Suite("LAPACK estimators match SciPy")
struct LinearAlgebraReferenceTests {
    @Test(arguments: WahbaMethod.allCases)
    func wahbaMatchesAlignVectors(method: WahbaMethod) throws {
        let vectors = try ReferenceTable("wahba_vectors.csv").grouped(by: "case")
        let vectorTable = try ReferenceTable("wahba_vectors.csv")
        let solutions = try ReferenceTable("wahba_solutions.csv")
        #expect(solutions.rows.count >= 30)
        for row in solutions.rows {
            let id = Int(solutions.double(row, "case"))
            let pairs = try #require(vectors[id])
            #expect(pairs.count == Int(solutions.double(row, "n")))
            let reference = pairs.map { vectorTable.vector($0, "ax", "ay", "az") }
            let observed = pairs.map { vectorTable.vector($0, "bx", "by", "bz") }
            let weights = pairs.map { vectorTable.double($0, "weight") }
            let solution = try Wahba.solve(
                reference: reference, observed: observed, weights: weights, method: method)
            let expected = solutions.quaternion(row)
            let error = solution.rotation.angle(to: expected)
            // 1e-12 rad, or 1e-15 rad times the problem's condition number where that is larger (two
            // vectors 1° apart fix the rotation about their bisector only through that 1°).
            let tolerance = max(1e-12, 1e-15 * (try conditionNumber(reference, observed, weights)))
            #expect(error <= tolerance, "case \(id) \(solutions.string(row, "label")): \(error) rad")
            // SciPy's rssd comes from √(Σw(|a|²+|b|²) − 2Σs), which leaves ~1e-8·scale of rounding
            // for exact fits; ours sums the residuals directly.
            let rssd = solutions.double(row, "rssd")
            #expect(
                abs(solution.rootSumSquaredDistance - rssd) <= 1e-7 + 1e-8 * rssd,
                "case \(id): \(solution.rootSumSquaredDistance) vs \(rssd)")

            let floatSolution = try Wahba.solve(
                reference: reference.map(SIMD3<Float>.init), observed: observed.map(SIMD3<Float>.init),
                weights: weights.map(Float.init), method: method)
            #expect(Quaternion<Double>(floatSolution.rotation).angle(to: expected) <= 1e-5)
        }
    }

    /// s₁ / (s₂ + d·s₃) of B = Σ w a bᵀ: how much rounding in B is amplified in the rotation.
    func conditionNumber(
        _ a: [SIMD3<Double>], _ b: [SIMD3<Double>], _ w: [Double]
    ) throws -> Double {
        var profile = [Double](repeating: 0, count: 9)
        for k in a.indices {
            for i in 0..<3 {
                for j in 0..<3 { profile[j * 3 + i] += w[k] * a[k][i] * b[k][j] }
            }
        }
        let (u, s, vt) = try LAPACK.singularValueDecomposition(profile, rows: 3, columns: 3)
        func det(_ m: [Double]) -> Double {
            RotationMatrix(
                columns: SIMD3(m[0], m[1], m[2]), SIMD3(m[3], m[4], m[5]), SIMD3(m[6], m[7], m[8])
            ).determinant
        }
        let d: Double = det(u) * det(vt) < 0 ? -1 : 1
        return s[0] / (s[1] + d * s[2])
    }

    @Test func averageMatchesSciPyMean() throws {
        let inputs = try ReferenceTable("average_inputs.csv")
        let groups = inputs.grouped(by: "case")
        let results = try ReferenceTable("average_results.csv")
        #expect(inputs.rows.contains { inputs.double($0, "qw") < 0 }, "inputs exercise q ≡ −q")
        for row in results.rows {
            let id = Int(results.double(row, "case"))
            let group = try #require(groups[id])
            let quaternions = group.map { inputs.quaternion($0) }
            let weights = group.map { inputs.double($0, "weight") }
            let mean = try Quaternion.average(quaternions, weights: weights)
            let expected = results.quaternion(row)
            #expect(mean.w >= 0)
            let error = min((mean - expected).length, (mean + expected).length)
            #expect(error <= 1e-12, "case \(id) \(results.string(row, "label")): \(error)")
            let floatMean = try Quaternion.average(
                quaternions.map(Quaternion<Float>.init), weights: weights.map(Float.init))
            #expect(Quaternion<Double>(floatMean).angle(to: expected) <= 1e-5)
        }
    }

    @Test func rotationBetweenMatchesShortestArc() throws {
        let table = try ReferenceTable("rotation_between.csv")
        for row in table.rows {
            let from = table.vector(row, "fx", "fy", "fz")
            let to = table.vector(row, "tx", "ty", "tz")
            let q = try Quaternion.rotation(from: from, to: to)
            let expected = table.quaternion(row)
            let error = min((q - expected).length, (q + expected).length)
            #expect(error <= 1e-12, "case \(table.string(row, "case")): \(error)")
            let qf = try Quaternion<Float>.rotation(from: SIMD3(from), to: SIMD3(to))
            let fromFloat = SIMD3<Float>(from) / SIMD3<Float>(from).length
            let toFloat = SIMD3<Float>(to) / SIMD3<Float>(to).length
            #expect((qf.act(on: fromFloat) - toFloat).length <= 1e-5)
            // Near 180° the axis depends on the tiny perpendicular part of the inputs, which rounding
            // them to Float already moves; compare the rotation itself only where that is well posed.
            if expected.w > 1e-2 {
                #expect(Quaternion<Double>(qf).angle(to: expected) <= 1e-5)
            }
        }
    }
}
