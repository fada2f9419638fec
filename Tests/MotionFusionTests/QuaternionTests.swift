import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Worked examples and the documented recoveries for bad input.
@Suite("Quaternion basics and bad input")
struct QuaternionTests {
    @Test func hamiltonProductFollowsIJK() {
        let i = Quaternion<Double>(w: 0, x: 1, y: 0, z: 0)
        let j = Quaternion<Double>(w: 0, x: 0, y: 1, z: 0)
        let k = Quaternion<Double>(w: 0, x: 0, y: 0, z: 1)
        #expect(i * j == k)
        #expect(j * k == i)
        #expect(k * i == j)
        #expect(i * j * k == Quaternion(w: -1, x: 0, y: 0, z: 0))
        #expect(j * i == -k)
    }

    @Test func angleAxisIsRightHanded() {
        let q = Quaternion<Double>(angle: .pi / 2, axis: SIMD3(0, 0, 5))
        #expect((q.act(on: SIMD3(1, 0, 0)) - SIMD3(0, 1, 0)).length < 1e-15)
        #expect(abs(q.angle - .pi / 2) < 1e-15)
        #expect(q.axis == SIMD3(0, 0, 1))
        #expect(q.description == "Quaternion(w: \(q.w), x: 0.0, y: 0.0, z: \(q.z))")
    }

    @Test func rotationComposesRightToLeft() {
        // First 90° about x, then 90° about z: x → x → y; y → z → z.
        let first = Quaternion<Double>(angle: .pi / 2, axis: SIMD3(1, 0, 0))
        let second = Quaternion<Double>(angle: .pi / 2, axis: SIMD3(0, 0, 1))
        let both = second * first
        #expect((both.act(on: SIMD3(0, 1, 0)) - SIMD3(0, 0, 1)).length < 1e-15)
        #expect((both.act(on: SIMD3(1, 0, 0)) - SIMD3(0, 1, 0)).length < 1e-15)
    }

    @Test func expAndLogOfUnitQuaternionsAreHalfRotationVectors() {
        let v = SIMD3<Double>(0.1, -0.4, 0.25)
        let q = Quaternion(rotationVector: v)
        let log = q.log()
        #expect(abs(log.w) < 1e-16)
        #expect((log.vector - v / 2).length < 1e-16)
        #expect(Quaternion(real: 0, imaginary: v / 2).exp().isApproximatelyEqual(to: q, absoluteTolerance: 1e-16))
        // Non-unit: exp(log q) == q, log of a positive real is its natural log.
        let p = Quaternion<Double>(w: 2, x: 0.5, y: -1, z: 3)
        #expect(p.log().exp().isApproximatelyEqual(to: p, absoluteTolerance: 1e-14))
        #expect(Quaternion<Double>(w: M_E, x: 0, y: 0, z: 0).log() == Quaternion(w: 1, x: 0, y: 0, z: 0))
    }

    @Test func tinyRotationsKeepRelativePrecision() {
        let v = SIMD3<Double>(1e-15, -2e-15, 3e-16)
        let q = Quaternion(rotationVector: v)
        #expect((q.rotationVector - v).length <= 1e-30)
        #expect(Quaternion(rotationVector: SIMD3<Double>.zero) == .identity)
        #expect(Quaternion<Double>.identity.rotationVector == .zero)
    }

    @Test func slerpOfNearlyEqualAndOppositeSigns() {
        let a = Quaternion<Double>(angle: 0.3, axis: SIMD3(1, 1, 0))
        let b = Quaternion<Double>(angle: 0.3 + 1e-12, axis: SIMD3(1, 1, 0))
        #expect(abs(a.slerp(to: b, t: 0.5).angle(to: a) - 0.5e-12) < 1e-15)
        // −b is the same rotation: slerp takes the short way and stays unit length.
        let c = Quaternion<Double>(angle: 1.0, axis: SIMD3(0, 0, 1))
        let mid = a.slerp(to: -c, t: 0.5)
        #expect(abs(mid.length - 1) < 1e-15)
        #expect(abs(mid.angle(to: a) - mid.angle(to: c)) < 1e-14)
    }

    @Test func degenerateInputRecoversAsDocumented() {
        #expect(Quaternion<Double>.zero.normalized() == .identity)
        #expect(Quaternion<Double>(w: .nan, x: 1, y: 0, z: 0).normalized() == .identity)
        #expect(Quaternion<Double>(w: .infinity, x: 1, y: 0, z: 0).normalized() == .identity)
        // Huge but finite components keep their direction; subnormal ones too.
        let huge = Quaternion<Double>(w: 1e300, x: 1e300, y: 0, z: 0).normalized()
        #expect(huge.isApproximatelyEqual(to: Quaternion(w: 0.5.squareRoot(), x: 0.5.squareRoot(), y: 0, z: 0)))
        let tiny = Quaternion<Double>(w: 0, x: 0, y: Double.leastNormalMagnitude / 16, z: 0).normalized()
        #expect(tiny == Quaternion(w: 0, x: 0, y: 1, z: 0))
        #expect(Quaternion<Double>(angle: 1, axis: .zero) == .identity)
        #expect(Quaternion<Double>(angle: .nan, axis: SIMD3(1, 0, 0)) == .identity)
        #expect(Quaternion<Double>(angle: 1, axis: SIMD3(.nan, 0, 0)) == .identity)
        #expect(Quaternion<Double>(rotationVector: SIMD3(.infinity, 0, 0)) == .identity)
        #expect(Quaternion<Float>(rotationVector: SIMD3(.nan, 0, 0)) == .identity)
        #expect(!Quaternion<Double>.zero.inverse.isFinite)
        #expect(RotationMatrix(Quaternion<Double>.zero) == .identity)
        let nan = Quaternion<Double>(w: .nan, x: 0, y: 0, z: 0)
        #expect(!nan.isApproximatelyEqual(to: nan))
        #expect(!nan.isApproximatelySameRotation(as: .identity))
    }

    @Test func rotationBetweenRejectsBadVectors() {
        #expect(throws: RotationError.zeroLengthVector) {
            try Quaternion<Double>.rotation(from: .zero, to: SIMD3(1, 0, 0))
        }
        #expect(throws: RotationError.nonFiniteInput) {
            try Quaternion<Double>.rotation(from: SIMD3(.nan, 0, 0), to: SIMD3(1, 0, 0))
        }
        #expect(throws: RotationError.nonFiniteInput) {
            try Quaternion<Float>.rotation(from: SIMD3(1, 0, 0), to: SIMD3(0, .infinity, 0))
        }
        // Exactly opposite along each axis: 180° about a perpendicular axis.
        for axis in [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 1, 1)] {
            let q = try? Quaternion.rotation(from: axis, to: -axis)
            #expect(q.map { ($0.act(on: axis) + axis).length < 1e-15 } == true)
            #expect(q.map { abs($0.angle - .pi) < 1e-15 } == true)
        }
    }

    @Test func codableAndHashable() throws {
        let q = Quaternion<Double>(w: 0.5, x: -0.5, y: 0.5, z: 0.5)
        let data = try JSONEncoder().encode(q)
        #expect(String(decoding: data, as: UTF8.self).contains("\"w\":0.5"))
        #expect(try JSONDecoder().decode(Quaternion<Double>.self, from: data) == q)
        let m = RotationMatrix(q)
        let matrixJSON = try JSONEncoder().encode(m)
        let nested = try JSONDecoder().decode([[Double]].self, from: matrixJSON)
        #expect(nested.count == 3 && nested[0] == [m[0, 0], m[0, 1], m[0, 2]])
        #expect(try JSONDecoder().decode(RotationMatrix<Double>.self, from: matrixJSON) == m)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(RotationMatrix<Double>.self, from: Data("[[1,0,0],[0,1,0]]".utf8))
        }
        let e = EulerAngles<Float>(aerospaceYaw: 0.1, pitch: 0.2, roll: 0.3)
        #expect(try JSONDecoder().decode(EulerAngles<Float>.self, from: JSONEncoder().encode(e)) == e)
        #expect(Set([q, q, -q]).count == 2)
        #expect(q.representsSameRotation(as: -q) && q != -q)
        #expect(e.description.hasPrefix("EulerAngles(ZYX: 0.1"))
        #expect(RotationMatrix<Double>.identity.description == "RotationMatrix([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0])")
    }
}
