import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionDevices

/// The package's fake buffered IIO device and its writer, read by ``IIOBufferedSource`` as a real
/// device would be. No timed assertions: only counts, order, layout and values.
struct IIOFakeDeviceTests {
    @Test func aSourceReadsEveryScanWithItsTimestampAndValues() throws {
        let device = try IIOFakeDevice()
        defer { device.remove() }
        #expect(device.layout?.scanSize == 32)
        #expect(device.layout?.placement(of: "in_timestamp")?.offset == 24)
        #expect(try IIODevice(path: device.devicePath).channelTypes == [.accelerometer, .gyroscope, .magnetometer])
        let writer = try IIOFakeScanWriter(device: device, rateHz: 2000, count: 200)
        let source = try IIOBufferedSource(
            device: IIODevice(path: device.devicePath), characterDevicePath: device.characterDevicePath, timestampOrigin: 0)
        writer.start()
        var samples: [SensorSample] = []
        var ending: (any Error)?
        do {
            while let sample = try source.next() { samples.append(sample) }
        } catch {
            ending = error
        }
        #expect(writer.wait(timeout: 10))
        #expect(writer.problem == nil)
        // The writer closed the FIFO after the last scan: the device went away.
        if let error = ending as? IIOBufferError, case .disconnected = error {} else { Issue.record("ended with \(String(describing: ending))") }
        let stamps = writer.timestamps
        #expect(stamps.count == 200)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
        #expect(samples.count == 200)
        for (sample, stamp) in zip(samples, stamps) {
            #expect(abs(sample.timestamp * 1e9 - Double(stamp)) < 1, "the kernel timestamp in seconds")
            let g = try #require(sample.gyroscope)
            let a = try #require(sample.accelerometer)
            let m = try #require(sample.magnetometer)
            #expect(abs(g.z - 0.5) < 0.001 && abs(g.x) < 0.001)
            #expect(abs(a.z - 9.80665) < 0.01)
            #expect(abs((m.x * m.x + m.y * m.y).squareRoot() - 20) < 0.5 && abs(m.z + 45) < 0.2)
        }
        // The device is left as it was found, and its folder goes with remove().
        #expect(!device.isBufferEnabled)
        device.remove()
        #expect(!FileManager.default.fileExists(atPath: device.root))
    }

    @Test func theWriterWaitsForTheBufferToBeEnabled() throws {
        let device = try IIOFakeDevice(types: [.gyroscope])
        defer { device.remove() }
        #expect(device.layout?.scanSize == 16)
        let writer = try IIOFakeScanWriter(device: device, rateHz: 1000, count: 10, enableTimeout: 0.05)
        writer.start()
        #expect(writer.wait(timeout: 10))
        #expect(writer.timestamps.isEmpty)
        #expect(writer.problem != nil)
    }

    /// Devices sharing one tree: a number already taken is refused without touching the device that
    /// has it, and the tree lives as long as any device in it.
    @Test func devicesSharingATreeNeverTouchEachOther() throws {
        let owner = try IIOFakeDevice(types: [.gyroscope])
        #expect(throws: POSIXError.self) {
            _ = try IIOFakeDevice(name: "other", elements: [], sharing: owner)  // number 0 again
        }
        #expect(try owner.read("name") == "fake-imu")
        #expect(FileManager.default.fileExists(atPath: owner.characterDevicePath))
        let magnetometer = try IIOFakeDevice(
            name: "fake-magn", elements: [.init(name: "in_magn_x", index: 0, type: "le:s16/16>>0")], number: 1,
            sharing: IIOFakeDevice(types: [.accelerometer]))  // its owner is held by it alone
        #expect(try magnetometer.read("name") == "fake-magn")
        #expect(try IIODevice.list(root: magnetometer.sysfs).map(\.name) == ["fake-imu", "fake-magn"])
        magnetometer.remove()  // not the owner: the tree stays
        #expect(FileManager.default.fileExists(atPath: magnetometer.root))
        owner.remove()
        #expect(!FileManager.default.fileExists(atPath: owner.root))
    }
}
