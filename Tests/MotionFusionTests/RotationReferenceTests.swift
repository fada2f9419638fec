import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Conversions against SciPy's `Rotation` (Reference/rotations.csv): 1e-12 in Double, 1e-5 in Float.
@Suite("Rotation conversions match SciPy")
struct RotationReferenceTests {
    let table: ReferenceTable

    init() throws { table = try ReferenceTable("rotations.csv") }

    func matrix(_ row: [Substring]) -> RotationMatrix<Double> {
        RotationMatrix(
            rows: table.vector(row, "r00", "r01", "r02"), table.vector(row, "r10", "r11", "r12"),
            table.vector(row, "r20", "r21", "r22"))
    }

    @Test func tableCoversEdgeCasesAndRandomRotations() {
        #expect(table.rows.count >= 300)
        let labels = Set(table.rows.map { table.string($0, "label") })
        #expect(labels.contains("identity"))
        #expect(labels.contains { $0.contains("180") })
        #expect(labels.contains { $0.contains("1e-09") || $0.contains("1e-9") })
    }

    @Test func quaternionToMatrixDouble() {
        for row in table.rows {
            let q = table.quaternion(row)
            let difference = RotationMatrix(q).maximumDifference(to: matrix(row))
            #expect(difference <= 1e-12, "row \(table.string(row, "id")): \(difference)")
        }
    }

    @Test func matrixToQuaternionShepperdDouble() {
        for row in table.rows {
            let expected = table.quaternion(row)
            let q = matrix(row).quaternion
            // Canonical w ≥ 0 on both sides; at w = 0 (180°) the sign is still ambiguous.
            let error = min((q - expected).length, (q + expected).length)
            #expect(error <= 1e-12, "row \(table.string(row, "id")) \(table.string(row, "label")): \(error)")
            #expect(q.w >= 0)
        }
    }

    @Test func rotationVectorBothWaysDouble() {
        for row in table.rows {
            let q = table.quaternion(row)
            let expected = table.vector(row, "rvx", "rvy", "rvz")
            let v = q.rotationVector
            let angle = expected.length
            // At exactly 180° the rotation vector's sign is not defined: ±v are the same rotation.
            let error =
                abs(angle - .pi) < 1e-6
                ? min((v - expected).length, (v + expected).length)
                : (v - expected).length
            #expect(error <= 1e-12, "row \(table.string(row, "id")): \(error)")
            let back = Quaternion(rotationVector: expected)
            let backError = min((back - q).length, (back + q).length)
            #expect(backError <= 1e-12, "row \(table.string(row, "id")): \(backError)")
        }
    }

    @Test func tinyRotationsKeepFullRelativePrecision() {
        for row in table.rows where table.string(row, "label").contains("1e-12") {
            let expected = table.vector(row, "rvx", "rvy", "rvz")
            let v = table.quaternion(row).rotationVector
            #expect((v - expected).length <= 1e-12 * 1e-12)
        }
    }

    @Test func floatConversionsWithin1e5() {
        for row in table.rows {
            let q = Quaternion<Float>(table.quaternion(row))
            let m = RotationMatrix<Float>(matrix(row))
            #expect(RotationMatrix(q).maximumDifference(to: m) <= 1e-5)
            let back = Quaternion<Double>(m.quaternion)
            let expected = table.quaternion(row)
            #expect(min((back - expected).length, (back + expected).length) <= 1e-5)
            let v = SIMD3<Double>(q.rotationVector)
            let rv = table.vector(row, "rvx", "rvy", "rvz")
            let fromVector = Quaternion<Double>(Quaternion<Float>(rotationVector: SIMD3<Float>(rv)))
            #expect(min((fromVector - expected).length, (fromVector + expected).length) <= 1e-5)
            let probe = SIMD3<Float>(0.3, -1.7, 2.2)
            #expect((SIMD3<Double>(q.act(on: probe)) - matrix(row) * SIMD3<Double>(probe)).length <= 1e-5 * 3)
            let near180 = abs(rv.length - .pi) < 1e-3
            let error = near180 ? min((v - rv).length, (v + rv).length) : (v - rv).length
            #expect(error <= 1e-5, "row \(table.string(row, "id")): \(error)")
        }
    }

    @Test func actMatchesMatrixProduct() {
        let v = SIMD3<Double>(0.3, -1.7, 2.2)
        for row in table.rows {
            let q = table.quaternion(row)
            let expected = matrix(row) * v
            #expect((q.act(on: v) - expected).length <= 1e-12 * 3)
        }
    }
}
