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

/// Live IIO capture in the command-line tool (`motion record --iio`, `motion device-motion --live`)
/// on fake buffered devices: buffered capture when the devices have buffers, one source or a group,
/// and polling with a notice when they do not.
@Suite("IIO capture in the command-line tool")
struct IIOCaptureOptionsTests {
    static func temporaryFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mf-\(name)-\(UUID()).csv").path
    }

    /// One device with accelerometer and gyroscope: `record --iio` reads it through its buffer and
    /// writes each scan, decoded exactly, t from the first scan, until --duration.
    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func recordReadsOneBufferedDevice() throws {
        let (bytes, expected) = try IIOBufferedSourceTests.broadScans(try BroadTrial01.rows(before: 2))
        let fake = try IIOBufferedSourceTests.imu()
        defer { fake.remove() }
        let options = try IIOCaptureOptions.parse(["--iio-root", fake.sysfs, "--dev-root", fake.root + "/dev"])
        let (source, notice) = try options.source(rate: nil)
        #expect(source is IIOBufferedSource && notice == nil)

        let writer = try FIFOWriter(fake.characterDevicePath)
        writer.start(bytes, close: false)
        let output = Self.temporaryFile("record")
        defer { try? FileManager.default.removeItem(atPath: output) }
        try RecordCommand.parse([
            "--iio", "--iio-root", fake.sysfs, "--dev-root", fake.root + "/dev", "--duration", "1", "-o", output,
        ]).run()
        writer.wait()
        // The sample that reaches 1 s is the last.
        let last = try #require(expected.firstIndex { $0.timestamp >= 1 })
        let recorded = try MotionRecorder.read(path: output).samples
        #expect(recorded.count == last + 1)
        for (got, want) in zip(recorded, expected) {
            #expect(
                got.timestamp == want.timestamp && got.gyroscope == want.gyroscope && got.accelerometer == want.accelerometer
                    && got.magnetometer == nil, "\(got) ≠ \(want)")
        }
        // The device is put back.
        #expect(try fake.read("buffer0/enable") == "0")
    }

    /// Accelerometer and gyroscope on one device, the magnetometer on another: `device-motion
    /// --live` merges them (IIODeviceGroup) and writes the offline path's device motion, text for
    /// text.
    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func deviceMotionLiveOverTwoDevicesMatchesOffline() throws {
        let encoded = try FakeIMUPair.encode(try BroadTrial01.rows(from: 32, before: 36))
        let pair = try FakeIMUPair()
        defer { pair.cleanUp() }
        let (source, notice) = try IIOCaptureOptions.parse(pair.captureArguments(origin: encoded.origin)).source(rate: nil)
        #expect(source is IIODeviceGroup && notice == nil)
        #expect(source.sensors == .all)

        let output = Self.temporaryFile("device-motion")
        defer { try? FileManager.default.removeItem(atPath: output) }
        // Every IMU scan; the last ones need no magnetometer reading after them (none is due).
        try pair.run(["device-motion", "--live", "--samples", "\(encoded.imuScans.count)", "-o", output], feeding: encoded)

        let (_, motions) = try FakeIMUPair.offline(encoded.readings, frame: .xArbitraryCorrectedZVertical)
        #expect(motions.count == 1143)
        var expected = DeviceMotionCSVWriter.header + "\n"
        for m in motions {
            let q = m.attitude.quaternion
            let e = m.attitude.eulerAngles.angles
            let (w, g, u) = (m.rotationRate, m.gravity, m.userAcceleration)
            expected += "\(m.timestamp),\(q.w),\(q.x),\(q.y),\(q.z),\(e[2]),\(e[1]),\(e[0]),"
            let f = m.magneticField.field
            expected += "\(w.x),\(w.y),\(w.z),\(g.x),\(g.y),\(g.z),\(u.x),\(u.y),\(u.z),\(m.heading),"
            expected += "\(f.x),\(f.y),\(f.z),\(m.magneticField.accuracy.rawValue)\n"
        }
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.split(separator: "\n").count == 1144)
        #expect(written == expected)
    }

    /// Devices without a buffer are polled, and the notice says which and at what rate; --poll
    /// polls without a notice.
    @Test func devicesWithoutBufferArePolledWithANotice() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.cleanUp() }
        let (source, notice) = try IIOCaptureOptions.parse(["--iio-root", sysfs.root]).source(rate: nil)
        let polling = try #require(source as? IIOSource)
        // The rate: the lowest sampling frequency the devices report (iio:device2's).
        #expect(polling.rate == 12.5)
        #expect(notice == "iio:device0 has no buffer; polling sysfs at 12.5 Hz")
        let (_, fixed) = try IIOCaptureOptions.parse(["--iio-root", sysfs.root]).source(rate: 100)
        #expect(fixed == "iio:device0 has no buffer; polling sysfs at 100 Hz")

        // A buffered IMU, and a magnetometer with sysfs channels but no buffer: polled, naming it.
        let pair = try FakeIMUPair()
        defer { pair.cleanUp() }
        try pair.magnetometer.remove("buffer0/enable")
        for axis in ["x", "y", "z"] { try pair.magnetometer.write("in_magn_\(axis)_raw", "100\n") }
        let mixed = try IIOCaptureOptions.parse(["--iio-root", pair.imu.sysfs, "--dev-root", pair.root + "/dev"]).source(rate: 50)
        #expect(mixed.source is IIOSource)
        #expect(mixed.notice == "iio:device1 has no buffer; polling sysfs at 50 Hz")

        // --poll: asked for, no notice.
        let asked = try IIOCaptureOptions.parse(["--iio-root", pair.imu.sysfs, "--poll"]).source(rate: nil)
        #expect(asked.source is IIOSource && asked.notice == nil)
    }

    @Test func deviceMotionTakesAFileOrLive() {
        #expect(throws: (any Error).self) { try DeviceMotionCommand.parse(["-o", "out.csv"]) }
        #expect(throws: (any Error).self) { try DeviceMotionCommand.parse(["in.csv", "--live", "-o", "out.csv"]) }
        #expect(throws: (any Error).self) { try DeviceMotionCommand.parse(["in.csv", "--samples", "3", "-o", "out.csv"]) }
        #expect(throws: (any Error).self) { try DeviceMotionCommand.parse(["--live", "--samples", "0", "-o", "out.csv"]) }
        #expect(throws: Never.self) { try DeviceMotionCommand.parse(["--live", "--duration", "2", "-o", "out.csv"]) }
    }
}
