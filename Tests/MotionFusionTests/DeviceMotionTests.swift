import Foundation
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Core Motion's documented device-motion values, from static samples of known attitudes.
@Suite("Device motion")
struct DeviceMotionTests {
    /// A static device with attitude `q` (device → NWU): what its sensors read.
    static func settle(
        _ q: Quaternion<Double>, frame: AttitudeReferenceFrame, declinationDegrees: Double? = nil, steps: Int = 400
    ) throws -> DeviceMotion {
        var processor = try DeviceMotionProcessor(
            stream: FusionStream(filter: ComplementaryFilter<Double>(settings: .init(frame: .nwu))),
            referenceFrame: frame, declinationDegrees: declinationDegrees)
        let force = q.inverseAct(on: SIMD3(0, 0, 9.80665))
        let field = q.inverseAct(on: SIMD3(20, 0, -45))  // NWU: north and down
        var motion: DeviceMotion!
        for k in 0..<steps {
            motion = processor.update(timestamp: Double(k) * 0.01, gyroscope: .zero, accelerometer: force, magnetometer: field)
        }
        return motion
    }

    @Test func coreMotionGravityValues() throws {
        let degree = Double.pi / 180
        // Lying flat, face up.
        #expect((try Self.settle(.identity, frame: .xMagneticNorthZVertical).gravity - SIMD3(0, 0, -1)).length < 1e-9)
        // Standing in portrait: top edge raised 90° about the device's X axis.
        let portrait = Quaternion<Double>(angle: 90 * degree, axis: SIMD3(1, 0, 0))
        #expect((try Self.settle(portrait, frame: .xMagneticNorthZVertical).gravity - SIMD3(0, -1, 0)).length < 1e-9)
        // Portrait, tilted 45° to the right (clockwise about the screen normal, −Z).
        let tilted = portrait * Quaternion(angle: -45 * degree, axis: SIMD3(0, 0, 1))
        let g = try Self.settle(tilted, frame: .xMagneticNorthZVertical).gravity
        #expect((g - SIMD3(0.5.squareRoot(), -0.5.squareRoot(), 0)).length < 1e-9)
    }

    @Test func theFiltersEarthFrameDoesNotMatter() throws {
        let q = Quaternion<Double>(angle: 0.7, axis: SIMD3(1, 2, 3))
        let force = q.inverseAct(on: SIMD3(0, 0, 9.80665))
        let field = q.inverseAct(on: SIMD3(20, 0, -45))
        for frame in EarthFrame.allCases {
            var processor = try DeviceMotionProcessor(
                stream: FusionStream(filter: ComplementaryFilter<Double>(settings: .init(frame: frame))),
                referenceFrame: .xMagneticNorthZVertical)
            let m = processor.update(timestamp: 0, gyroscope: .zero, accelerometer: force, magnetometer: field)
            #expect(m.attitude.quaternion.angle(to: q) < 1e-12, "\(frame)")
        }
    }

    @Test func userAccelerationAndGravitySumToCoreMotionsAcceleration() throws {
        let f = SIMD3<Double>(1, -2, 11)
        let gravity = SIMD3<Double>(0.5, -0.2, -9.79)
        let sum = CoreMotionConversion.gravity(gravity)
            + CoreMotionConversion.userAcceleration(specificForce: f, gravitationalAcceleration: gravity)
        #expect((sum - CoreMotionConversion.acceleration(specificForce: f)).length < 1e-15)
        // Lying flat at rest Core Motion's accelerometer reads (0, 0, −1).
        #expect(CoreMotionConversion.acceleration(specificForce: SIMD3<Double>(0, 0, 9.80665)) == SIMD3(0, 0, -1))
        let flat = try Self.settle(.identity, frame: .xMagneticNorthZVertical)
        #expect(flat.userAcceleration.length < 1e-9)
    }

    @Test func headingAndReferenceFrames() throws {
        let degree = Double.pi / 180
        // Device X turned 90° counter-clockwise (toward west): heading 270° clockwise from north.
        let west = Quaternion<Double>(angle: 90 * degree, axis: SIMD3(0, 0, 1))
        let magnetic = try Self.settle(west, frame: .xMagneticNorthZVertical)
        #expect(abs(magnetic.heading - 270) < 1e-6)
        #expect(abs(magnetic.attitude.yaw - 90 * degree) < 1e-8)
        // True north with a declination of 10° east, in degrees: true heading = magnetic heading +
        // declination.
        let trueNorth = try Self.settle(west, frame: .xTrueNorthZVertical, declinationDegrees: 10)
        #expect(abs(trueNorth.heading - 280) < 1e-6)
        // Arbitrary frames: X is the initial heading, so yaw starts at 0; no heading.
        let arbitrary = try Self.settle(west, frame: .xArbitraryCorrectedZVertical)
        #expect(abs(arbitrary.attitude.yaw) < 1e-8 && arbitrary.heading == -1)
        #expect(try Self.settle(west, frame: .xArbitraryZVertical).heading == -1)
    }

    /// True north needs a finite declination in degrees: without one the processor is a typed error,
    /// never magnetic north; the other frames take none.
    @Test func trueNorthNeedsADeclinationInDegrees() throws {
        let stream = FusionStream(filter: ComplementaryFilter<Double>(settings: .init(frame: .nwu)))
        #expect(throws: DeviceMotionError.trueNorthNotAvailable) {
            try DeviceMotionProcessor(stream: stream, referenceFrame: .xTrueNorthZVertical)
        }
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(throws: DeviceMotionError.declinationNotAvailable(.notFinite(parameter: "declinationDegrees"))) {
                try DeviceMotionProcessor<InertialFrameFilter<Double>>(
                    referenceFrame: .xTrueNorthZVertical, declinationDegrees: bad)
            }
        }
        let trueNorth = try DeviceMotionProcessor(stream: stream, referenceFrame: .xTrueNorthZVertical, declinationDegrees: -3.5)
        #expect(trueNorth.declinationDegrees == -3.5)
        for frame in [AttitudeReferenceFrame.xMagneticNorthZVertical, .xArbitraryZVertical, .xArbitraryCorrectedZVertical] {
            #expect(try DeviceMotionProcessor(stream: stream, referenceFrame: frame, declinationDegrees: 10).declinationDegrees == nil)
            #expect(try DeviceMotionProcessor(stream: stream, referenceFrame: frame).declinationDegrees == nil)
        }
        // West is negative: 10° west turns the true heading 10° the other way.
        let degree = Double.pi / 180
        let west = Quaternion<Double>(angle: 90 * degree, axis: SIMD3(0, 0, 1))
        #expect(abs(try Self.settle(west, frame: .xTrueNorthZVertical, declinationDegrees: -10).heading - 260) < 1e-6)
    }

    @Test func deviceMotionCommandAppliesCalibration() throws {
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for k in 0..<300 { text += "\(Double(k) * 0.01),0.01,0,0,0,0,9.80665,30,0,-45\n" }
        let input = CSVReaderTests.file(text)
        let calibration = FileManager.default.temporaryDirectory.appendingPathComponent("mf-dm-\(UUID()).json").path
        try CalibrationFile.write(
            InertialCalibration(bias: SIMD3(0.01, 0, 0)), sensor: .gyroscope, to: calibration)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mf-dm-\(UUID()).csv").path
        try FuseCommandTests.run(["device-motion", input, "-o", out, "--calibration", calibration, "--reference-frame", "xMagneticNorthZVertical"])
        let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        #expect(rows[0].hasPrefix("t,qw,qx,qy,qz,roll,pitch,yaw,rotation_x"))
        let fields = rows.last!.split(separator: ",")
        let last = fields.dropLast().map { Double($0)! }
        #expect(abs(last[8]) < 1e-12)  // the calibrated gyroscope bias is gone from the rotation rate
        #expect(abs(last[13] + 1) < 1e-9)  // gravity z = −1 g lying flat
        // One direction of the field teaches the online calibration nothing: the field as read.
        #expect(Array(last[18...]) == [30, 0, -45] && fields.last == "uncalibrated", "\(fields)")
        #expect(throws: (any Error).self) {
            try FuseCommandTests.run(["device-motion", input, "-o", out, "--reference-frame", "xTrueNorthZVertical"])
        }
    }
}
