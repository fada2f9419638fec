import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The value types a Core Motion user reads: `CMRotationMatrix`'s element names, Euler angles that
/// name their convention, `copy()`, the calibrated magnetic field, the heading's range and the
/// arbitrary frames' X axis. Expected values come from the definitions, worked by hand.
@Suite("Core Motion value types")
struct CoreMotionValueTypeTests {
    static let degree = Double.pi / 180

    @Test func rotationMatrixElementsAreRowAndColumn() {
        // Device turned 90° to the left (counter-clockwise about Z). Device → reference maps the
        // device's X axis to the reference Y axis: [[0, −1, 0], [1, 0, 0], [0, 0, 1]]. Core Motion's
        // matrix is reference → device, its transpose: m12 = 1, m21 = −1.
        let attitude = Attitude(unitQuaternion: Quaternion<Double>(angle: 90 * Self.degree, axis: SIMD3(0, 0, 1)))
        let m = attitude.rotationMatrix
        let expected: [[Double]] = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]
        let named = [[m.m11, m.m12, m.m13], [m.m21, m.m22, m.m23], [m.m31, m.m32, m.m33]]
        for i in 0..<3 {
            for j in 0..<3 {
                #expect(abs(named[i][j] - expected[i][j]) < 1e-15, "m\(i + 1)\(j + 1)")
                #expect(named[i][j] == m[i, j])
            }
        }
        // Tilted: the third column is minus gravity (rotationMatrix × (0, 0, −1) = gravity).
        let tilted = Attitude(unitQuaternion: Quaternion<Double>(angle: 0.7, axis: SIMD3(1, 2, 3) / 14.0.squareRoot()))
        let r = tilted.rotationMatrix
        #expect((SIMD3(r.m13, r.m23, r.m33) + tilted.gravity).length < 1e-15)
        var written = RotationMatrix<Double>.identity
        written.m23 = 5
        #expect(written[1, 2] == 5 && written.column2.y == 5)
    }

    @Test func eulerAccessorsSayWhichConventionTheyFollow() {
        // The top edge raised 30° (a turn about the device's X axis): Core Motion calls it pitch,
        // the aerospace sequence calls it roll.
        let q = Quaternion<Double>(angle: 30 * Self.degree, axis: SIMD3(1, 0, 0))
        for sequence in [RotationSequence.coreMotion, .aerospace, .xyz] {
            let e = EulerAngles(q, sequence: sequence)
            #expect(abs(e.coreMotionPitch - 30 * Self.degree) < 1e-14, "\(sequence)")
            #expect(abs(e.coreMotionRoll) < 1e-14 && abs(e.coreMotionYaw) < 1e-14, "\(sequence)")
            #expect(abs(e.aerospaceRoll - 30 * Self.degree) < 1e-14, "\(sequence)")
            #expect(abs(e.aerospacePitch) < 1e-14 && abs(e.aerospaceYaw) < 1e-14, "\(sequence)")
        }
        // The named initializers build their own sequence, and Attitude agrees with the Core Motion one.
        let built = EulerAngles<Double>(coreMotionYaw: 0.3, pitch: -0.4, roll: 1.1)
        #expect(built.sequence == .coreMotion)
        let attitude = Attitude(unitQuaternion: built.quaternion)
        #expect(abs(attitude.yaw - 0.3) < 1e-14 && abs(attitude.pitch + 0.4) < 1e-14 && abs(attitude.roll - 1.1) < 1e-14)
        // Pitch about X (Core Motion) is not pitch about Y (aerospace).
        let aerospace = EulerAngles<Double>(aerospaceYaw: 0, pitch: 0.5, roll: 0)
        #expect(aerospace.sequence == .aerospace && abs(aerospace.coreMotionPitch) < 1e-14)
        #expect(abs(aerospace.coreMotionRoll - 0.5) < 1e-14)
    }

    @Test func copyAndTheReferenceAttitudePattern() {
        let reference = Attitude(unitQuaternion: Quaternion<Double>(angle: 0.4, axis: SIMD3(0, 1, 0)))
        let saved = reference.copy()
        #expect(saved == reference)
        var later = reference
        later.multiply(byInverseOf: saved)
        #expect(later.quaternion.angle(to: .identity) < 1e-15)
    }

    @Test func deviceMotionIsDoubleAndItsFieldCarriesAccuracy() throws {
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xMagneticNorthZVertical)
        let withField: DeviceMotion = processor.update(
            timestamp: 0, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.80665), magnetometer: SIMD3(20, 0, -45))
        #expect(withField.magneticField == CalibratedMagneticField(field: SIMD3(20, 0, -45), accuracy: .uncalibrated))
        let withoutField = processor.update(
            timestamp: 0.01, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.80665), magnetometer: nil)
        #expect(withoutField.magneticField.field == .zero && withoutField.magneticField.accuracy == .uncalibrated)
        // A calibration's accuracy and correction reach the field.
        let calibration = SensorCalibration(
            magnetometer: MagnetometerCalibration(
                hardIron: SIMD3(5, 0, 0), softIron: .identity, fieldStrength: 49, residual: 0.1))
        var calibrated = try DeviceMotionProcessor<InertialFrameFilter<Double>>(
            referenceFrame: .xMagneticNorthZVertical, calibration: calibration)
        let m = calibrated.update(
            timestamp: 0, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.80665), magnetometer: SIMD3(25, 0, -45))
        #expect(m.magneticField.accuracy == .high)
        #expect((m.magneticField.field - SIMD3(20, 0, -45)).length < 1e-12)
    }

    @Test func headingIsNeverThreeSixty() {
        // A yaw a hair above 0 is a heading a hair below 360, which rounds to 360.0 in Double.
        #expect((-1e-17 * 180 / Double.pi).truncatingRemainder(dividingBy: 360) + 360 == 360)  // the trap
        #expect(DeviceMotionProcessor<InertialFrameFilter<Double>>.heading(yaw: 1e-17) == 0)
        #expect(DeviceMotionProcessor<InertialFrameFilter<Double>>.heading(yaw: 0) == 0)
        #expect(DeviceMotionProcessor<InertialFrameFilter<Double>>.heading(yaw: -0.0) == 0)
        let west = DeviceMotionProcessor<InertialFrameFilter<Double>>.heading(yaw: 90 * Self.degree)
        #expect(abs(west - 270) < 1e-12)
        #expect(abs(DeviceMotionProcessor<InertialFrameFilter<Double>>.heading(yaw: -1e-9) - 1e-9 / Self.degree) < 1e-15)
        // Every pose: [0, 360).
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let yaw = Double.random(in: -Double.pi...Double.pi, using: &random) * Double(1 << Int.random(in: 0...60)) / Double(1 << 60)
            let heading = DeviceMotionProcessor<InertialFrameFilter<Double>>.heading(yaw: yaw)
            #expect(heading >= 0 && heading < 360, "yaw \(yaw)")
        }
    }

    /// Started tilted by 89.9° and by 90.1° about the device's X axis (pitch through upright), the
    /// arbitrary frame's X axis must be nearly the same: the device's X axis, which stays horizontal.
    @Test func arbitraryFrameIsContinuousThroughUpright() throws {
        let heading = Quaternion<Double>(angle: 40 * Self.degree, axis: SIMD3(0, 0, 1))
        for frame in [AttitudeReferenceFrame.xArbitraryZVertical, .xArbitraryCorrectedZVertical] {
            var xAxes: [SIMD3<Double>] = []
            for tilt in [89.9, 90.1, 30, 150] {
                let pose = heading * Quaternion(angle: tilt * Self.degree, axis: SIMD3(1, 0, 0))
                let motion = try DeviceMotionTests.settle(pose, frame: frame)
                // The device's X axis in the reference frame: the reference X axis itself.
                let x = motion.attitude.quaternion.act(on: SIMD3(1, 0, 0))
                #expect((x - SIMD3(1, 0, 0)).length < 1e-6, "\(frame), tilt \(tilt)°: X axis \(x)")
                // Gravity still says how the device is tilted.
                let g = motion.gravity
                #expect(abs(g.y + sin(tilt * Self.degree)) < 1e-6 && abs(g.z + cos(tilt * Self.degree)) < 1e-6, "\(g)")
                xAxes.append(x)
            }
            #expect((xAxes[0] - xAxes[1]).length < 1e-6)
        }
    }

    /// A device started lying flat keeps yaw 0 at the start (the documented identity start).
    @Test func arbitraryFrameStartsFlatAtTheIdentity() throws {
        let west = Quaternion<Double>(angle: 90 * Self.degree, axis: SIMD3(0, 0, 1))
        let motion = try DeviceMotionTests.settle(west, frame: .xArbitraryZVertical)
        #expect(motion.attitude.quaternion.angle(to: .identity) < 1e-8)
    }
}
