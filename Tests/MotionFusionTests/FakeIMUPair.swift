import Dispatch
import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Two fake buffered devices in one tree (`sys/iio:device0`, `sys/iio:device1`, FIFOs in `dev/`):
/// `iio:device0` an accelerometer and gyroscope (int16, as a BMI160 at ±8 g and ±500 °/s),
/// `iio:device1` a magnetometer (int16, 0.1 µT per LSB), each with a kernel-style s64 timestamp,
/// no trigger (a hardware FIFO), and `current_timestamp_clock`. The tests feed them scans of a
/// BROAD trial: the IMU at the trial's rate, the magnetometer at a fifth of it.
struct FakeIMUPair {
    /// m/s² per LSB (±8 g in 16 bits).
    static let accelScale = 0.0023942
    /// rad/s per LSB (±500 °/s in 16 bits): the trial turns at up to 2.7 rad/s.
    static let gyroScale = 0.000266316
    /// Gauss per LSB, as the kernel gives `in_magn_scale` (0.1 µT).
    static let magnScale = 0.001
    /// One magnetometer scan for this many IMU scans.
    static let magnetometerEvery = 5
    /// The first trial row of the window is t = 0 for both devices (kernel nanoseconds).
    static let imuAxes = ["in_accel_x", "in_accel_y", "in_accel_z", "in_anglvel_x", "in_anglvel_y", "in_anglvel_z"]

    let imu: IIOFakeDevice
    let magnetometer: IIOFakeDevice

    var root: String { imu.root }

    init(clocks: (String, String) = ("realtime", "realtime")) throws {
        imu = try IIOFakeDevice(
            name: "fake-imu", elements: Self.imuAxes.enumerated().map { .init(name: $0.element, index: $0.offset, type: "le:s16/16>>0") },
            timestampIndex: 6,
            files: [
                "in_accel_scale": String(Self.accelScale), "in_anglvel_scale": String(Self.gyroScale),
                "current_timestamp_clock": clocks.0,
            ])
        magnetometer = try IIOFakeDevice(
            name: "fake-magn",
            elements: ["in_magn_x", "in_magn_y", "in_magn_z"].enumerated().map { .init(name: $0.element, index: $0.offset, type: "le:s16/16>>0") },
            timestampIndex: 3, files: ["in_magn_scale": String(Self.magnScale), "current_timestamp_clock": clocks.1],
            number: 1, sharing: imu)
    }

    func cleanUp() { imu.remove() }

    /// The capture options that point `motion record --iio` or `motion device-motion --live` at
    /// the pair, with `origin` (kernel nanoseconds) as `--timestamp-origin`.
    func captureArguments(origin: Int64) -> [String] {
        ["--iio-root", imu.sysfs, "--dev-root", root + "/dev", "--timestamp-origin", "\(origin)"]
    }

    /// Runs `command` (a `motion` command line; ``captureArguments(origin:)`` for `encoded` are
    /// appended) while a thread feeds the pair `encoded` (``feed(_:imu:magnetometer:imuCount:lookahead:)``:
    /// deterministically, no reading waits, none comes late). Expects the feeding to end without
    /// failure and both devices to be put back (buffers disabled).
    func run(_ command: [String], feeding encoded: Encoded) throws {
        let imuWriter = try FIFOWriter(imu.characterDevicePath)
        let magnetometerWriter = try FIFOWriter(magnetometer.characterDevicePath)
        let failure = Lock<String?>(nil)
        let fed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                try Self.feed(encoded, imu: imuWriter, magnetometer: magnetometerWriter)
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            fed.signal()
        }
        try FuseCommandTests.run(command + captureArguments(origin: encoded.origin))
        #expect(fed.wait(timeout: .now() + 30) == .success)
        #expect(failure.withLock { $0 } == nil)
        #expect(try imu.read("buffer0/enable") == "0" && magnetometer.read("buffer0/enable") == "0")
    }

    /// A trial's rows as scans of both devices, and what they decode to.
    struct Encoded {
        /// One 24-byte scan per row: accelerometer at bytes 0, 2, 4, gyroscope at 6, 8, 10, the
        /// timestamp at 16.
        var imuScans: [[UInt8]] = []
        /// One 16-byte scan per fifth row: magnetometer at 0, 2, 4, the timestamp at 8.
        var magnetometerScans: [[UInt8]] = []
        /// The readings each scan decodes to — raw × scale in the kernel's unit, × 100 for gauss →
        /// µT — in timestamp order (at one time: accelerometer, magnetometer, gyroscope, as a
        /// device's scan is added).
        var readings: [SensorReading] = []
        /// Kernel nanoseconds that are t = 0: the first row's.
        var origin: Int64 = 0

        /// The readings of the first `imu` IMU scans and `magnetometer` magnetometer scans.
        func readings(imu: Int, magnetometer: Int) -> [SensorReading] {
            var gyroscopes = 0
            var magnetometers = 0
            return readings.filter {
                switch $0.sensor {
                case .gyroscope:
                    gyroscopes += 1
                    return gyroscopes <= imu
                case .accelerometer: return gyroscopes < imu
                case .magnetometer:
                    magnetometers += 1
                    return magnetometers <= magnetometer
                }
            }
        }
    }

    /// Rows of BROAD trial 01 (t, gyroscope, accelerometer, magnetometer) as scans.
    static func encode(_ rows: [[Double]]) throws -> Encoded {
        var encoded = Encoded()
        encoded.origin = BroadTrial01.nanoseconds(rows[0][0])
        func int16(_ value: Double, _ scale: Double) throws -> Int16 {
            try #require(Int16(exactly: (value / scale).rounded()), "\(value) does not fit at \(scale) per LSB")
        }
        func bytes(_ raws: [Int16], timestampAt offset: Int, _ ns: Int64, size: Int) -> [UInt8] {
            var scan = [UInt8](repeating: 0, count: size)
            for (i, raw) in raws.enumerated() {
                scan.replaceSubrange(2 * i..<2 * i + 2, with: littleEndianBytes(UInt64(UInt16(bitPattern: raw)), count: 2))
            }
            scan.replaceSubrange(offset..<offset + 8, with: littleEndianBytes(UInt64(bitPattern: ns), count: 8))
            return scan
        }
        // As IIOBufferedSource decodes: (raw + offset) × scale × the unit's factor.
        func decode(_ raws: [Int16], _ scale: Double, _ unit: Double) -> SIMD3<Double> {
            SIMD3(raws.map { (Double($0) + 0) * scale * unit })
        }
        for (k, row) in rows.enumerated() {
            let ns = BroadTrial01.nanoseconds(row[0])
            let t = Double(ns - encoded.origin) / 1e9
            let gyro = try (1...3).map { try int16(row[$0], gyroScale) }
            let accel = try (4...6).map { try int16(row[$0], accelScale) }
            encoded.imuScans.append(bytes(accel + gyro, timestampAt: 16, ns, size: 24))
            encoded.readings.append(SensorReading(sensor: .accelerometer, timestamp: t, value: decode(accel, accelScale, 1)))
            if k % magnetometerEvery == 0 {
                // µT → gauss → LSB.
                let magn = try (7...9).map { try int16(row[$0] / 100, magnScale) }
                encoded.magnetometerScans.append(bytes(magn, timestampAt: 8, ns, size: 16))
                encoded.readings.append(SensorReading(sensor: .magnetometer, timestamp: t, value: decode(magn, magnScale, 100)))
            }
            encoded.readings.append(SensorReading(sensor: .gyroscope, timestamp: t, value: decode(gyro, gyroScale, 1)))
        }
        return encoded
    }

    /// Writes the first `imuCount` IMU scans (and the magnetometer scans as far as they go with
    /// them) in an order that makes the assembly independent of thread timing: magnetometer scan
    /// j is written, and read by the source (the FIFO drained), before the IMU scans from
    /// j − 2 fifths on. A source reads again only after handing on every scan it read before, so
    /// when an IMU scan at t is written, every magnetometer reading at or before t has reached the
    /// assembler: no gyroscope reading waits for one, none comes late. Returns the number of
    /// magnetometer scans written. FIFOs stay open.
    @discardableResult
    static func feed(
        _ encoded: Encoded, imu: FIFOWriter, magnetometer: FIFOWriter, imuCount: Int? = nil, lookahead: Int = 2
    ) throws -> Int {
        let count = imuCount ?? encoded.imuScans.count
        var written = 0
        var i = 0
        while i < count {
            while written < encoded.magnetometerScans.count, written <= i / magnetometerEvery + lookahead {
                try magnetometer.writeAndDrain(encoded.magnetometerScans[written])
                written += 1
            }
            // The IMU scans up to the next magnetometer scan, in one write.
            let end = min(count, (i / magnetometerEvery + 1) * magnetometerEvery)
            try imu.write(Array(encoded.imuScans[i..<end].joined()))
            i = end
        }
        return written
    }

    /// The offline path: the readings in timestamp order through a fresh assembler, `finish()`,
    /// and device motion as a `MotionManager` computes it (its defaults, in `frame`).
    static func offline(_ readings: [SensorReading], frame: AttitudeReferenceFrame) throws -> (samples: [SensorSample], motions: [DeviceMotion]) {
        var assembler = SampleAssembler()
        var samples: [SensorSample] = []
        for reading in readings {
            assembler.add(reading)
            while let sample = assembler.next() { samples.append(sample) }
        }
        assembler.finish()
        while let sample = assembler.next() { samples.append(sample) }
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: frame)
        var motions: [DeviceMotion] = []
        for s in samples {
            guard let w = s.gyroscope, let a = s.accelerometer else { continue }
            motions.append(processor.update(timestamp: s.timestamp, gyroscope: w, accelerometer: a, magnetometer: s.magnetometer))
        }
        return (samples, motions)
    }

    /// The largest attitude difference, radians, of two runs of equal length.
    static func largestAttitudeDifference(_ a: [DeviceMotion], _ b: [DeviceMotion]) -> Double {
        zip(a, b).map { $0.attitude.quaternion.angle(to: $1.attitude.quaternion) }.max() ?? 0
    }
}
