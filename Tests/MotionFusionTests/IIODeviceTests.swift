import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

private func expectClose(_ a: SIMD3<Double>, _ b: SIMD3<Double>, tolerance: Double = 1e-12,
                         sourceLocation: SourceLocation = #_sourceLocation) {
    for i in 0..<3 {
        #expect(abs(a[i] - b[i]) <= tolerance * max(1, abs(b[i])), "axis \(i): \(a) vs \(b)",
                sourceLocation: sourceLocation)
    }
}

@Suite("IIODevice")
struct IIODeviceTests {
    @Test func listFindsDevicesInNumericOrder() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        let devices = try IIODevice.list(root: fake.root)
        #expect(devices.map(\.name) == ["fake-imu", "fake-accel", "iio:device10"])
        #expect(devices.map(\.path) == ["iio:device0", "iio:device2", "iio:device10"].map { fake.root + "/" + $0 })
        #expect(devices[0].channelTypes == [.accelerometer, .gyroscope, .magnetometer])
        #expect(devices[1].channelTypes == [.accelerometer])
        #expect(devices[2].channelTypes == [.accelerometer])
        // A trailing slash on the root is accepted.
        #expect(try IIODevice.list(root: fake.root + "/").map(\.name) == devices.map(\.name))
    }

    @Test func readsAccelerometerWithSharedScaleAndOffset() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        let device = try IIODevice(path: fake.imu)
        // (raw + offset) × scale, m/s²: (100 − 10)·0.0023942, (−200 − 10)·0.0023942, (4096 − 10)·0.0023942.
        expectClose(try device.read(.accelerometer), SIMD3(0.215478, -0.502782, 9.7827012))
    }

    @Test func readsGyroscopeWithPerAxisScales() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        let device = try IIODevice(path: fake.imu)
        // rad/s: 10·0.001064724, −20·0.0005, 0·0.002.
        expectClose(try device.read(.gyroscope), SIMD3(0.01064724, -0.01, 0))
    }

    @Test func readsMagnetometerInMicrotesla() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        let device = try IIODevice(path: fake.imu)
        // gauss: 200·0.001, −150·0.001, (400 + 4)·0.001 → µT × 100.
        expectClose(try device.read(.magnetometer), SIMD3(20, -15, 40.4))
    }

    @Test func readsProcessedInputAndSharedScaleWithoutOffset() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        expectClose(try IIODevice(path: fake.root + "/iio:device2").read(.accelerometer), SIMD3(0.1, -0.2, 9.8))
        expectClose(try IIODevice(path: fake.root + "/iio:device10").read(.accelerometer), SIMD3(0.5, 1, 1.5))
    }

    @Test func samplingFrequency() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        let imu = try IIODevice(path: fake.imu)
        #expect(imu.samplingFrequency == 100)
        #expect(imu.samplingFrequency(of: .gyroscope) == 100)
        let accel = try IIODevice(path: fake.root + "/iio:device2")
        #expect(accel.samplingFrequency == 12.5)
        #expect(accel.samplingFrequency(of: .accelerometer) == 12.5)
        #expect(try IIODevice(path: fake.root + "/iio:device10").samplingFrequency == nil)
        try fake.write("iio:device0/sampling_frequency", "fast")
        #expect(imu.samplingFrequency == nil)
    }

    @Test func missingRawFileNamesTheFile() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        let device = try IIODevice(path: fake.imu)
        try fake.remove("iio:device0/in_accel_y_raw")
        #expect(throws: IIOError.missingFile(path: fake.imu + "/in_accel_y_raw")) {
            try device.read(.accelerometer)
        }
    }

    @Test func missingScaleNamesTheSharedScaleFile() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        let device = try IIODevice(path: fake.imu)
        try fake.remove("iio:device0/in_magn_scale")
        #expect(throws: IIOError.missingFile(path: fake.imu + "/in_magn_scale")) {
            try device.read(.magnetometer)
        }
        // A missing offset is fine (0): the gyroscope has none.
        _ = try device.read(.gyroscope)
    }

    @Test func missingRootOrDevice() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        let missing = fake.root + "/nothing-here"
        #expect(throws: IIOError.missingFile(path: missing)) { try IIODevice.list(root: missing) }
        #expect(throws: IIOError.missingFile(path: missing)) { try IIODevice(path: missing) }
    }

    @Test func notANumberNamesFileAndText() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        let device = try IIODevice(path: fake.imu)
        try fake.write("iio:device0/in_magn_z_raw", "abc\n")
        #expect(throws: IIOError.notANumber(path: fake.imu + "/in_magn_z_raw", text: "abc")) {
            try device.read(.magnetometer)
        }
        try fake.write("iio:device0/in_accel_scale", "nan\n")
        #expect(throws: IIOError.notANumber(path: fake.imu + "/in_accel_scale", text: "nan")) {
            try device.read(.accelerometer)
        }
        try fake.write("iio:device0/in_anglvel_x_raw", "")
        #expect(throws: IIOError.notANumber(path: fake.imu + "/in_anglvel_x_raw", text: "")) {
            try device.read(.gyroscope)
        }
    }

    @Test func overflowIsAnErrorNotInfinity() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        let device = try IIODevice(path: fake.imu)
        try fake.write("iio:device0/in_magn_x_raw", "1e307")  // × 0.001 × 100 is finite…
        _ = try device.read(.magnetometer)
        try fake.write("iio:device0/in_magn_scale", "1000")  // …but × 1000 × 100 is not.
        #expect(throws: IIOError.nonFinite(path: fake.imu + "/in_magn_x_raw")) {
            try device.read(.magnetometer)
        }
    }

    @Test func deviceWithoutMagnetometer() throws {
        let fake = try FakeSysfs()
        defer { fake.cleanUp() }
        let path = fake.root + "/iio:device2"
        let device = try IIODevice(path: path)
        #expect(throws: IIOError.noSuchChannel(device: path, type: .magnetometer)) {
            try device.read(.magnetometer)
        }
        #expect(throws: IIOError.noSuchChannel(device: path, type: .gyroscope)) {
            try device.read(.gyroscope)
        }
    }

    #if os(Linux)
        @Test func unreadableFileIsReported() throws {
            let fake = try FakeSysfs()
            defer { fake.cleanUp() }
            let device = try IIODevice(path: fake.imu)
            try fake.remove("iio:device0/in_accel_x_raw")
            try FileManager.default.createDirectory(atPath: fake.imu + "/in_accel_x_raw", withIntermediateDirectories: false)
            do throws(IIOError) {
                _ = try device.read(.accelerometer)
                Issue.record("expected an error")
            } catch {
                guard case .unreadable(let path, _) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(path == fake.imu + "/in_accel_x_raw")
            }
        }
    #endif

    @Test func errorDescriptionsNameTheFile() {
        let error = IIOError.notANumber(path: "/sys/x/in_accel_x_raw", text: "abc")
        #expect(error.description.contains("/sys/x/in_accel_x_raw"))
        #expect(error.description.contains("abc"))
        #expect(error.path == "/sys/x/in_accel_x_raw")
        #expect(IIOChannelType.magnetometer.toLibraryUnit == 100)
    }
}
