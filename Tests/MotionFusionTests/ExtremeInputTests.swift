import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Huge, tiny and degenerate inputs that are still valid (or clearly not), after review.
@Suite("Extreme magnitudes and degenerate rotations")
struct ExtremeInputTests {
    @Test func hugeAndTinyVectorsKeepTheirDirection() throws {
        let q = try Quaternion<Double>.rotation(from: SIMD3(1e200, 0, 0), to: SIMD3(0, 1e-300, 0))
        #expect(q.angle(to: Quaternion(angle: .pi / 2, axis: SIMD3(0, 0, 1))) < 1e-15)
        let f = try Quaternion<Float>.rotation(from: SIMD3(1e20, 0, 0), to: SIMD3(0, 0, 1e-25))
        #expect(Quaternion<Double>(f).angle(to: Quaternion(angle: .pi / 2, axis: SIMD3(0, -1, 0))) < 1e-6)
        #expect(Quaternion<Float>(angle: 1, axis: SIMD3(0, 1e-20, 0)).angle(to: Quaternion(angle: 1, axis: SIMD3(0, 1, 0))) < 1e-6)
        #expect(Quaternion<Double>(angle: 1, axis: SIMD3(0, 0, 1e200)).angle(to: Quaternion(angle: 1, axis: SIMD3(0, 0, 1))) < 1e-15)
        let a = try Attitude(quaternion: Quaternion<Double>(w: 1e200, x: 0, y: 0, z: 1e200))
        #expect(abs(a.yaw - .pi / 2) < 1e-15)
        // A finite but huge rotation vector is still a rotation (its angle modulo 2π).
        let huge = Quaternion<Double>(rotationVector: SIMD3(1e200, 0, 0))
        #expect(huge != .identity && abs(huge.length - 1) < 1e-15 && abs(huge.axis.x) == 1)
    }

    @Test func wahbaWithHugeAndTinyVectors() throws {
        let truth = Quaternion<Double>(angle: 0.7, axis: SIMD3(1, 2, 3))
        for scale in [1e160, 1e-160] {
            let observed: [SIMD3<Double>] = [SIMD3(1, 0, 0) * scale, SIMD3(0, 1, 1) * scale]
            let reference = observed.map { truth.act(on: $0) }
            for method in WahbaMethod.allCases {
                let solution = try Wahba.solve(reference: reference, observed: observed, method: method)
                #expect(solution.rotation.angle(to: truth) < 1e-14, "\(scale) \(method)")
                #expect(solution.rootSumSquaredDistance.isFinite)
                #expect(solution.rootSumSquaredDistance <= 1e-14 * scale)
            }
        }
    }

    @Test func zeroQuaternionIsNoRotation() {
        #expect(!Quaternion<Double>.zero.isApproximatelySameRotation(as: .identity))
        #expect(Quaternion<Double>.identity.angle(to: .zero).isNaN)
        #expect(Quaternion<Double>(w: .nan, x: 0, y: 0, z: 0).angle.isNaN)
        #expect(Quaternion<Double>(w: .nan, x: 0, y: 0, z: 0).axis.x.isNaN)
    }

    @Test func logarithmOnTheNegativeRealAxis() {
        let minusOne = Quaternion<Double>(w: -1, x: 0, y: 0, z: 0)
        #expect(minusOne.log() == Quaternion(w: 0, x: .pi, y: 0, z: 0))
        #expect(minusOne.log().exp().isApproximatelyEqual(to: minusOne, absoluteTolerance: 1e-15))
        let nearly = Quaternion<Double>(w: -2, x: 1e-300, y: 0, z: 0)
        #expect(nearly.log().exp().isApproximatelyEqual(to: nearly, absoluteTolerance: 1e-14))
    }

    @Test func orthonormalizedReflectionsAndScales() {
        // A reflection: orthogonal with determinant −1. Its nearest rotations reach
        // max tr(Xᵀ M) = s₁ + s₂ − s₃ = 1; the result must be a rotation that attains it.
        let r = RotationMatrix(Quaternion<Double>(angle: 1.1, axis: SIMD3(1, -2, 0.5)))
        var reflection = r
        reflection.column2 = -reflection.column2
        let x = reflection.orthonormalized()
        #expect(abs(x.determinant - 1) < 1e-14)
        #expect((x.transposed * x).maximumDifference(to: .identity) < 1e-14)
        let score = x.column0.dot(reflection.column0) + x.column1.dot(reflection.column1)
            + x.column2.dot(reflection.column2)
        #expect(abs(score - 1) < 1e-14)
        // −I: its nearest rotations are the half turns (trace −1).
        let minusI = RotationMatrix<Double>(columns: SIMD3(-1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, -1))
        #expect(abs(minusI.orthonormalized().quaternion.angle - .pi) < 1e-14)
        // Scaling does not change the nearest rotation, at any magnitude.
        for c in [1e200, 1e-200, 3.0] {
            let scaled = RotationMatrix(columns: r.column0 * c, r.column1 * c, r.column2 * c)
            #expect(scaled.isFinite)
            #expect(scaled.orthonormalized().maximumDifference(to: r) < 1e-14, "\(c)")
        }
        #expect(RotationMatrix<Double>(columns: .zero, .zero, .zero).orthonormalized() == .identity)
    }

    @Test func newtonResultIsThePolarFactor() {
        // Independent of any SVD: the orthogonal polar factor R of M makes Rᵀ M symmetric positive
        // definite (M = R P).
        var random = TestRandom(seed: 7)
        for _ in 0..<200 {
            let truth = RotationMatrix(random.rotation())
            var m = truth
            m.column0 += 0.05 * random.gaussianVector()
            m.column1 += 0.05 * random.gaussianVector()
            m.column2 += 0.05 * random.gaussianVector()
            let r = m.orthonormalized()
            let p = r.transposed * m
            #expect(p.maximumDifference(to: p.transposed) < 1e-13)
            #expect(p[0, 0] > 0 && p[0, 0] * p[1, 1] - p[0, 1] * p[1, 0] > 0 && p.determinant > 0)
            #expect(abs(r.determinant - 1) < 1e-14)
        }
    }
}
