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
            #expect((q.act(on: v) - r).lengthOfVector <= 1e-14 * 5 * 4)
        }
        let qf = Quaternion<Float>(q)
        let vf = vectors.map(SIMD3<Float>.init)
        let rf = qf.act(on: vf, kernel: kernel)
        for (v, r) in zip(vf, rf) {
            #expect((qf.act(on: v) - r).lengthOfVector <= 1e-5 * 5)
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
