#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Linux Industrial I/O (IIO) sensor device, read through sysfs
/// (`/sys/bus/iio/devices/iio:deviceN`).
///
/// Values follow the kernel's ABI (Documentation/ABI/testing/sysfs-bus-iio): for each axis,
/// value = (`in_<type>_<axis>_raw` + offset) × scale, where the scale is `in_<type>_<axis>_scale`
/// if present, else the shared `in_<type>_scale`, and the offset likewise
/// (`in_<type>_<axis>_offset`, then `in_<type>_offset`, then 0). When a device exposes no raw file
/// for an axis but a processed `in_<type>_<axis>_input`, that value is used as is. Results are then
/// converted to the library's units (see ``IIOChannelType``).
///
/// Each ``read(_:)`` opens and reads the files anew (one-shot, "sysfs polling" reads); this is
/// meant for slow polling and tools, not for the buffered high-rate interface (`/dev/iio:deviceN`).
///
/// ```swift
/// for device in try IIODevice.list() where device.channelTypes.contains(.accelerometer) {
///     let specificForce = try device.read(.accelerometer)   // m/s²
///     print(device.name, specificForce)
/// }
/// ```
public struct IIODevice: Sendable, Hashable {
    /// The device's folder, for example `/sys/bus/iio/devices/iio:device0`.
    public let path: String
    /// The device's `name` file, usually the chip's part number (for example `bmi160`). When the
    /// file is absent, the folder's name.
    public let name: String
    /// The channel types for which the folder has an x-axis raw (or processed) file.
    public let channelTypes: Set<IIOChannelType>

    /// The folder IIO devices appear in on Linux.
    public static let defaultRoot = "/sys/bus/iio/devices"

    /// Reads the device in the folder `path`: its `name` and which channel types it has.
    ///
    /// - Throws: ``IIOError/missingFile(path:)`` when the folder does not exist,
    ///   ``IIOError/unreadable(path:reason:)`` when it (or its `name` file) cannot be read.
    public init(path: String) throws(IIOError) {
        let entries = try IIOFiles.entries(of: path)
        self.path = path
        let folder = path.split(separator: "/").last.map(String.init) ?? path
        let name = try IIOFiles.text(at: path + "/name")?.trimmingIIOSpace() ?? ""
        self.name = name.isEmpty ? folder : name
        let names = Set(entries)
        channelTypes = Set(
            IIOChannelType.allCases.filter {
                names.contains("in_\($0.rawValue)_x_raw") || names.contains("in_\($0.rawValue)_x_input")
            })
    }

    /// The IIO devices under `root`, in order of their number (`iio:device0`, `iio:device1`, …).
    ///
    /// Only folders whose name starts with `iio:device` are listed (triggers and buffers are not).
    ///
    /// - Throws: ``IIOError/missingFile(path:)`` when `root` does not exist (for example on a
    ///   machine with no IIO driver loaded), ``IIOError/unreadable(path:reason:)``.
    public static func list(root: String = defaultRoot) throws(IIOError) -> [IIODevice] {
        let base = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        let folders = try IIOFiles.entries(of: base).filter { $0.hasPrefix("iio:device") }
        let sorted = folders.sorted { a, b in
            let na = Int(a.dropFirst("iio:device".count))
            let nb = Int(b.dropFirst("iio:device".count))
            switch (na, nb) {
            case (let x?, let y?): return x != y ? x < y : a < b
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }
        var devices: [IIODevice] = []
        for folder in sorted {
            devices.append(try IIODevice(path: base + "/" + folder))
        }
        return devices
    }

    /// Reads the x, y and z channels of `type` now: (raw + offset) × scale for each axis, in the
    /// library's units (m/s², rad/s or µT).
    ///
    /// - Throws: ``IIOError/noSuchChannel(device:type:)`` when the device has no such channels;
    ///   ``IIOError/missingFile(path:)`` when an axis's raw file or the scale is missing (the error
    ///   names the shared scale file when neither scale file exists);
    ///   ``IIOError/unreadable(path:reason:)`` (the kernel may refuse one-shot reads while the
    ///   device's buffer is enabled); ``IIOError/notANumber(path:text:)``;
    ///   ``IIOError/nonFinite(path:)``. Never returns NaN or infinity.
    public func read(_ type: IIOChannelType) throws(IIOError) -> SIMD3<Double> {
        guard channelTypes.contains(type) else {
            throw .noSuchChannel(device: path, type: type)
        }
        return SIMD3(
            try readAxis(type, "x"), try readAxis(type, "y"), try readAxis(type, "z"))
    }

    /// The device's sampling frequency in Hz, from `sampling_frequency`, or else from
    /// `in_<type>_sampling_frequency` of the first channel type it has (accel, anglvel, magn).
    /// Nil when no such file exists or it cannot be read as a positive finite number.
    public var samplingFrequency: Double? {
        if let shared = positiveNumber(at: path + "/sampling_frequency") { return shared }
        for type in IIOChannelType.allCases where channelTypes.contains(type) {
            if let own = positiveNumber(at: path + "/in_\(type.rawValue)_sampling_frequency") {
                return own
            }
        }
        return nil
    }

    /// The sampling frequency in Hz of one channel type: `in_<type>_sampling_frequency` if
    /// present, else the device's shared `sampling_frequency`. Nil as for ``samplingFrequency``.
    public func samplingFrequency(of type: IIOChannelType) -> Double? {
        positiveNumber(at: path + "/in_\(type.rawValue)_sampling_frequency")
            ?? positiveNumber(at: path + "/sampling_frequency")
    }

    // MARK: - Private

    private func readAxis(_ type: IIOChannelType, _ axis: String) throws(IIOError) -> Double {
        let prefix = path + "/in_\(type.rawValue)"
        let rawPath = "\(prefix)_\(axis)_raw"
        let resultPath: String
        var value: Double
        if let raw = try IIOFiles.number(at: rawPath) {
            let (scale, offset) = try IIOFiles.scaleAndOffset(prefix: prefix, axis: axis)
            value = (raw + offset) * scale
            resultPath = rawPath
        } else if let processed = try IIOFiles.number(at: "\(prefix)_\(axis)_input") {
            value = processed
            resultPath = "\(prefix)_\(axis)_input"
        } else {
            throw .missingFile(path: rawPath)
        }
        value *= type.toLibraryUnit
        guard value.isFinite else { throw .nonFinite(path: resultPath) }
        return value
    }

    private func positiveNumber(at path: String) -> Double? {
        guard let value = try? IIOFiles.number(at: path), value > 0 else { return nil }
        return value
    }
}
