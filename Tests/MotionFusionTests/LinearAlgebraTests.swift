import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Properties of the LAPACK-backed estimators that need no reference file: degenerate input,
/// agreement of the two Wahba methods, nearest rotations, and the batch kernels.
@Suite("Linear algebra")
struct LinearAlgebraTests {
    @Test func wahbaRejectsParallelVectors() {
        let a: [SIMD3<Double>] = [SIMD3(0, 0, 1), SIMD3(0, 0, 2)]
        let b: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(2, 0, 0)]
        for method in WahbaMethod.allCases {
            #expect(throws: EstimationError.self) {
                try Wahba.solve(reference: a, observed: b, method: method)
            }
        }
        do {
            _ = try Wahba.solve(reference: a, observed: b)
            Issue.record("parallel vectors must not give a rotation")
        } catch {
            guard case .notUnique = error else {
                Issue.record("expected notUnique, got \(error)")
                return
            }
        }
    }

    @Test func wahbaRejectsBadInput() {
        let a: [SIMD3<Double>] = [SIMD3(0, 0, 1), SIMD3(1, 0, 0)]
        #expect(throws: EstimationError.tooFewInputs(needed: 2, found: 1)) {
            try Wahba.solve(reference: [a[0]], observed: [a[0]])
        }
        #expect(throws: EstimationError.countMismatch(expected: 2, found: 1)) {
            try Wahba.solve(reference: a, observed: [a[0]])
        }
        #expect(throws: EstimationError.nonFiniteInput(index: 1)) {
            try Wahba.solve(reference: a, observed: [a[0], SIMD3(.nan, 0, 0)])
        }
        #expect(throws: EstimationError.invalidWeight(index: 0)) {
            try Wahba.solve(reference: a, observed: a, weights: [-1, 1])
        }
        #expect(throws: EstimationError.invalidWeight(index: -1)) {
            try Wahba.solve(reference: a, observed: a, weights: [0, 0])
        }
        #expect(throws: EstimationError.self) {
            try Wahba.solve(reference: a, observed: [SIMD3.zero, SIMD3.zero])
        }
    }

    @Test func wahbaRecoversRotationFromTwoVectors() throws {
        let truth = Quaternion<Double>(angle: 2.5, axis: SIMD3(1, -2, 0.5))
        let observed: [SIMD3<Double>] = [SIMD3(0, 0, 9.81), SIMD3(20, 0, -40)]
        let reference = observed.map { truth.act(on: $0) }
        for method in WahbaMethod.allCases {
            let solution = try Wahba.solve(reference: reference, observed: observed, method: method)
            #expect(solution.rotation.angle(to: truth) <= 1e-12)
            #expect(solution.rootSumSquaredDistance <= 1e-12)
        }
    }

    @Test func averageRejectsBadInputAndAmbiguity() {
        #expect(throws: EstimationError.tooFewInputs(needed: 1, found: 0)) {
            try Quaternion<Double>.average([])
        }
        #expect(throws: EstimationError.nonFiniteInput(index: 0)) {
            try Quaternion<Double>.average([.zero])
        }
        // Two rotations 180° apart, equally weighted: no unique mean.
        let a = Quaternion<Double>.identity
        let b = Quaternion<Double>(angle: .pi, axis: SIMD3(0, 0, 1))
        #expect(throws: EstimationError.self) { try Quaternion.average([a, b]) }
        // …but unequal weights decide it.
        #expect((try? Quaternion.average([a, b], weights: [2, 1]))?.angle(to: a) ?? 1 < 1e-12)
    }

    /// The core's plain-Swift nearest rotation and singular values (one-sided Jacobi) against LAPACK's
    /// SVD (dgesvd), an independent implementation, on general matrices: any scale, negative
    /// determinants (the Procrustes sign), and nearly rank-two ones.
    @Test func plainSwiftNearestRotationMatchesLAPACK() throws {
        var random = TestRandom(seed: 11)
        for trial in 0..<300 {
            var m = RotationMatrix<Double>(
                columns: random.gaussianVector(), random.gaussianVector(), random.gaussianVector())
            if trial % 3 == 1 { m.column2 *= -1 }  // a reflection part
            if trial % 3 == 2 { m.column2 = 0.5 * m.column0 - 2 * m.column1 + 1e-6 * random.gaussianVector() }
            let columnMajor = [m.column0.x, m.column0.y, m.column0.z, m.column1.x, m.column1.y, m.column1.z,
                               m.column2.x, m.column2.y, m.column2.z]
            // LAPACK's R = U diag(1, 1, d) Vᵀ, d = det U det V, and margin s₂ + d·s₃.
            let (u, s, vt) = try LAPACK.singularValueDecomposition(columnMajor, rows: 3, columns: 3)
            var uMatrix = RotationMatrix(
                columns: SIMD3(u[0], u[1], u[2]), SIMD3(u[3], u[4], u[5]), SIMD3(u[6], u[7], u[8]))
            let vtMatrix = RotationMatrix(
                columns: SIMD3(vt[0], vt[1], vt[2]), SIMD3(vt[3], vt[4], vt[5]), SIMD3(vt[6], vt[7], vt[8]))
            let d: Double = uMatrix.determinant * vtMatrix.determinant < 0 ? -1 : 1
            uMatrix.column2 *= d
            let lapack = uMatrix * vtMatrix
            let plain = try #require(NearestRotation.ofMatrix(m))
            #expect(plain.maximumDifference(to: lapack) <= 1e-9, "trial \(trial)")
            #expect(abs(plain.determinant - 1) <= 1e-14)
            let found = try #require(NearestRotation.maximizingTrace(m))
            #expect(found.rotation == plain)
            #expect(abs(found.margin - (s[1] + d * s[2])) <= 1e-13 * s[0], "trial \(trial) margin")
            let mine = try #require(m.singularValues)
            // One-sided Jacobi on M itself: each singular value errs by a few ulp of s₁ (as LAPACK's),
            // the nearly singular ones included.
            for k in 0..<3 {
                #expect(abs(mine[k] - s[k]) <= 8 * Double.ulpOfOne * s[0], "trial \(trial) s\(k)")
            }
        }
        #expect(NearestRotation.ofMatrix(RotationMatrix<Double>(columns: .zero, .zero, .zero)) == nil)
        #expect(NearestRotation.ofMatrix(RotationMatrix<Double>(columns: SIMD3(.nan, 0, 0), .zero, .zero)) == nil)
    }

    /// Rank one (M = u vᵀ, where M v₁ is rounding noise) and extreme scales: the nearest rotation is
    /// still a rotation, its uniqueness margin is 0 to rounding (a reviewer found 0.7 % of exact rank-one matrices coming back as
    /// non-rotations before M v₁ was projected twice), and it maps v onto u as every nearest rotation
    /// of u vᵀ must; singular values are right at 1e±200.
    @Test func nearestRotationOfRankOneAndExtremeScales() throws {
        var random = TestRandom(seed: 12)
        for trial in 0..<20_000 {
            let u = random.gaussianVector(), v = random.gaussianVector()
            let m = RotationMatrix<Double>(columns: u * v.x, u * v.y, u * v.z)  // u vᵀ
            let r = try #require(NearestRotation.ofMatrix(m))
            let gram = r.transposed * r
            #expect(gram.maximumDifference(to: .identity) <= 1e-12, "trial \(trial)")
            #expect(abs(r.determinant - 1) <= 1e-12, "trial \(trial)")
            // s₂ = s₃ = 0: no margin, so Wahba's problem for a rank-one profile is refused.
            let margin = try #require(NearestRotation.maximizingTrace(m)).margin
            let s1 = (u * u).sum().squareRoot() * (v * v).sum().squareRoot()
            #expect(abs(margin) <= 1e-14 * s1, "trial \(trial): margin \(margin)")
            let mapped = r * (v / (v * v).sum().squareRoot())
            #expect(((mapped - u / (u * u).sum().squareRoot()) * (mapped - u / (u * u).sum().squareRoot())).sum() <= 1e-20)
        }
        for scale in [1e-200, 1e-100, 1e100, 1e200] {
            let m = RotationMatrix<Double>(
                columns: SIMD3(3, 1, 0) * scale, SIMD3(1, 2, 0) * scale, SIMD3(0, 0, 0.5) * scale)
            // Singular values of [[3, 1, 0], [1, 2, 0], [0, 0, 0.5]]: (5 ± √5) / 2 and 0.5.
            let expected = SIMD3((5 + 5.0.squareRoot()) / 2, (5 - 5.0.squareRoot()) / 2, 0.5) * scale
            let s = try #require(m.singularValues)
            for k in 0..<3 { #expect(abs(s[k] - expected[k]) <= 1e-14 * expected[0], "scale \(scale) s\(k)") }
            let r = try #require(NearestRotation.ofMatrix(m))
            #expect(r.maximumDifference(to: .identity) <= 1e-14, "symmetric positive definite: R = I")
            let margin = try #require(NearestRotation.maximizingTrace(m)).margin
            #expect(abs(margin - (expected[1] + expected[2])) <= 1e-14 * expected[0], "scale \(scale): margin")
        }
    }

    @Test func orthonormalizedIsNearestRotation() {
        var random = TestRandom(seed: 7)
        for _ in 0..<200 {
            let truth = RotationMatrix(random.rotation())
            var drifted = truth
            drifted.column0 += 1e-3 * random.gaussianVector()
            drifted.column1 += 1e-3 * random.gaussianVector()
            drifted.column2 += 1e-3 * random.gaussianVector()
            let fast = drifted.orthonormalized()
            let svd = NearestRotation.ofMatrix(drifted)!
            #expect(fast.maximumDifference(to: svd) <= 1e-13)
            #expect(abs(fast.determinant - 1) <= 1e-14)
            let gram = fast.transposed * fast
            #expect(gram.maximumDifference(to: .identity) <= 1e-14)
        }
        // A reflection takes the SVD path and still gives a proper rotation.
        let reflection = RotationMatrix<Double>(
            columns: SIMD3(-1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
        #expect(abs(reflection.orthonormalized().determinant - 1) <= 1e-14)
        // Non-finite input recovers to the identity.
        var broken = RotationMatrix<Double>.identity
        broken[1, 2] = .nan
        #expect(broken.orthonormalized() == .identity)
    }

    @Test(arguments: BatchRotationKernel.allCases)
    func batchKernelsMatchScalarPath(kernel: BatchRotationKernel) {
        var random = TestRandom(seed: 11)
        let q = random.rotation()
        let vectors = (0..<1037).map { _ in random.gaussianVector() * 5 }
        let rotated = q.act(on: vectors, kernel: kernel)
        for (v, r) in zip(vectors, rotated) {
            #expect((q.act(on: v) - r).length <= 1e-14 * 5 * 4)
        }
        let qf = Quaternion<Float>(q)
        let vf = vectors.map(SIMD3<Float>.init)
        let rf = qf.act(on: vf, kernel: kernel)
        for (v, r) in zip(vf, rf) {
            #expect((qf.act(on: v) - r).length <= 1e-5 * 5)
        }
        #expect(q.act(on: [], kernel: kernel).isEmpty)
    }

    /// LAPACK's dimensions are 32-bit: one beyond is a typed error, never a trapping conversion.
    @Test func dimensionsBeyondLAPACKsIntegersAreErrors() throws {
        #expect(try LAPACK.dimension(5, "dgesvd") == 5)
        #expect(try LAPACK.dimension(Int(Int32.max), "dgesvd") == Int32.max)
        #expect(throws: EstimationError.tooLarge(routine: "dgelsd", size: Int(Int32.max) + 1)) {
            _ = try LAPACK.dimension(Int(Int32.max) + 1, "dgelsd")
        }
        #expect(EstimationError.tooLarge(routine: "dgelsd", size: 1 << 40).description
            == "LAPACK dgelsd cannot take a dimension of 1099511627776 (at most 2147483647)")
    }
}
