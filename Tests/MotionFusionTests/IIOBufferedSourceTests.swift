import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `IIOBufferedSource` on a fake device (`IIOFakeDevice`: a sysfs-like tree and a FIFO for
/// `/dev/iio:device0`) fed by a writer thread. The expected samples are computed here, from the
/// numbers encoded, never by the code under test: raw integer × the scale written to the fake
/// sysfs file, timestamps from the encoded nanoseconds.
@Suite("IIOBuffer source")
struct IIOBufferedSourceTests {
    // MARK: - The accelerometer + gyroscope device and BROAD trial 01

    static let axisNames = ["in_accel_x", "in_accel_y", "in_accel_z", "in_anglvel_x", "in_anglvel_y", "in_anglvel_z"]
    /// m/s² per LSB (±8 g in 16 bits) and rad/s per LSB (±125 °/s in 16 bits), as a BMI160 has them.
    static let accelScale = 0.0023942
    static let gyroScale = 0.000066579

    /// The accelerometer (indices 0–2) and gyroscope (3–5) of one device, all of `type`, and the
    /// timestamp (6); the device's own trigger `fake-imu-dev0` exists but is not set.
    static func imu(
        type: String = "le:s16/16>>0", files: [String: String] = [:], legacy: Bool = false,
        trigger: IIOFakeDevice.Trigger = .interface(current: "", available: ["hrtimer-a", "fake-imu-dev0"])
    ) throws -> IIOFakeDevice {
        var all = ["in_accel_scale": String(accelScale), "in_anglvel_scale": String(gyroScale)]
        all.merge(files) { $1 }
        return try IIOFakeDevice(
            elements: axisNames.enumerated().map { .init(name: $0.element, index: $0.offset, type: type) },
            timestampIndex: 6, files: all, trigger: trigger, legacy: legacy)
    }

    /// Rows of BROAD trial 01 as int16 scans of `imu()`: accelerometer at bytes 0, 2, 4, gyroscope
    /// at 6, 8, 10, padding 12–15, the s64 timestamp at 16; 24 bytes a scan. The expected sample of
    /// each: the int16 values × the scales, t = (ns − first ns) / 10⁹.
    static func broadScans(_ rows: [[Double]]) throws -> (bytes: [UInt8], expected: [SensorSample]) {
        var scans: [UInt8] = []
        let scanSize = 24
        var expected: [SensorSample] = []
        let first = BroadTrial01.nanoseconds(rows[0][0])
        for row in rows {
            let gyro = try (1...3).map { try #require(Int16(exactly: (row[$0] / gyroScale).rounded())) }
            let accel = try (4...6).map { try #require(Int16(exactly: (row[$0] / accelScale).rounded())) }
            let ns = BroadTrial01.nanoseconds(row[0])
            var fields: [(offset: Int, bytes: [UInt8])] = []
            for (i, raw) in (accel + gyro).enumerated() {
                fields.append((2 * i, littleEndianBytes(UInt64(UInt16(bitPattern: raw)), count: 2)))
            }
            fields.append((16, littleEndianBytes(UInt64(bitPattern: ns), count: 8)))
            scans += IIOFakeDevice.scan(size: scanSize, fields: fields)
            expected.append(
                SensorSample(
                    timestamp: Double(ns - first) / 1e9,
                    gyroscope: SIMD3(gyro.map { Double($0) * gyroScale }),
                    accelerometer: SIMD3(accel.map { Double($0) * accelScale }),
                    magnetometer: nil))
        }
        return (scans, expected)
    }

    /// Starts `source`, lets `writer` send `bytes` (in `chunks`, then closing the FIFO unless
    /// `keepOpen`), and takes samples until the source ends, fails or `limit` samples have come.
    static func run(
        _ source: IIOBufferedSource, _ writer: FIFOWriter, _ bytes: [UInt8], chunks: [Int] = [], pause: Double = 0,
        limit: Int = 100_000, during: () throws -> Void = {}
    ) throws -> (samples: [SensorSample], error: IIOBufferError?) {
        try source.start()
        writer.releaseKeeper()
        try during()
        writer.start(bytes, chunks: chunks, pause: pause, close: true)
        defer { writer.wait() }
        var samples: [SensorSample] = []
        do {
            while samples.count < limit, let sample = try source.next() { samples.append(sample) }
        } catch let error as IIOBufferError {
            return (samples, error)
        }
        return (samples, nil)
    }

    /// The samples equal, one by one (reports the first difference rather than two long arrays).
    static func expectSamples(_ got: [SensorSample], _ expected: [SensorSample], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(got.count == expected.count, "sample count", sourceLocation: sourceLocation)
        if let i = (0..<min(got.count, expected.count)).first(where: { got[$0] != expected[$0] }) {
            Issue.record("sample \(i): \(got[i]) ≠ \(expected[i])", sourceLocation: sourceLocation)
        }
    }

    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func broadTrialDecodesExactlyInOrderNoneLost() throws {
        let rows = try BroadTrial01.rows(before: 2)
        #expect(rows.count == 572)
        let (bytes, expected) = try Self.broadScans(rows)
        let fake = try Self.imu()
        defer { fake.remove() }
        let writer = try FIFOWriter(fake.characterDevicePath)
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
        #expect(source.sensors == [.gyroscope, .accelerometer])
        #expect(source.bufferPath == fake.devicePath + "/buffer0")
        #expect(source.scanElementsPath == fake.devicePath + "/buffer0")
        let (samples, error) = try Self.run(source, writer, bytes) { () throws in
            // While capturing: every element and the timestamp enabled, length set, the device's
            // own trigger set, the buffer enabled.
            for name in Self.axisNames + ["in_timestamp"] { #expect(try fake.read("buffer0/\(name)_en") == "1", "\(name)") }
            #expect(try fake.read("buffer0/length") == "256")
            #expect(try fake.read("trigger/current_trigger") == "fake-imu-dev0")
            #expect(try fake.read("buffer0/enable") == "1")
            #expect(source.trigger == "fake-imu-dev0")
            #expect(source.layout?.scanSize == 24)
            #expect(source.layout?.placements.map(\.offset) == [0, 2, 4, 6, 8, 10, 16])
        }
        Self.expectSamples(samples, expected)
        // The writer closed the FIFO after the last scan: every scan came first, then the error.
        #expect(error == .disconnected(path: fake.characterDevicePath, pendingBytes: 0))
        // Everything is put back.
        #expect(try fake.read("buffer0/enable") == "0")
        for name in Self.axisNames + ["in_timestamp"] { #expect(try fake.read("buffer0/\(name)_en") == "0", "\(name)") }
        #expect(try fake.read("buffer0/length") == "1024")
        #expect(try fake.read("trigger/current_trigger") == "")
        #expect(try source.next() == nil)
        #expect(source.statistics.scans == 572)
    }

    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func shortReadsAreReassembled() throws {
        let (bytes, expected) = try Self.broadScans(try BroadTrial01.rows(before: 1))
        let fake = try Self.imu()
        defer { fake.remove() }
        let writer = try FIFOWriter(fake.characterDevicePath)
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
        // Pieces of odd sizes, none a multiple of the 24-byte scan, with a pause after each so
        // that the reader finds scans cut in two.
        let (samples, error) = try Self.run(source, writer, bytes, chunks: [1, 7, 13, 23, 5, 31, 3, 17, 2, 41], pause: 0.0002)
        Self.expectSamples(samples, expected)
        #expect(error == .disconnected(path: fake.characterDevicePath, pendingBytes: 0))
        let statistics = source.statistics
        #expect(statistics.scans == expected.count)
        #expect(statistics.partialReads > 0, "no read ended inside a scan: the test did not test short reads")
        #expect(try fake.read("buffer0/enable") == "0")
    }

    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func unpluggedDeviceEndsWithATypedErrorAfterEveryCompleteScan() throws {
        let (bytes, expected) = try Self.broadScans(try BroadTrial01.rows(before: 1))
        let fake = try Self.imu()
        defer { fake.remove() }
        let writer = try FIFOWriter(fake.characterDevicePath)
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
        // 100 scans and 10 bytes of the 101st, then the device goes away (the FIFO is closed).
        let (samples, error) = try Self.run(source, writer, Array(bytes.prefix(100 * 24 + 10)), chunks: [24 * 7 + 5], pause: 0.001)
        Self.expectSamples(samples, Array(expected.prefix(100)))
        #expect(error == .disconnected(path: fake.characterDevicePath, pendingBytes: 10))
        #expect(error?.description.contains(fake.characterDevicePath) == true)
        #expect(try fake.read("buffer0/enable") == "0")
        #expect(try fake.read("buffer0/in_accel_x_en") == "0")
        #expect(try source.next() == nil)
    }

    // MARK: - Every type variant

    /// A `type` and how the test encodes it (worked out here, not asked of `IIOScanType`), with
    /// the offset of the timestamp and the scan size of six such elements and an s64 timestamp.
    struct TypeVariant: Sendable, CustomTestStringConvertible {
        var type: String
        var bigEndian: Bool
        var format: Character
        var bits: Int
        var storageBytes: Int
        var shift: Int
        var timestampOffset: Int
        var scanSize: Int
        var testDescription: String { type }
    }

    static let variants: [TypeVariant] = [
        TypeVariant(type: "le:s12/16>>4", bigEndian: false, format: "s", bits: 12, storageBytes: 2, shift: 4, timestampOffset: 16, scanSize: 24),
        TypeVariant(type: "be:u16/16", bigEndian: true, format: "u", bits: 16, storageBytes: 2, shift: 0, timestampOffset: 16, scanSize: 24),
        TypeVariant(type: "le:s16/16", bigEndian: false, format: "s", bits: 16, storageBytes: 2, shift: 0, timestampOffset: 16, scanSize: 24),
        TypeVariant(type: "be:s16/16>>0", bigEndian: true, format: "s", bits: 16, storageBytes: 2, shift: 0, timestampOffset: 16, scanSize: 24),
        TypeVariant(type: "le:u8/8>>0", bigEndian: false, format: "u", bits: 8, storageBytes: 1, shift: 0, timestampOffset: 8, scanSize: 16),
        TypeVariant(type: "be:s6/8>>1", bigEndian: true, format: "s", bits: 6, storageBytes: 1, shift: 1, timestampOffset: 8, scanSize: 16),
        TypeVariant(type: "le:s24/32>>0", bigEndian: false, format: "s", bits: 24, storageBytes: 4, shift: 0, timestampOffset: 24, scanSize: 32),
        TypeVariant(type: "be:s20/32>>12", bigEndian: true, format: "s", bits: 20, storageBytes: 4, shift: 12, timestampOffset: 24, scanSize: 32),
        TypeVariant(type: "le:u32/32>>0", bigEndian: false, format: "u", bits: 32, storageBytes: 4, shift: 0, timestampOffset: 24, scanSize: 32),
        TypeVariant(type: "be:s48/64>>2", bigEndian: true, format: "s", bits: 48, storageBytes: 8, shift: 2, timestampOffset: 48, scanSize: 56),
        TypeVariant(type: "le:s64/64", bigEndian: false, format: "s", bits: 64, storageBytes: 8, shift: 0, timestampOffset: 48, scanSize: 56),
        TypeVariant(type: "le:f16/16>>0", bigEndian: false, format: "f", bits: 16, storageBytes: 2, shift: 0, timestampOffset: 16, scanSize: 24),
        TypeVariant(type: "le:f32/32>>0", bigEndian: false, format: "f", bits: 32, storageBytes: 4, shift: 0, timestampOffset: 24, scanSize: 32),
        TypeVariant(type: "be:f64/64", bigEndian: true, format: "f", bits: 64, storageBytes: 8, shift: 0, timestampOffset: 48, scanSize: 56),
    ]

    /// IEEE 754 binary16 bits of an integer of magnitude at most 2048 (exact there).
    static func halfBits(_ n: Int) -> UInt16 {
        guard n != 0 else { return 0 }
        let sign: UInt16 = n < 0 ? 0x8000 : 0
        let m = abs(n)
        let e = Int.bitWidth - 1 - m.leadingZeroBitCount  // 2^e ≤ m < 2^(e+1)
        let fraction = UInt16((m << (10 - e)) & 0x3FF)
        return sign | UInt16(e + 15) << 10 | fraction
    }

    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"), arguments: variants)
    func everyTypeVariantDecodesExactly(_ v: TypeVariant) throws {
        let rows = try BroadTrial01.rows(before: 0.5)
        // Scales that let BROAD's accelerometer (≤ 10.2 m/s²) and gyroscope (≤ 0.015 rad/s) fill
        // the integer range; unsigned values carry an offset of −2^(bits−1) (written to sysfs).
        let largest: Double = v.format == "f" ? 2047 : Double(Int64.max >> (64 - v.bits))  // 2^(bits−1) − 1
        let scales = v.format == "f" && v.bits != 16 ? (accel: 0.5, gyro: 0.25) : (accel: 12 / largest, gyro: 0.02 / largest)
        let offset: Double = v.format == "u" ? -Double(UInt64(1) << UInt64(v.bits - 1)) : 0
        var files = ["in_accel_scale": String(scales.accel), "in_anglvel_scale": String(scales.gyro)]
        if v.format == "u" {
            files["in_accel_offset"] = String(Int64(offset))
            files["in_anglvel_offset"] = String(Int64(offset))
        }
        let mask: UInt64 = v.bits == 64 ? ~0 : (1 << UInt64(v.bits)) - 1
        let storageMask: UInt64 = v.storageBytes == 8 ? ~0 : (1 << UInt64(8 * v.storageBytes)) - 1
        let junk: UInt64 = 0xA5A5_A5A5_A5A5_A5A5 & storageMask & ~(mask << UInt64(v.shift))

        /// The stored bits of `value` and the value the source must return for it.
        func encode(_ value: Double, scale: Double) throws -> (stored: UInt64, expected: Double) {
            let pattern: UInt64
            let expected: Double
            switch v.format {
            case "s":
                let raw = try #require(Int64(exactly: (value / scale).rounded()))
                try #require(raw.magnitude <= (UInt64(1) << UInt64(v.bits - 1)) - 1)
                pattern = UInt64(bitPattern: raw) & mask
                expected = Double(raw) * scale
            case "u":
                let raw = try #require(UInt64(exactly: (value / scale).rounded() - offset))
                try #require(raw <= mask)
                pattern = raw
                expected = (Double(raw) + offset) * scale
            default:
                switch v.bits {
                case 16:
                    let raw = Int((value / scale).rounded())
                    try #require(abs(raw) <= 2048)
                    pattern = UInt64(Self.halfBits(raw))
                    expected = Double(raw) * scale
                case 32:
                    let raw = Float(value / scale)
                    pattern = UInt64(raw.bitPattern)
                    expected = Double(raw) * scale
                default:
                    let raw = value / scale
                    pattern = raw.bitPattern
                    expected = raw * scale
                }
            }
            return (pattern << UInt64(v.shift) | junk, expected)
        }

        var scans: [UInt8] = []
        let scanSize = v.scanSize
        var expected: [SensorSample] = []
        let first = BroadTrial01.nanoseconds(rows[0][0])
        for row in rows {
            var fields: [(offset: Int, bytes: [UInt8])] = []
            var values: [Double] = []
            for (i, column) in [4, 5, 6, 1, 2, 3].enumerated() {
                let (stored, value) = try encode(row[column], scale: i < 3 ? scales.accel : scales.gyro)
                let bytes =
                    v.bigEndian ? bigEndianBytes(stored, count: v.storageBytes) : littleEndianBytes(stored, count: v.storageBytes)
                fields.append((i * v.storageBytes, bytes))
                values.append(value)
            }
            let ns = BroadTrial01.nanoseconds(row[0])
            fields.append((v.timestampOffset, littleEndianBytes(UInt64(bitPattern: ns), count: 8)))
            scans += IIOFakeDevice.scan(size: scanSize, fields: fields)
            expected.append(
                SensorSample(
                    timestamp: Double(ns - first) / 1e9, gyroscope: SIMD3(values[3], values[4], values[5]),
                    accelerometer: SIMD3(values[0], values[1], values[2]), magnetometer: nil))
        }

        let fake = try Self.imu(type: v.type, files: files)
        defer { fake.remove() }
        let writer = try FIFOWriter(fake.characterDevicePath)
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
        let (samples, error) = try Self.run(source, writer, scans, chunks: [v.scanSize * 5 + 3], pause: 0.0005)
        #expect(source.layout?.scanSize == v.scanSize)
        Self.expectSamples(samples, expected)
        #expect(error == .disconnected(path: fake.characterDevicePath, pendingBytes: 0))
        #expect(try fake.read("buffer0/enable") == "0")
    }

    // MARK: - Layout with other elements, legacy folders, magnetometer, channel choice

    @Test func elementsLeftEnabledByOthersAreSkipped() throws {
        // Accelerometer at 0, 2, 4; a repeated element (le:s12/16X2>>4, 4 bytes) at 8; an s32 at
        // 12; gyroscope at 16, 18, 20; timestamp at 24; 32 bytes. The two extra elements were left
        // enabled by another program and stay so.
        let elements: [IIOFakeDevice.Element] = [
            .init(name: "in_accel_x", index: 0, type: "le:s16/16>>0"), .init(name: "in_accel_y", index: 1, type: "le:s16/16>>0"),
            .init(name: "in_accel_z", index: 2, type: "le:s16/16>>0"),
            .init(name: "in_humidityrelative", index: 3, type: "le:s12/16X2>>4", enabled: true),
            .init(name: "in_temp", index: 4, type: "le:s32/32>>0", enabled: true),
            .init(name: "in_anglvel_x", index: 5, type: "le:s16/16>>0"), .init(name: "in_anglvel_y", index: 6, type: "le:s16/16>>0"),
            .init(name: "in_anglvel_z", index: 7, type: "le:s16/16>>0"),
        ]
        let fake = try IIOFakeDevice(
            elements: elements, timestampIndex: 8, files: ["in_accel_scale": "0.5", "in_anglvel_scale": "0.25"])
        defer { fake.remove() }
        let raws: [[Int16]] = [[1, -2, 3, -4, 5, -6], [-32768, 32767, 0, 100, -100, 7], [12, 34, 56, 78, 90, -12]]
        var scans: [UInt8] = []
        let scanSize = 32
        var expected: [SensorSample] = []
        for (n, raw) in raws.enumerated() {
            let b = raw.map { littleEndianBytes(UInt64(UInt16(bitPattern: $0)), count: 2) }
            let ns = Int64(5_000_000_000 + n * 10_000_000)
            scans += IIOFakeDevice.scan(size: scanSize, fields: [
                (0, b[0]), (2, b[1]), (4, b[2]), (8, [0xFF, 0xFF, 0xEE, 0xEE]), (12, [0xDE, 0xAD, 0xBE, 0xEF]),
                (16, b[3]), (18, b[4]), (20, b[5]), (24, littleEndianBytes(UInt64(ns), count: 8)),
            ])
            expected.append(
                SensorSample(
                    timestamp: Double(n) * 0.01, gyroscope: SIMD3(raw[3...].map { Double($0) * 0.25 }),
                    accelerometer: SIMD3(raw[..<3].map { Double($0) * 0.5 }), magnetometer: nil))
        }
        let writer = try FIFOWriter(fake.characterDevicePath)
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
        let (samples, error) = try Self.run(source, writer, scans)
        #expect(source.layout?.placements.map(\.element.name) == [
            "in_accel_x", "in_accel_y", "in_accel_z", "in_humidityrelative", "in_temp", "in_anglvel_x", "in_anglvel_y",
            "in_anglvel_z", "in_timestamp",
        ])
        #expect(source.layout?.placements.map(\.offset) == [0, 2, 4, 8, 12, 16, 18, 20, 24])
        Self.expectSamples(samples, expected)
        #expect(error == .disconnected(path: fake.characterDevicePath, pendingBytes: 0))
        #expect(try fake.read("buffer0/in_temp_en") == "1")
        #expect(try fake.read("buffer0/in_humidityrelative_en") == "1")
        #expect(try fake.read("buffer0/in_accel_x_en") == "0")
    }

    @Test func legacyBufferAndScanElementsFolders() throws {
        let fake = try Self.imu(legacy: true, trigger: .none)
        defer { fake.remove() }
        let writer = try FIFOWriter(fake.characterDevicePath)
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath, bufferLength: nil)
        #expect(source.bufferPath == fake.devicePath + "/buffer")
        #expect(source.scanElementsPath == fake.devicePath + "/scan_elements")
        var scans: [UInt8] = []
        let scanSize = 24
        let raw: [Int16] = [100, -200, 4096, 10, -20, 0]
        scans += IIOFakeDevice.scan(size: scanSize, fields:
            raw.enumerated().map { (2 * $0.offset, littleEndianBytes(UInt64(UInt16(bitPattern: $0.element)), count: 2)) }
                + [(16, littleEndianBytes(123_456_789, count: 8))])
        let (samples, error) = try Self.run(source, writer, scans) { () throws in
            #expect(try fake.read("scan_elements/in_anglvel_z_en") == "1")
            #expect(try fake.read("scan_elements/in_timestamp_en") == "1")
            #expect(try fake.read("buffer/enable") == "1")
            #expect(try fake.read("buffer/length") == "1024")  // bufferLength nil: left alone
            #expect(source.trigger == nil)  // no trigger interface
        }
        Self.expectSamples(samples, [
            SensorSample(
                timestamp: 0, gyroscope: SIMD3(10 * Self.gyroScale, -20 * Self.gyroScale, 0),
                accelerometer: SIMD3(100 * Self.accelScale, -200 * Self.accelScale, 4096 * Self.accelScale), magnetometer: nil)
        ])
        #expect(error == .disconnected(path: fake.characterDevicePath, pendingBytes: 0))
        #expect(try fake.read("buffer/enable") == "0")
        #expect(try fake.read("scan_elements/in_anglvel_z_en") == "0")
    }

    @Test func magnetometerInMicroteslaWithPerAxisScaleAndOffsets() throws {
        // Gauss: scale 0.00058 shared, 0.0006 for z; offset −3 for x, shared 5 for y and z.
        let fake = try IIOFakeDevice(
            name: "fake-magn",
            elements: ["x", "y", "z"].enumerated().map { .init(name: "in_magn_\($0.element)", index: $0.offset, type: "be:s16/16>>0") },
            timestampIndex: 3,
            files: ["in_magn_scale": "0.00058", "in_magn_z_scale": "0.0006", "in_magn_x_offset": "-3", "in_magn_offset": "5"])
        defer { fake.remove() }
        let raws: [[Int16]] = [[384, 27_000, -70_00], [-1, 0, 1], [32767, -32768, 12345]]
        var scans: [UInt8] = []
        let scanSize = 16  // 0, 2, 4; timestamp at 8
        var expected: [SensorSample] = []
        for (n, raw) in raws.enumerated() {
            scans += IIOFakeDevice.scan(size: scanSize, fields:
                raw.enumerated().map { (2 * $0.offset, bigEndianBytes(UInt64(UInt16(bitPattern: $0.element)), count: 2)) }
                    + [(8, littleEndianBytes(UInt64(1_000 + n * 12_500_000), count: 8))])
            // µT = (raw + offset) × scale (gauss) × 100, in that order, as IIODevice computes it.
            let x = (Double(raw[0]) + -3) * 0.00058 * 100
            let y = (Double(raw[1]) + 5) * 0.00058 * 100
            let z = (Double(raw[2]) + 5) * 0.0006 * 100
            expected.append(SensorSample(timestamp: Double(n) * 0.0125, gyroscope: nil, accelerometer: nil, magnetometer: SIMD3(x, y, z)))
        }
        let writer = try FIFOWriter(fake.characterDevicePath)
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
        #expect(source.sensors == [.magnetometer])
        let (samples, error) = try Self.run(source, writer, scans)
        Self.expectSamples(samples, expected)
        #expect(error == .disconnected(path: fake.characterDevicePath, pendingBytes: 0))
        // 384 raw + (−3) = 381 × 0.00058 gauss = 0.22098 gauss = 22.098 µT.
        #expect(abs((samples.first?.magnetometer?.x ?? 0) - 22.098) < 1e-12)
    }

    @Test func onlyTheChannelTypesAskedFor() throws {
        let fake = try Self.imu()
        defer { fake.remove() }
        let writer = try FIFOWriter(fake.characterDevicePath)
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath, types: [.accelerometer])
        #expect(source.sensors == [.accelerometer])
        // Accelerometer at 0, 2, 4; timestamp at 8; 16 bytes.
        var scans: [UInt8] = []
        let scanSize = 16
        scans += IIOFakeDevice.scan(size: scanSize, fields: [(0, [0x01, 0x00]), (2, [0xFF, 0xFF]), (4, [0x00, 0x10]), (8, littleEndianBytes(42, count: 8))])
        let (samples, error) = try Self.run(source, writer, scans) { () throws in
            #expect(try fake.read("buffer0/in_accel_x_en") == "1")
            #expect(try fake.read("buffer0/in_anglvel_x_en") == "0")
        }
        #expect(source.layout?.placements.map(\.offset) == [0, 2, 4, 8])
        Self.expectSamples(samples, [
            SensorSample(
                timestamp: 0, gyroscope: nil, accelerometer: SIMD3(1 * Self.accelScale, -1 * Self.accelScale, 4096 * Self.accelScale),
                magnetometer: nil)
        ])
        #expect(error == .disconnected(path: fake.characterDevicePath, pendingBytes: 0))
    }

    @Test func timestampOrigin() throws {
        let stamp: Int64 = 1_700_000_000_250_000_000
        let cases: [(origin: Int64?, expected: Double)] = [
            (0, Double(stamp) / 1e9),  // the kernel clock itself
            (1_700_000_000_000_000_000, 0.25),
            (nil, 0),  // the first scan is t = 0
        ]
        for (origin, expected) in cases {
            let fake = try Self.imu(trigger: .none)
            defer { fake.remove() }
            let writer = try FIFOWriter(fake.characterDevicePath)
            let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath, timestampOrigin: origin)
            var scans: [UInt8] = []
            let scanSize = 24
            scans += IIOFakeDevice.scan(size: scanSize, fields: [(16, littleEndianBytes(UInt64(stamp), count: 8))])
            let (samples, _) = try Self.run(source, writer, scans)
            #expect(samples.map(\.timestamp) == [expected], "origin \(String(describing: origin))")
        }
    }

    // MARK: - Trigger rule

    @Test func triggerRule() throws {
        typealias Case = (trigger: IIOFakeDevice.Trigger, requested: String?, during: String?, after: String?)
        let cases: [Case] = [
            // None set, the device's own trigger exists: it is set, and cleared again afterwards.
            (.interface(current: "", available: ["hrtimer-a", "fake-imu-dev0"]), nil, "fake-imu-dev0", ""),
            // None set, only other triggers: left empty (they need a rate chosen by the user).
            (.interface(current: "", available: ["hrtimer-a", "other-dev1"]), nil, "", ""),
            // One set by the user: kept.
            (.interface(current: "hrtimer-a", available: ["hrtimer-a", "fake-imu-dev0"]), nil, "hrtimer-a", "hrtimer-a"),
            // One asked for: set, and the previous one put back afterwards.
            (.interface(current: "", available: ["hrtimer-a", "fake-imu-dev0"]), "hrtimer-a", "hrtimer-a", ""),
            (.interface(current: "fake-imu-dev0", available: ["hrtimer-a", "fake-imu-dev0"]), "hrtimer-a", "hrtimer-a", "fake-imu-dev0"),
            // No trigger interface (a hardware FIFO): nothing to set.
            (.none, nil, nil, nil),
        ]
        for (n, c) in cases.enumerated() {
            let fake = try Self.imu(trigger: c.trigger)
            defer { fake.remove() }
            let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath, trigger: c.requested)
            try source.start()
            #expect(source.trigger == c.during, "case \(n)")
            #expect((try? fake.read("trigger/current_trigger")) == c.during, "case \(n)")
            #expect(try fake.read("buffer0/enable") == "1")
            source.stop()
            #expect((try? fake.read("trigger/current_trigger")) == c.after, "case \(n)")
            #expect(try fake.read("buffer0/enable") == "0")
        }
    }

    @Test func triggerAskedForOnADeviceWithoutTriggers() throws {
        let fake = try Self.imu(trigger: .none)
        defer { fake.remove() }
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath, trigger: "hrtimer-a")
        #expect(throws: IIOBufferError.sysfs(.missingFile(path: fake.devicePath + "/trigger/current_trigger"))) {
            try source.start()
        }
        #expect(try fake.read("buffer0/enable") == "0")
        #expect(try fake.read("buffer0/in_accel_x_en") == "0")  // put back
    }

    // MARK: - Errors, stop, deinit

    @Test func bufferAlreadyEnabledIsBusyAndNothingChanges() throws {
        let fake = try Self.imu()
        defer { fake.remove() }
        try fake.write("buffer0/enable", "1\n")
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
        let enable = fake.devicePath + "/buffer0/enable"
        #expect(throws: IIOBufferError.busy(path: enable)) { try source.start() }
        #expect(try fake.read("buffer0/in_accel_x_en") == "0")
        #expect(try fake.read("buffer0/length") == "1024")
        #expect(try fake.read("trigger/current_trigger") == "")
        #expect(try fake.read("buffer0/enable") == "1")  // someone else's: left alone
        let message = IIOBufferError.busy(path: enable).description
        #expect(message.contains(enable))
        #expect(message.contains("echo 0"))
        #expect(message.contains("iio-sensor-proxy"))
        // next() reports the same error, then nothing more.
        let second = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
        #expect(throws: IIOBufferError.busy(path: enable)) { try second.next() }
        #expect(try second.next() == nil)
    }

    @Test func systemErrorsNameTheFileAndTheFix() {
        let node = "/dev/iio:device3"
        #expect(IIOBufferError.system(EACCES, path: node) == .permissionDenied(path: node))
        #expect(IIOBufferError.system(EPERM, path: node) == .permissionDenied(path: node))
        #expect(IIOBufferError.system(EBUSY, path: node) == .busy(path: node))
        #expect(IIOBufferError.system(ENODEV, path: node) == .disconnected(path: node, pendingBytes: 0))
        #expect(IIOBufferError.system(ENOENT, path: node) == .sysfs(.missingFile(path: node)))
        #expect(IIOBufferError.system(EIO, path: node) == .io(path: node, reason: String(cString: strerror(EIO))))
        let denied = IIOBufferError.permissionDenied(path: node).description
        for part in [node, "udev", "SUBSYSTEM==\"iio\"", "GROUP=\"iio\"", "usermod -aG iio"] {
            #expect(denied.contains(part), "\(part)")
        }
        let busy = IIOBufferError.busy(path: node).description
        #expect(busy.contains(node))
        #expect(busy.contains("fuser -v \(node)"))
        for error in [IIOBufferError.permissionDenied(path: node), .busy(path: node), .stalled(path: node, seconds: 5)] {
            #expect(error.localizedDescription == error.description)
            #expect(error.path == node)
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root is never refused: run the tests as another user to check EACCES"))
    func permissionDeniedOnTheDeviceNodeAndOnSysfs() throws {
        let fake = try Self.imu()
        defer { fake.remove() }
        chmod(fake.characterDevicePath, 0)
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
        #expect(throws: IIOBufferError.permissionDenied(path: fake.characterDevicePath)) { try source.start() }
        chmod(fake.characterDevicePath, 0o600)
        chmod(fake.devicePath + "/buffer0/in_accel_y_en", 0o444)
        let second = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
        #expect(throws: IIOBufferError.permissionDenied(path: fake.devicePath + "/buffer0/in_accel_y_en")) { try second.start() }
        #expect(try fake.read("buffer0/in_accel_x_en") == "0")  // put back
    }

    @Test func setupErrorsAreTypedAndNameTheFile() throws {
        let scan = { (fake: IIOFakeDevice) in fake.devicePath + "/buffer0" }
        do {
            let fake = try Self.imu()
            defer { fake.remove() }
            try fake.remove("buffer0/in_timestamp_en")
            #expect(throws: IIOBufferError.missingScanElement(path: scan(fake) + "/in_timestamp_en")) {
                try IIOBufferedSource(device: try fake.iioDevice)
            }
        }
        do {
            let fake = try Self.imu()
            defer { fake.remove() }
            try fake.write("buffer0/in_anglvel_y_type", "le:s16/x\n")
            #expect(throws: IIOBufferError.malformedType(
                path: scan(fake) + "/in_anglvel_y_type", text: "le:s16/x", reason: "expected the number of storage bits after \"/\"")
            ) {
                try IIOBufferedSource(device: try fake.iioDevice)
            }
        }
        do {
            let fake = try Self.imu()
            defer { fake.remove() }
            try fake.remove("in_accel_scale")
            #expect(throws: IIOBufferError.sysfs(.missingFile(path: fake.devicePath + "/in_accel_scale"))) {
                try IIOBufferedSource(device: try fake.iioDevice)
            }
            #expect(throws: IIOBufferError.noChannels(device: fake.devicePath)) {
                try IIOBufferedSource(device: try fake.iioDevice, types: [.magnetometer])
            }
        }
        do {
            let fake = try Self.imu()
            defer { fake.remove() }
            try fake.remove("buffer0")
            #expect(throws: IIOBufferError.noBuffer(device: fake.devicePath)) { try IIOBufferedSource(device: try fake.iioDevice) }
        }
        do {
            let fake = try Self.imu()
            defer { fake.remove() }
            try fake.write("buffer0/in_accel_z_type", "le:s12/16X2>>4\n")
            #expect(throws: IIOBufferError.unsupportedLayout(
                path: scan(fake) + "/in_accel_z_type", reason: "an axis with repeat count 2; expected one value")
            ) {
                try IIOBufferedSource(device: try fake.iioDevice)
            }
        }
    }

    @Test func failureHalfWayThroughSetupPutsEverythingBack() throws {
        let fake = try Self.imu()
        defer { fake.remove() }
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
        // `length` cannot be read once the elements are enabled: setup fails after changing them.
        try fake.remove("buffer0/length")
        try FileManager.default.createDirectory(atPath: fake.devicePath + "/buffer0/length", withIntermediateDirectories: false)
        do throws(IIOBufferError) {
            try source.start()
            Issue.record("setup succeeded")
        } catch {
            guard case .sysfs(.unreadable(let path, _)) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == fake.devicePath + "/buffer0/length")
        }
        for name in Self.axisNames + ["in_timestamp"] { #expect(try fake.read("buffer0/\(name)_en") == "0", "\(name)") }
        #expect(try fake.read("buffer0/enable") == "0")
        #expect(try fake.read("trigger/current_trigger") == "")
    }

    @Test func noDataIsAStallErrorAndTheBufferIsDisabled() throws {
        let fake = try Self.imu()
        defer { fake.remove() }
        let writer = try FIFOWriter(fake.characterDevicePath)  // connected, silent
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath, stallTimeout: 0.3)
        try source.start()
        writer.releaseKeeper()
        let start = ContinuousClock.now
        #expect(throws: IIOBufferError.stalled(path: fake.characterDevicePath, seconds: 0.3)) { try source.next() }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(290) && elapsed < .seconds(3), "\(elapsed)")
        #expect(try fake.read("buffer0/enable") == "0")
        #expect(try fake.read("trigger/current_trigger") == "")
    }

    @Test func stopFromAnotherThreadWakesAWaitingNext() throws {
        let fake = try Self.imu()
        defer { fake.remove() }
        let writer = try FIFOWriter(fake.characterDevicePath)
        let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath, stallTimeout: 60)
        try source.start()
        writer.releaseKeeper()
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.2)
            source.stop()
            stopped.signal()
        }
        let start = ContinuousClock.now
        #expect(try source.next() == nil)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(150) && elapsed < .seconds(5), "\(elapsed)")
        #expect(stopped.wait(timeout: .now() + 5) == .success)
        #expect(try fake.read("buffer0/enable") == "0")
        #expect(try fake.read("buffer0/in_accel_x_en") == "0")
        #expect(try source.next() == nil)
        source.stop()  // again: nothing
        #expect(throws: IIOBufferError.self) { try source.start() }
    }

    @Test func releasingTheSourceDisablesTheBuffer() throws {
        let fake = try Self.imu()
        defer { fake.remove() }
        do {
            let source = try IIOBufferedSource(device: fake.iioDevice, characterDevicePath: fake.characterDevicePath)
            try source.start()
            #expect(try fake.read("buffer0/enable") == "1")
            #expect(try fake.read("trigger/current_trigger") == "fake-imu-dev0")
        }
        #expect(try fake.read("buffer0/enable") == "0")
        #expect(try fake.read("buffer0/in_accel_x_en") == "0")
        #expect(try fake.read("trigger/current_trigger") == "")
    }
}
