import Dispatch
import Foundation
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `IIODeviceGroup` over two fake buffered devices (`FakeIMUPair`: accelerometer and gyroscope on
/// `iio:device0` at 286 Hz, magnetometer on `iio:device1` at 57 Hz) fed with BROAD trial 01, driving
/// a `MotionManager`; compared with the offline path on the same decoded readings.
@Suite("IIO device group")
struct IIODeviceGroupTests {
    /// 32–36 s of trial 01: at rest, then turning (up to 2.7 rad/s).
    static func rows() throws -> [[Double]] { try BroadTrial01.rows(from: 32, before: 36) }

    /// A running group, its manager, and what the manager delivered.
    final class Run: @unchecked Sendable {
        // @unchecked: the collections are `Lock`s; the rest is set before the run.
        let pair: FakeIMUPair
        let imuWriter: FIFOWriter
        let magnetometerWriter: FIFOWriter
        let group: IIODeviceGroup
        let manager: MotionManager
        let queue = DispatchQueue(label: "IIODeviceGroupTests")
        let motions = Lock<[DeviceMotion]>([])
        let magnetometer = Lock<[MagnetometerData]>([])
        let errors = Lock<[String]>([])

        init(_ pair: FakeIMUPair, origin: Int64, frame: AttitudeReferenceFrame) throws {
            self.pair = pair
            imuWriter = try FIFOWriter(pair.imu.characterDevicePath)
            magnetometerWriter = try FIFOWriter(pair.magnetometer.characterDevicePath)
            group = try IIODeviceGroup(
                devices: [try pair.imu.iioDevice, try pair.magnetometer.iioDevice],
                characterDeviceFolder: pair.root + "/dev", timestampOrigin: origin)
            try group.start()
            imuWriter.releaseKeeper()
            magnetometerWriter.releaseKeeper()
            manager = MotionManager(source: group)
            manager.startMagnetometerUpdates(to: queue) { [magnetometer] data, _ in
                if let data { magnetometer.withLock { $0.append(data) } }
            }
            manager.startDeviceMotionUpdates(using: frame, to: queue) { [motions, errors] motion, error in
                if let motion { motions.withLock { $0.append(motion) } }
                if let error { errors.withLock { $0.append("\(error)") } }
            }
        }

        /// Runs `feed` on a thread of its own (the test thread waits for the manager); returns
        /// once the manager has finished. A failure of `feed` is recorded here.
        func run(_ feed: @escaping @Sendable () throws -> Void) {
            let failure = Lock<String?>(nil)
            let fed = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                do { try feed() } catch { failure.withLock { $0 = "\(error)" } }
                fed.signal()
            }
            manager.waitUntilFinished()
            queue.sync {}
            _ = fed.wait(timeout: .now() + 30)
            if let message = failure.withLock({ $0 }) { Issue.record("feeding: \(message)") }
        }

        /// Waits (at most 20 s) until the group has taken `counts` samples from its members.
        func waitForReceived(_ counts: [Int]) throws {
            let deadline = Date(timeIntervalSinceNow: 20)
            while group.receivedCounts != counts {
                try #require(Date() < deadline, "received \(group.receivedCounts), expected \(counts)")
                usleep(200)
            }
        }
    }

    /// The live path — two devices, two reader threads, the assembler, the manager — gives the
    /// offline path's device motion: the same samples, timestamps and attitudes.
    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func liveMatchesOfflineAssemblyAndDeviceMotion() throws {
        let encoded = try FakeIMUPair.encode(try Self.rows())
        let imuCount = encoded.imuScans.count
        let magnetometerCount = encoded.magnetometerScans.count
        #expect(imuCount == 1143 && magnetometerCount == 229)
        let pair = try FakeIMUPair()
        defer { pair.cleanUp() }
        let run = try Run(pair, origin: encoded.origin, frame: .xMagneticNorthZVertical)
        #expect(run.group.sensors == .all)
        #expect(run.group.members.count == 2)
        #expect(try pair.imu.read("buffer0/enable") == "1" && pair.magnetometer.read("buffer0/enable") == "1")
        run.run {
            try FakeIMUPair.feed(encoded, imu: run.imuWriter, magnetometer: run.magnetometerWriter)
            // Every reading in the assembler, then the IMU unplugged: the end of the run.
            try run.waitForReceived([imuCount, magnetometerCount])
            run.imuWriter.closeWriter()
        }
        let (samples, expected) = try FakeIMUPair.offline(encoded.readings, frame: .xMagneticNorthZVertical)
        let motions = run.motions.withLock { $0 }
        #expect(samples.count == imuCount)
        #expect(motions.count == expected.count)
        #expect(run.manager.sampleCount == imuCount)  // none lost, none doubled
        #expect(motions.map(\.timestamp) == expected.map(\.timestamp))
        let largest = FakeIMUPair.largestAttitudeDifference(motions, expected)
        #expect(largest <= 1e-9, "largest attitude difference \(largest) rad")
        print("IIODeviceGroup live vs offline: \(motions.count) samples, largest attitude difference \(largest) rad")
        // And `motion fuse` on the same readings — a multi-rate CSV, one reading per row, in the
        // order they arrived — with the filter in NWU, whose quaternion is the attitude in
        // xMagneticNorthZVertical (device → NWU): the same samples and attitudes.
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("mf-group-\(UUID()).csv").path
        let fused = FileManager.default.temporaryDirectory.appendingPathComponent("mf-group-fused-\(UUID()).csv").path
        defer {
            try? FileManager.default.removeItem(atPath: csv)
            try? FileManager.default.removeItem(atPath: fused)
        }
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for r in encoded.readings {
            let v = "\(r.value.x),\(r.value.y),\(r.value.z)"
            switch r.sensor {
            case .gyroscope: text += "\(r.timestamp),\(v),,,,,,\n"
            case .accelerometer: text += "\(r.timestamp),,,,\(v),,,\n"
            case .magnetometer: text += "\(r.timestamp),,,,,,,\(v)\n"
            }
        }
        try text.write(toFile: csv, atomically: true, encoding: .utf8)
        try FuseCommandTests.run(["fuse", csv, "--frame", "nwu", "-o", fused])
        let fusedRows = try FuseCommandTests.output(fused)
        #expect(fusedRows.count == motions.count)
        #expect(fusedRows.map { $0[0] } == motions.map(\.timestamp))
        let fromFuse = zip(fusedRows, motions).map { row, motion in
            Quaternion(w: row[1], x: row[2], y: row[3], z: row[4]).angle(to: motion.attitude.quaternion)
        }.max() ?? .nan
        #expect(fromFuse <= 1e-9, "motion fuse vs the manager: largest attitude difference \(fromFuse) rad")
        print("IIODeviceGroup live vs motion fuse: \(fusedRows.count) rows, largest attitude difference \(fromFuse) rad")
        // Each magnetometer reading reported once, at its time.
        let magnetometerTimes = encoded.readings.filter { $0.sensor == .magnetometer }.map(\.timestamp)
        #expect(run.magnetometer.withLock { $0 }.map(\.timestamp) == magnetometerTimes)
        // Deterministic feeding: nothing waited out, nothing late.
        #expect(run.group.statistics.timedOutWaits == 0 && run.group.statistics.lateReadings == 0)
        // The end: the IMU's own error, after every sample.
        let error = try #require(run.manager.error as? IIOBufferError)
        #expect(error == .disconnected(path: pair.imu.characterDevicePath, pendingBytes: 0))
        #expect(run.errors.withLock { $0 } == ["\(error)"])
        // Both devices put back.
        #expect(try pair.imu.read("buffer0/enable") == "0" && pair.magnetometer.read("buffer0/enable") == "0")
    }

    /// The magnetometer unplugged mid-run: every sample that could be made from what arrived comes
    /// first, then its error, naming it; the IMU is stopped and put back.
    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func unpluggedMagnetometerEndsWithItsErrorAfterEveryCompleteSample() throws {
        let encoded = try FakeIMUPair.encode(try Self.rows())
        let pair = try FakeIMUPair()
        defer { pair.cleanUp() }
        let run = try Run(pair, origin: encoded.origin, frame: .xMagneticNorthZVertical)
        let imuCount = 600
        let magnetometerCount = Lock(0)
        run.run {
            let written = try FakeIMUPair.feed(encoded, imu: run.imuWriter, magnetometer: run.magnetometerWriter, imuCount: imuCount)
            magnetometerCount.withLock { $0 = written }
            try run.waitForReceived([imuCount, written])
            run.magnetometerWriter.closeWriter()
        }
        let written = magnetometerCount.withLock { $0 }
        #expect(written == 600 / 5 + 2)
        let (_, expected) = try FakeIMUPair.offline(encoded.readings(imu: imuCount, magnetometer: written), frame: .xMagneticNorthZVertical)
        let motions = run.motions.withLock { $0 }
        #expect(motions.count == imuCount && expected.count == imuCount)
        #expect(motions.map(\.timestamp) == expected.map(\.timestamp))
        #expect(FakeIMUPair.largestAttitudeDifference(motions, expected) <= 1e-9)
        let error = try #require(run.manager.error as? IIOBufferError)
        #expect(error == .disconnected(path: pair.magnetometer.characterDevicePath, pendingBytes: 0))
        #expect(try pair.imu.read("buffer0/enable") == "0" && pair.magnetometer.read("buffer0/enable") == "0")
        // The group stays ended.
        #expect(try run.group.next() == nil)
    }

    /// A magnetometer that never sends: 6D device motion on every gyroscope reading, no wait.
    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func silentMagnetometerGivesSixAxisDeviceMotion() throws {
        var silent = try FakeIMUPair.encode(try Self.rows())
        silent.magnetometerScans = []
        silent.readings.removeAll { $0.sensor == .magnetometer }
        let encoded = silent
        let imuCount = encoded.imuScans.count
        let pair = try FakeIMUPair()
        defer { pair.cleanUp() }
        let run = try Run(pair, origin: encoded.origin, frame: .xArbitraryZVertical)
        run.run {
            try FakeIMUPair.feed(encoded, imu: run.imuWriter, magnetometer: run.magnetometerWriter)
            try run.waitForReceived([imuCount, 0])
            run.imuWriter.closeWriter()
        }
        let (samples, expected) = try FakeIMUPair.offline(encoded.readings, frame: .xArbitraryZVertical)
        #expect(samples.allSatisfy { $0.magnetometer == nil })
        let motions = run.motions.withLock { $0 }
        #expect(motions.count == imuCount && expected.count == imuCount)
        #expect(motions.map(\.timestamp) == expected.map(\.timestamp))
        #expect(FakeIMUPair.largestAttitudeDifference(motions, expected) <= 1e-9)
        #expect(run.magnetometer.withLock { $0 }.isEmpty)
        #expect((run.manager.error as? IIOBufferError) == .disconnected(path: pair.imu.characterDevicePath, pendingBytes: 0))
    }

    /// `stop()` from another thread wakes a `next()` waiting for data; the devices are put back. The
    /// stop comes from a thread of its own: a block on a global queue can wait longer than the
    /// source's 5 s of silence while other suites keep the pool busy (a CI run saw that).
    @Test func stopWakesAWaitingNext() throws {
        let pair = try FakeIMUPair()
        defer { pair.cleanUp() }
        let imuWriter = try FIFOWriter(pair.imu.characterDevicePath)
        let magnetometerWriter = try FIFOWriter(pair.magnetometer.characterDevicePath)
        _ = (imuWriter, magnetometerWriter)
        let group = try IIODeviceGroup(
            devices: [try pair.imu.iioDevice, try pair.magnetometer.iioDevice], characterDeviceFolder: pair.root + "/dev",
            timestampOrigin: 0)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.2)
            group.stop()
        }
        #expect(try group.next() == nil)
        #expect(try pair.imu.read("buffer0/enable") == "0" && pair.magnetometer.read("buffer0/enable") == "0")
        #expect(try group.next() == nil)
    }

    /// The requirements checked when a group is made.
    @Test func requirementsAreCheckedAtInit() throws {
        let pair = try FakeIMUPair()
        defer { pair.cleanUp() }
        let imu = try pair.imu.iioDevice
        let magnetometer = try pair.magnetometer.iioDevice
        func source(_ device: IIODevice, origin: Int64?) throws -> IIOBufferedSource {
            try IIOBufferedSource(device: device, characterDevicePath: pair.root + "/dev/x", timestampOrigin: origin)
        }
        // Different origins: t = 0 differs.
        #expect(throws: IIODeviceGroupError.timestampOriginsDiffer(devices: [imu.path, magnetometer.path], origins: [1, 2])) {
            try IIODeviceGroup(members: [try source(imu, origin: 1), try source(magnetometer, origin: 2)])
        }
        #expect(throws: IIODeviceGroupError.missingTimestampOrigin(device: magnetometer.path)) {
            try IIODeviceGroup(members: [try source(imu, origin: 1), try source(magnetometer, origin: nil)])
        }
        // One member needs no origin; none needs a gyroscope.
        #expect(throws: Never.self) { try IIODeviceGroup(members: [try source(imu, origin: nil)]) }
        #expect(throws: IIODeviceGroupError.noGyroscope(devices: [magnetometer.path])) {
            try IIODeviceGroup(members: [try source(magnetometer, origin: 1)])
        }
        #expect(throws: IIODeviceGroupError.noMembers) { try IIODeviceGroup(members: []) }
        let message = IIODeviceGroupError.timestampOriginsDiffer(devices: ["a", "b"], origins: [1, 2]).description
        #expect(message.contains("pass one timestampOrigin to every IIOBufferedSource"))
        // The same origin: fine; the union of the sensors.
        let group = try IIODeviceGroup(members: [try source(imu, origin: 5), try source(magnetometer, origin: 5)])
        #expect(group.sensors == .all)
        // Different clocks.
        try pair.magnetometer.write("current_timestamp_clock", "monotonic\n")
        #expect(
            throws: IIODeviceGroupError.clocksDiffer(devices: [imu.path, magnetometer.path], clocks: ["realtime", "monotonic"])
        ) {
            try IIODeviceGroup(members: [try source(imu, origin: 5), try source(magnetometer, origin: 5)])
        }
        #expect(throws: IIODeviceGroupError.clocksDiffer(devices: [imu.path, magnetometer.path], clocks: ["realtime", "monotonic"])) {
            try IIODeviceGroup(devices: [imu, magnetometer])
        }
        // A device without a clock file is not checked; the origin is that clock now.
        try pair.imu.remove("current_timestamp_clock")
        let before = try #require(IIODeviceGroup.kernelClockNanoseconds("monotonic"))
        let made = try IIODeviceGroup(devices: [imu, magnetometer])
        let origin = try #require((made.members[0] as? IIOBufferedSource)?.timestampOrigin)
        #expect(origin >= before && origin <= (IIODeviceGroup.kernelClockNanoseconds("monotonic") ?? 0))
        #expect((made.members[1] as? IIOBufferedSource)?.timestampOrigin == origin)
        #expect(IIODeviceGroup.kernelClockNanoseconds("sundial") == nil)
        // A device without a buffer.
        try pair.magnetometer.remove("buffer0/enable")
        #expect(throws: IIODeviceGroupError.device(.noBuffer(device: magnetometer.path))) {
            try IIODeviceGroup(devices: [imu, magnetometer], timestampOrigin: 0)
        }
    }
}
