import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fake buffered IIO device in a temporary folder, for benchmarks and tests that need
/// ``IIOBufferedSource`` without hardware: a sysfs-like device folder `<root>/sys/iio:deviceN` laid
/// out as the kernel lays out `/sys/bus/iio/devices/iio:deviceN`, and a FIFO `<root>/dev/iio:deviceN`
/// in place of the character device. ``IIOFakeScanWriter`` plays the kernel's side and writes scans
/// into the FIFO; tests write their own bytes (``scan(size:fields:)``).
///
/// The device folder has `name`, `<buffer>/enable` (0) and `<buffer>/length`, and for each scan
/// element `<scan>/<element>_en`, `_index` and `_type`, where `<buffer>` and `<scan>` are `buffer0`
/// (kernel 5.11 and later) or, `legacy`, `buffer` and `scan_elements`; optionally a trigger interface
/// (`trigger/current_trigger` and `sys/triggerN/name` folders) and any other files. Several devices
/// can share one tree (`sharing:`), as `iio:device0` and `iio:device1` do on a board.
///
/// ``init(name:number:types:)`` makes the typical consumer IMU: for each of its channel types
/// (accelerometer `accel`, gyroscope `anglvel`, magnetometer `magn`), x, y and z scan elements of type
/// `le:s16/16>>0` with indices in that order and a shared `in_<type>_scale`, then `in_timestamp`
/// (`le:s64/64>>0`), all disabled; `buffer0/length` 1024; no trigger interface (a device with a
/// hardware FIFO). With all three types a scan is 32 bytes: nine values, 6 bytes of padding, the
/// timestamp at offset 24. Its scales are those of a typical consumer IMU in the kernel's units: ±8 g
/// accelerometer (0.002394 m/s² per count), ±1000 °/s gyroscope (0.000532632 rad/s per count), and a
/// magnetometer of 0.0015 gauss (0.15 µT) per count.
///
/// ``remove()`` (or `deinit`) deletes the folder, unless the tree is shared, in which case the
/// device that made the tree deletes it.
package final class IIOFakeDevice {
    /// A scan element: `in_accel_x`, its index and its type as the kernel writes it
    /// (`le:s16/16>>0`; any text, for devices that test refusals).
    package struct Element: Sendable {
        package var name: String
        package var index: Int
        package var type: String
        package var enabled: Bool

        package init(name: String, index: Int, type: String, enabled: Bool = false) {
            self.name = name
            self.index = index
            self.type = type
            self.enabled = enabled
        }
    }

    /// How the device's trigger interface looks.
    package enum Trigger: Sendable {
        /// No `trigger/` folder (a hardware FIFO).
        case none
        /// `trigger/current_trigger` holding `current` ("" for none); `available` are the
        /// `triggerN/name` folders next to the device.
        case interface(current: String, available: [String])
    }

    /// The temporary folder holding the tree (`sys/` and `dev/`).
    package let root: String
    /// N of `iio:deviceN`.
    package let number: Int
    /// Whether the buffer files are in the layout before kernel 5.11 (`buffer/`, `scan_elements/`).
    package let legacy: Bool
    /// The device's folder: `<root>/sys/iio:device<number>`.
    package let devicePath: String
    /// The FIFO standing in for `/dev/iio:device<number>`.
    package let characterDevicePath: String
    /// The scan elements, the timestamp (if any) last.
    package let elements: [Element]
    /// The channel types whose x, y and z elements the device has, in scan order.
    package let types: [IIOChannelType]
    /// The layout of one scan with every element enabled (as the kernel would compute it); nil
    /// when an element's type does not parse.
    package let layout: IIOScanLayout?
    /// Kernel-unit scale of each channel type (value = raw × scale), from its `in_<type>_scale` file.
    package let scales: [IIOChannelType: Double]
    /// The device whose tree this one joined (kept alive with it: the tree goes with its owner);
    /// nil for a device that made its tree, which ``remove()`` deletes.
    private let owner: IIOFakeDevice?
    private var ownsRoot: Bool { owner == nil }

    /// The scales the typical IMU uses for each channel type, in the kernel's units per count.
    package static let defaultScales: [IIOChannelType: Double] = [
        .accelerometer: 0.002394, .gyroscope: 0.000532632, .magnetometer: 0.0015,
    ]

    /// The sysfs folder holding the device (`<root>/sys`), which `--iio-root` names.
    package var sysfs: String { root + "/sys" }
    /// The folder of `enable` and `length`, relative to the device.
    package var bufferFolder: String { legacy ? "buffer" : "buffer0" }
    /// The folder of the scan elements, relative to the device.
    package var scanFolder: String { legacy ? "scan_elements" : "buffer0" }

    /// Creates the device's files and its FIFO.
    ///
    /// - Parameters:
    ///   - name: the device's `name` file (the chip).
    ///   - elements: the scan elements (without the timestamp).
    ///   - timestampIndex: the index of `in_timestamp` (`le:s64/64>>0`, disabled); nil for none.
    ///   - files: other files of the device (relative path: text; a newline is added), written last.
    ///   - trigger: the trigger interface.
    ///   - legacy: the buffer layout before kernel 5.11.
    ///   - length: `<buffer>/length`.
    ///   - number: N of `iio:deviceN`.
    ///   - other: a device whose tree this one joins: its `number` must be free there (else
    ///     `EEXIST`), and its trigger interface lists no `available` triggers (they are the tree's).
    /// - Throws: a file system error; whatever this device created is removed first.
    package init(
        name: String = "fake-imu", elements: [Element], timestampIndex: Int? = nil, files: [String: String] = [:],
        trigger: Trigger = .none, legacy: Bool = false, length: Int = 1024, number: Int = 0,
        sharing other: IIOFakeDevice? = nil
    ) throws {
        root = other?.root
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("mf-iio-fake-\(UUID().uuidString)").path
        owner = other
        self.number = number
        self.legacy = legacy
        devicePath = root + "/sys/iio:device\(number)"
        characterDevicePath = root + "/dev/iio:device\(number)"
        let timestamp = timestampIndex.map { Element(name: "in_timestamp", index: $0, type: "le:s64/64>>0") }
        self.elements = elements + (timestamp.map { [$0] } ?? [])
        // A type's x element places it in the scan.
        types = elements.sorted { $0.index < $1.index }.compactMap { element in
            IIOChannelType.allCases.first { element.name == "in_\($0.rawValue)_x" }
        }
        layout = try? IIOScanLayout(
            elements: elements.map { IIOScanElement(name: $0.name, index: $0.index, type: try IIOScanType(parsing: $0.type)) },
            timestamp: timestamp.map { IIOScanElement(name: $0.name, index: $0.index, type: try IIOScanType(parsing: $0.type)) })
        scales = Dictionary(
            uniqueKeysWithValues: types.compactMap { type in
                files["in_\(type.rawValue)_scale"].flatMap(Double.init).map { (type, $0) }
            })
        if other != nil {
            if case .interface(_, let available) = trigger {
                precondition(available.isEmpty, "a device sharing a tree adds no triggers to it")
            }
            // Never write over another device of the tree (nothing is created, so nothing removed).
            if FileManager.default.fileExists(atPath: devicePath)
                || FileManager.default.fileExists(atPath: characterDevicePath)
            {
                throw POSIXError(.EEXIST)
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: root + "/dev", withIntermediateDirectories: true)
            try write("name", name + "\n")
            try write("\(bufferFolder)/enable", "0\n")
            try write("\(bufferFolder)/length", "\(length)\n")
            for element in self.elements {
                try write("\(scanFolder)/\(element.name)_en", element.enabled ? "1\n" : "0\n")
                try write("\(scanFolder)/\(element.name)_index", "\(element.index)\n")
                try write("\(scanFolder)/\(element.name)_type", element.type + "\n")
            }
            for (file, text) in files { try write(file, text + "\n") }
            if case .interface(let current, let available) = trigger {
                try write("trigger/current_trigger", current + "\n")
                for (n, name) in available.enumerated() {
                    try FileManager.default.createDirectory(atPath: "\(sysfs)/trigger\(n)", withIntermediateDirectories: true)
                    try "\(name)\n".write(toFile: "\(sysfs)/trigger\(n)/name", atomically: false, encoding: .utf8)
                }
            }
            guard mkfifo(characterDevicePath, 0o600) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            if ownsRoot {
                try? FileManager.default.removeItem(atPath: root)
            } else {
                try? FileManager.default.removeItem(atPath: devicePath)
                try? FileManager.default.removeItem(atPath: characterDevicePath)
            }
            throw error
        }
    }

    /// The typical consumer IMU (see the type's description): x, y and z of each of `types`, the
    /// timestamp, the default scales, each type's `<element>_raw` files, no trigger.
    ///
    /// - Parameters:
    ///   - name: the device's `name` file (the chip).
    ///   - number: N of `iio:deviceN`.
    ///   - types: the channel types, in scan order (at least one).
    /// - Throws: a file system error; whatever was created is removed first.
    package convenience init(
        name: String = "fake-imu", number: Int = 0,
        types: [IIOChannelType] = [.accelerometer, .gyroscope, .magnetometer]
    ) throws {
        precondition(!types.isEmpty, "a fake IIO device needs at least one channel type")
        var elements: [Element] = []
        var files: [String: String] = [:]
        for (t, type) in types.enumerated() {
            for (a, axis) in ["x", "y", "z"].enumerated() {
                let name = "in_\(type.rawValue)_\(axis)"
                elements.append(Element(name: name, index: 3 * t + a, type: "le:s16/16>>0"))
                files[name + "_raw"] = "0"
            }
            files["in_\(type.rawValue)_scale"] = String(Self.defaultScales[type] ?? 1)
        }
        try self.init(name: name, elements: elements, timestampIndex: elements.count, files: files, number: number)
    }

    deinit { remove() }

    /// Whether the buffer is enabled (`<buffer>/enable` reads non-zero): a reader has set the device
    /// up and is capturing.
    package var isBufferEnabled: Bool {
        guard let text = try? read("\(bufferFolder)/enable") else { return false }
        return (Int(text) ?? 0) != 0
    }

    /// The device as ``IIODevice`` sees it.
    package var iioDevice: IIODevice { get throws { try IIODevice(path: devicePath) } }

    /// One scan of `size` bytes as the kernel writes it: each field's bytes at its offset, zero
    /// padding elsewhere.
    package static func scan(size: Int, fields: [(offset: Int, bytes: [UInt8])]) -> [UInt8] {
        var scan = [UInt8](repeating: 0, count: size)
        for field in fields {
            scan.replaceSubrange(field.offset..<field.offset + field.bytes.count, with: field.bytes)
        }
        return scan
    }

    /// One scan of this device's ``layout`` (every element enabled): each channel type's counts
    /// (little-endian int16; types missing from `counts` are zero), `timestamp` (nanoseconds) at its
    /// offset, zero padding. The device's element types must parse.
    package func scan(timestamp: Int64, counts: [IIOChannelType: SIMD3<Int16>]) -> [UInt8] {
        guard let layout else { preconditionFailure("the fake device's scan elements have no valid layout") }
        var fields: [(offset: Int, bytes: [UInt8])] = []
        for type in types {
            let value = counts[type] ?? .zero
            for (a, axis) in ["x", "y", "z"].enumerated() {
                guard let offset = layout.placement(of: "in_\(type.rawValue)_\(axis)")?.offset else { continue }
                let bits = UInt16(bitPattern: value[a])
                fields.append((offset, [UInt8(bits & 0xff), UInt8(bits >> 8)]))
            }
        }
        if let offset = layout.placement(of: "in_timestamp")?.offset {
            let bits = UInt64(bitPattern: timestamp)
            fields.append((offset, (0..<8).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }))
        }
        return Self.scan(size: layout.scanSize, fields: fields)
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

    /// Writes `text` as it is to the file at `relative` (to the device folder), creating folders.
    package func write(_ relative: String, _ text: String) throws {
        let path = devicePath + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// The text of the file at `relative` (to the device folder), without surrounding white space.
    package func read(_ relative: String) throws -> String {
        try String(contentsOfFile: devicePath + "/" + relative, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Deletes the file at `relative` (to the device folder).
    package func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: devicePath + "/" + relative)
    }

    /// Deletes the tree (the FIFOs included) when this device made it. Safe to call again.
    package func remove() {
        if ownsRoot { try? FileManager.default.removeItem(atPath: root) }
    }
}
