import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fake buffered IIO device in a temporary folder of its own, for benchmarks and tests that need
/// ``IIOBufferedSource`` without hardware: a sysfs-like device folder laid out as the kernel lays
/// out `/sys/bus/iio/devices/iio:deviceN` (kernel 5.11 and later: `buffer0/`), and a FIFO in place of
/// the character device `/dev/iio:deviceN`. ``IIOFakeScanWriter`` plays the kernel's side and
/// writes scans into the FIFO.
///
/// The device has, for each of its channel types (accelerometer `accel`, gyroscope `anglvel`,
/// magnetometer `magn`), x, y and z scan elements of type `le:s16/16>>0` with indices in that order
/// and a shared `in_<type>_scale`, then `in_timestamp` (`le:s64/64>>0`), all disabled; `buffer0/enable`
/// 0, `buffer0/length` 1024; no trigger interface (a device with a hardware FIFO). With all three
/// types a scan is 32 bytes: nine values, 6 bytes of padding, the timestamp at offset 24.
///
/// The scales are those of a typical consumer IMU in the kernel's units: ±8 g accelerometer
/// (0.002394 m/s² per count), ±1000 °/s gyroscope (0.000532632 rad/s per count), and a
/// magnetometer of 0.0015 gauss (0.15 µT) per count. ``remove()`` (or `deinit`) deletes the folder.
package final class IIOFakeDevice {
    /// The temporary folder holding everything (`sys/` and `dev/`).
    package let root: String
    /// The device's folder: `<root>/sys/iio:device<number>`.
    package let devicePath: String
    /// The FIFO standing in for `/dev/iio:device<number>`.
    package let characterDevicePath: String
    /// The channel types the device has, in scan order.
    package let types: [IIOChannelType]
    /// The layout of one scan with every element enabled (as the kernel would compute it).
    package let layout: IIOScanLayout
    /// Kernel-unit scale of each channel type (value = raw × scale).
    package let scales: [IIOChannelType: Double]

    /// The scales used for each channel type, in the kernel's units per count.
    package static let defaultScales: [IIOChannelType: Double] = [
        .accelerometer: 0.002394, .gyroscope: 0.000532632, .magnetometer: 0.0015,
    ]

    /// Creates the folder, the device's files and the FIFO.
    ///
    /// - Parameters:
    ///   - name: the device's `name` file (the chip).
    ///   - number: N of `iio:deviceN`.
    ///   - types: the channel types, in scan order (at least one).
    /// - Throws: a file system error; whatever was created is removed first.
    package init(
        name: String = "fake-imu", number: Int = 0,
        types: [IIOChannelType] = [.accelerometer, .gyroscope, .magnetometer]
    ) throws {
        precondition(!types.isEmpty, "a fake IIO device needs at least one channel type")
        root = FileManager.default.temporaryDirectory.appendingPathComponent("mf-iio-fake-\(UUID().uuidString)").path
        devicePath = root + "/sys/iio:device\(number)"
        characterDevicePath = root + "/dev/iio:device\(number)"
        self.types = types
        scales = Dictionary(uniqueKeysWithValues: types.map { ($0, Self.defaultScales[$0] ?? 1) })
        let valueType = try IIOScanType(parsing: "le:s16/16>>0")
        let stampType = try IIOScanType(parsing: "le:s64/64>>0")
        var elements: [IIOScanElement] = []
        for (t, type) in types.enumerated() {
            for (a, axis) in ["x", "y", "z"].enumerated() {
                elements.append(IIOScanElement(name: "in_\(type.rawValue)_\(axis)", index: 3 * t + a, type: valueType))
            }
        }
        let timestamp = IIOScanElement(name: "in_timestamp", index: elements.count, type: stampType)
        layout = try IIOScanLayout(elements: elements, timestamp: timestamp)
        do {
            try FileManager.default.createDirectory(atPath: root + "/dev", withIntermediateDirectories: true)
            try write("name", name)
            try write("buffer0/enable", "0")
            try write("buffer0/length", "1024")
            for element in elements + [timestamp] {
                try write("buffer0/\(element.name)_en", "0")
                try write("buffer0/\(element.name)_index", "\(element.index)")
                try write("buffer0/\(element.name)_type", element.name == "in_timestamp" ? "le:s64/64>>0" : "le:s16/16>>0")
                if element.name != "in_timestamp" { try write("\(element.name)_raw", "0") }
            }
            for type in types { try write("in_\(type.rawValue)_scale", String(scales[type]!)) }
            guard mkfifo(characterDevicePath, 0o600) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: root)
            throw error
        }
    }

    deinit { remove() }

    /// Whether the buffer is enabled (`buffer0/enable` reads non-zero): a reader has set the device
    /// up and is capturing.
    package var isBufferEnabled: Bool {
        guard let text = try? String(contentsOfFile: devicePath + "/buffer0/enable", encoding: .utf8) else { return false }
        return (Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) != 0
    }

    /// One scan as the kernel writes it: each channel type's counts at its offsets (types missing
    /// from `counts` are zero), `timestamp` (nanoseconds) at its offset, zero padding.
    package func scan(timestamp: Int64, counts: [IIOChannelType: SIMD3<Int16>]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: layout.scanSize)
        bytes.withUnsafeMutableBytes { buffer in
            for type in types {
                let value = counts[type] ?? .zero
                for (a, axis) in ["x", "y", "z"].enumerated() {
                    guard let offset = layout.placement(of: "in_\(type.rawValue)_\(axis)")?.offset else { continue }
                    buffer.storeBytes(of: value[a].littleEndian, toByteOffset: offset, as: Int16.self)
                }
            }
            if let offset = layout.placement(of: "in_timestamp")?.offset {
                buffer.storeBytes(of: timestamp.littleEndian, toByteOffset: offset, as: Int64.self)
            }
        }
        return bytes
    }

    /// The counts that read back as `value` in the library's units (rad/s, m/s², µT), rounded and
    /// clamped to Int16.
    package func counts(_ value: SIMD3<Double>, of type: IIOChannelType) -> SIMD3<Int16> {
        let scale = (scales[type] ?? 1) * type.toLibraryUnit
        func count(_ x: Double) -> Int16 {
            let c = (x / scale).rounded()
            return c.isNaN ? 0 : Int16(max(-32768, min(32767, c)))
        }
        return SIMD3(count(value.x), count(value.y), count(value.z))
    }

    /// Deletes the folder (the FIFO included). Safe to call again.
    package func remove() { try? FileManager.default.removeItem(atPath: root) }

    /// Writes `text` and a newline to the file at `relative` (to the device folder), creating folders.
    private func write(_ relative: String, _ text: String) throws {
        let path = devicePath + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try (text + "\n").write(toFile: path, atomically: false, encoding: .utf8)
    }
}
