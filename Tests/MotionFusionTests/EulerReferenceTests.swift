import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Euler angles of all 12 intrinsic sequences against SciPy's `as_euler` / `from_euler`.
@Suite("Euler angles match SciPy")
struct EulerReferenceTests {
    @Test func sequencesMatchSciPyNames() {
        #expect(RotationSequence.allCases.count == 12)
        #expect(RotationSequence.aerospace == .zyx)
        #expect(RotationSequence.coreMotion == .zxy)
    }

    @Test func quaternionToEulerDouble() throws {
        let rotations = try ReferenceTable("rotations.csv")
        let quaternions = Dictionary(
            uniqueKeysWithValues: rotations.rows.map {
                (Int(rotations.double($0, "id")), rotations.quaternion($0))
            })
        let table = try ReferenceTable("euler.csv")
        var lockedRows = 0
        for row in table.rows {
            let id = Int(table.double(row, "id"))
            let sequence = try #require(RotationSequence(rawValue: table.string(row, "sequence")))
            let q = try #require(quaternions[id])
            let expected = table.vector(row, "a1", "a2", "a3")
            let euler = EulerAngles(q, sequence: sequence)
            let locked = table.double(row, "gimbal_lock") == 1
            #expect(euler.isGimbalLocked == locked, "id \(id) \(sequence)")
            if locked { lockedRows += 1 }
            // Angles of ±π are the same angle; compare on the circle.
            var difference = euler.angles - expected
            for k in 0..<3 { difference[k] = remainder(difference[k], 2 * .pi) }
            let error = max(abs(difference.x), max(abs(difference.y), abs(difference.z)))
            #expect(error <= 1e-12, "id \(id) \(sequence): \(euler.angles) vs \(expected)")
            // Away from gimbal lock the angles reproduce the rotation to rounding; at the lock, to
            // within twice the lock threshold (as documented).
            let allowed = locked ? 2 * Double.gimbalLockThreshold : 1e-12
            #expect(euler.quaternion.angle(to: q) <= allowed, "id \(id) \(sequence)")
        }
        #expect(lockedRows > 0)
    }

    @Test func eulerToQuaternionDouble() throws {
        let table = try ReferenceTable("euler_to_rotation.csv")
        for row in table.rows {
            let sequence = try #require(RotationSequence(rawValue: table.string(row, "sequence")))
            let euler = EulerAngles(angles: table.vector(row, "a1", "a2", "a3"), sequence: sequence)
            let expected = table.quaternion(row)
            let q = euler.quaternion
            let error = min((q - expected).length, (q + expected).length)
            #expect(error <= 1e-12, "id \(table.string(row, "id")) \(sequence): \(error)")
        }
    }

    @Test func eulerToQuaternionFloat() throws {
        let table = try ReferenceTable("euler_to_rotation.csv")
        for row in table.rows {
            let sequence = try #require(RotationSequence(rawValue: table.string(row, "sequence")))
            let euler = EulerAngles<Float>(angles: SIMD3<Float>(table.vector(row, "a1", "a2", "a3")), sequence: sequence)
            let expected = table.quaternion(row)
            let q = Quaternion<Double>(euler.quaternion)
            #expect(min((q - expected).length, (q + expected).length) <= 1e-5)
        }
    }

    @Test func floatWithin1e5AwayFromGimbalLock() throws {
        let rotations = try ReferenceTable("rotations.csv")
        let table = try ReferenceTable("euler.csv")
        let quaternions = Dictionary(
            uniqueKeysWithValues: rotations.rows.map {
                (Int(rotations.double($0, "id")), rotations.quaternion($0))
            })
        for row in table.rows {
            let sequence = try #require(RotationSequence(rawValue: table.string(row, "sequence")))
            let q = try #require(quaternions[Int(table.double(row, "id"))])
            let expected = table.vector(row, "a1", "a2", "a3")
            let euler = EulerAngles(Quaternion<Float>(q), sequence: sequence)
            // Within √ulp(Float) of the lock only the combined angle is defined in Float.
            let lockDistance =
                sequence.isProperEuler
                ? min(abs(expected.y), abs(.pi - expected.y)) : abs(.pi / 2 - abs(expected.y))
            if lockDistance < 0.05 {
                #expect(Quaternion<Double>(euler.quaternion).angle(to: q) <= 1e-5)
                continue
            }
            var difference = SIMD3<Double>(euler.angles) - expected
            for k in 0..<3 { difference[k] = remainder(difference[k], 2 * .pi) }
            let error = max(abs(difference.x), max(abs(difference.y), abs(difference.z)))
            #expect(error <= 1e-5, "id \(table.string(row, "id")) \(sequence): \(error)")
        }
    }
}

import Foundation
