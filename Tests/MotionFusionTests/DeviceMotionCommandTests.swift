import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `motion device-motion`: its options and its output text.
@Suite("motion device-motion")
struct DeviceMotionCommandTests {
    /// Southern latitudes and western longitudes are negative numbers given as separate arguments.
    @Test func negativeLatitudeAndLongitudeParse() throws {
        let command = try DeviceMotionCommand.parse([
            "in.csv", "-o", "out.csv", "--reference-frame", "xTrueNorthZVertical", "--latitude", "-33.87",
            "--longitude", "-151.21",
        ])
        #expect(command.latitude == -33.87)
        #expect(command.longitude == -151.21)
        let east = try DeviceMotionCommand.parse(["in.csv", "-o", "out.csv", "--latitude", "52.5", "--longitude", "13.4"])
        #expect(east.latitude == 52.5 && east.longitude == 13.4)
        // Below the ellipsoid (the Dead Sea shore): "Missing value for '--height-km'" before.
        let below = try DeviceMotionCommand.parse(["in.csv", "-o", "out.csv", "--latitude", "31.5", "--longitude", "35.5", "--height-km", "-0.4"])
        #expect(below.heightKm == -0.4)
        let equals = try DeviceMotionCommand.parse(["in.csv", "-o", "out.csv", "--latitude=-1e-3", "--longitude=-0"])
        #expect(equals.latitude == -0.001 && equals.longitude == 0)
        // Still a number: a word is an error, not an option taken as the value.
        #expect(throws: (any Error).self) { try DeviceMotionCommand.parse(["in.csv", "-o", "out.csv", "--latitude", "--longitude", "1"]) }
        #expect(throws: (any Error).self) { try DeviceMotionCommand.parse(["in.csv", "-o", "out.csv", "--latitude"]) }
    }

    /// The text of every number is Swift's `"\(x)"`, row by row, as the library computes them, over
    /// more rows than one output buffer holds; true north south of the equator runs end to end.
    @Test func outputIsSwiftsTextOfEveryNumber() throws {
        let folder = try Folder()
        defer { folder.remove() }
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for k in 0..<3_000 {
            let t = Double(k) * 0.01
            text += "\(t),\(0.3 * sin(t)),-0.2,\(0.5 * cos(t)),0.1,\(sin(t)),9.80665,\(30 + t),-2,-45\n"
        }
        let input = try folder.write("rec.csv", text)
        let output = folder["out.csv"]
        try FuseCommandTests.run([
            "device-motion", input, "-o", output, "--reference-frame", "xTrueNorthZVertical", "--latitude", "-33.87",
            "--longitude", "151.21", "--date", "2026-03-01",
        ])
        // The command passes WMM2025's declination in degrees, for that day.
        let declination = try WorldMagneticModel.wmm2025.field(
            latitude: -33.87, longitude: 151.21, heightKilometers: 0, decimalYear: try decimalYear("2026-03-01")
        ).declinationDegrees
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(
            referenceFrame: .xTrueNorthZVertical, declinationDegrees: declination)
        var expected = "t,qw,qx,qy,qz,roll,pitch,yaw,rotation_x,rotation_y,rotation_z,gravity_x,gravity_y,gravity_z,user_x,user_y,user_z,heading,field_x,field_y,field_z,field_accuracy\n"
        let reader = try IMUCSVReader(path: input)
        while let r = try reader.next() {
            let m = processor.update(
                timestamp: r.timestamp, gyroscope: r.gyroscope, accelerometer: r.accelerometer, magnetometer: r.magnetometer)
            let q = m.attitude.quaternion
            let e = m.attitude.eulerAngles.angles
            let (w, g, u) = (m.rotationRate, m.gravity, m.userAcceleration)
            expected += "\(r.timestamp),\(q.w),\(q.x),\(q.y),\(q.z),\(e[2]),\(e[1]),\(e[0]),"
            let f = m.magneticField.field
            expected += "\(w.x),\(w.y),\(w.z),\(g.x),\(g.y),\(g.z),\(u.x),\(u.y),\(u.z),\(m.heading),"
            expected += "\(f.x),\(f.y),\(f.z),\(m.magneticField.accuracy.rawValue)\n"
        }
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.utf8.count > 600_000)
        #expect(written == expected)
    }
}
