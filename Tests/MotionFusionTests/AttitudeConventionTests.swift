import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Core Motion's documented conventions, each checked against a physical situation worked out by
/// hand (see the Conventions article).
@Suite("Attitude follows Core Motion's conventions")
struct AttitudeConventionTests {
    let degree = Double.pi / 180

    func attitude(angle: Double, axis: SIMD3<Double>) -> Attitude<Double> {
        Attitude(unitQuaternion: Quaternion(angle: angle, axis: axis))
    }

    @Test func lyingFlatFaceUpIsIdentityWithGravityDown() {
        let flat = Attitude<Double>.identity
        #expect(flat.rotationMatrix == .identity)
        #expect(flat.rotationMatrix * SIMD3(0, 0, -1) == SIMD3(0, 0, -1))
        #expect(flat.gravity == SIMD3(0, 0, -1))
        #expect(flat.roll == 0 && flat.pitch == 0 && flat.yaw == 0)
    }

    @Test func pitchIsAboutDeviceXTopEdgeUpIsPositive() {
        // Raise the top edge by 30°: a right-handed rotation about the device's X axis.
        let tilted = attitude(angle: 30 * degree, axis: SIMD3(1, 0, 0))
        #expect(abs(tilted.pitch - 30 * degree) < 1e-15)
        #expect(abs(tilted.roll) < 1e-15 && abs(tilted.yaw) < 1e-15)
        // Gravity now has a component toward the device's bottom edge (−Y).
        let gravity = tilted.rotationMatrix * SIMD3(0, 0, -1)
        #expect((gravity - SIMD3(0, -sin(30 * degree), -cos(30 * degree))).length < 1e-15)
        // Standing upright in portrait: gravity (0, −1, 0), pitch 90°, gimbal lock puts roll at 0.
        let upright = attitude(angle: 90 * degree, axis: SIMD3(1, 0, 0))
        #expect((upright.gravity - SIMD3(0, -1, 0)).length < 1e-15)
        #expect(abs(upright.pitch - 90 * degree) < 1e-15)
        #expect(upright.roll == 0)
        #expect(upright.eulerAngles.isGimbalLocked)
    }

    @Test func rollIsAboutDeviceYRightEdgeDownIsPositive() {
        let rolled = attitude(angle: 40 * degree, axis: SIMD3(0, 1, 0))
        #expect(abs(rolled.roll - 40 * degree) < 1e-15)
        #expect(abs(rolled.pitch) < 1e-15 && abs(rolled.yaw) < 1e-15)
        // The right edge (+X) went down, so gravity points toward +X.
        let gravity = rolled.rotationMatrix * SIMD3(0, 0, -1)
        #expect((gravity - SIMD3(sin(40 * degree), 0, -cos(40 * degree))).length < 1e-15)
    }

    @Test func yawIsAboutZCounterClockwiseIsPositive() {
        let turned = attitude(angle: 45 * degree, axis: SIMD3(0, 0, 1))
        #expect(abs(turned.yaw - 45 * degree) < 1e-15)
        #expect((turned.gravity - SIMD3(0, 0, -1)).length < 1e-15)
        // The device's X axis now points 45° counter-clockwise from the reference X axis.
        let x = turned.quaternion.act(on: SIMD3(1, 0, 0))
        #expect((x - SIMD3(cos(45 * degree), sin(45 * degree), 0)).length < 1e-15)
    }

    @Test func eulerSequenceIsYawThenPitchThenRoll() {
        var random = TestRandom(seed: 3)
        for _ in 0..<500 {
            let yaw = Double.random(in: -.pi..<(.pi), using: &random)
            let pitch = Double.random(in: -1.5..<1.5, using: &random)
            let roll = Double.random(in: -.pi..<(.pi), using: &random)
            // R = Rz(yaw) · Rx(pitch) · Ry(roll), built from elementary rotations.
            let q =
                Quaternion(angle: yaw, axis: SIMD3(0, 0, 1)) * Quaternion(angle: pitch, axis: SIMD3(1, 0, 0))
                * Quaternion(angle: roll, axis: SIMD3(0, 1, 0))
            let a = Attitude(unitQuaternion: q)
            #expect(abs(a.yaw - yaw) < 1e-12 && abs(a.pitch - pitch) < 1e-12 && abs(a.roll - roll) < 1e-12)
        }
    }

    @Test func rotationMatrixMapsGravityReferenceIntoDeviceFrame() throws {
        // SciPy's matrices (Reference/rotations.csv) map device → reference; Core Motion's matrix is
        // reference → device, so it is SciPy's transposed, and its product with (0, 0, −1) is minus
        // SciPy's third row.
        let table = try ReferenceTable("rotations.csv")
        for row in table.rows {
            let a = try Attitude(quaternion: table.quaternion(row))
            let cm = a.rotationMatrix
            let scipyRows = [
                table.vector(row, "r00", "r01", "r02"), table.vector(row, "r10", "r11", "r12"),
                table.vector(row, "r20", "r21", "r22"),
            ]
            for i in 0..<3 {
                for j in 0..<3 { #expect(abs(cm[i, j] - scipyRows[j][i]) < 1e-12) }
            }
            let expected = -scipyRows[2]
            #expect((cm * SIMD3(0, 0, -1) - expected).length < 1e-12)
            #expect((a.gravity - expected).length < 1e-12)
        }
    }

    @Test func multiplyByInverseOfGivesChangeSinceReference() {
        let reference = attitude(angle: 90 * degree, axis: SIMD3(1, 0, 0))  // held upright
        #expect(reference.multiplied(byInverseOf: reference).quaternion.angle(to: .identity) < 1e-15)
        // From there, turn the device 20° about its own Z axis (a body-fixed rotation).
        let turn = Quaternion<Double>(angle: 20 * degree, axis: SIMD3(0, 0, 1))
        var current = Attitude(unitQuaternion: reference.quaternion * turn)
        current.multiply(byInverseOf: reference)
        #expect(abs(current.yaw - 20 * degree) < 1e-14)
        #expect(abs(current.pitch) < 1e-14 && abs(current.roll) < 1e-14)
        // Relative attitudes compose: (a rel b) · (b rel c) = (a rel c).
        var random = TestRandom(seed: 9)
        let a = Attitude(unitQuaternion: random.rotation())
        let b = Attitude(unitQuaternion: random.rotation())
        let c = Attitude(unitQuaternion: random.rotation())
        let composed = b.multiplied(byInverseOf: c).quaternion * a.multiplied(byInverseOf: b).quaternion
        #expect(composed.angle(to: a.multiplied(byInverseOf: c).quaternion) < 1e-14)
    }

    @Test func attitudeRejectsNonRotationsAndNormalizes() throws {
        #expect(throws: RotationError.notARotation) { try Attitude<Double>(quaternion: .zero) }
        #expect(throws: RotationError.notARotation) {
            try Attitude(quaternion: Quaternion<Double>(w: .nan, x: 0, y: 0, z: 0))
        }
        #expect(throws: RotationError.notARotation) {
            try Attitude(quaternion: Quaternion<Float>(w: .infinity, x: 0, y: 0, z: 0))
        }
        let a = try Attitude(quaternion: Quaternion<Double>(w: 2, x: 0, y: 0, z: 2))
        #expect(abs(a.quaternion.length - 1) < 1e-15)
        #expect(abs(a.yaw - .pi / 2) < 1e-15)
    }

    @Test func codableRoundTrips() throws {
        let a = Attitude(unitQuaternion: Quaternion<Double>(angle: 1, axis: SIMD3(1, 2, 3)))
        let data = try JSONEncoder().encode(a)
        #expect(try JSONDecoder().decode(Attitude<Double>.self, from: data) == a)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"quaternion\"") && text.contains("\"w\""))
        let zero = Data(#"{"quaternion":{"w":0,"x":0,"y":0,"z":0}}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Attitude<Double>.self, from: zero) }
    }
}
