import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// A fake buffered IIO device in a fresh temporary folder: a sysfs-like tree
/// (`sys/iio:device0/…`, laid out as the kernel lays out `/sys/bus/iio/devices`, with
/// `buffer0/` or, `legacy`, `buffer/` and `scan_elements/`) and a FIFO in place of
/// `/dev/iio:device0`.
struct FakeBufferedDevice {
    /// A scan element: `in_accel_x`, its index and its type text.
    struct Element {
        var name: String
        var index: Int
        var type: String
        var enabled = false
    }

    /// How the device's trigger interface looks.
    enum Trigger {
        /// No `trigger/` folder (a hardware FIFO).
        case none
        /// `trigger/current_trigger` holding `current` ("" for none); `available` are the
        /// `triggerN/name` folders next to the device.
        case interface(current: String, available: [String])
    }

    let root: String
    let legacy: Bool
    /// N of `iio:deviceN`.
    let number: Int

    var sysfs: String { root + "/sys" }
    var device: String { sysfs + "/iio:device\(number)" }
    var fifo: String { root + "/dev/iio:device\(number)" }
    /// The folder of `enable` and `length`, relative to the device.
    var bufferFolder: String { legacy ? "buffer" : "buffer0" }
    /// The folder of the scan elements, relative to the device.
    var scanFolder: String { legacy ? "scan_elements" : "buffer0" }

    init(
        name: String = "fake-imu", elements: [Element], timestampIndex: Int? = nil, files: [String: String] = [:],
        trigger: Trigger = .none, legacy: Bool = false, length: Int = 1024, number: Int = 0, root: String? = nil
    ) throws {
        // `root`: another device's, to put several devices in one tree (`sys/iio:deviceN`, `dev/`).
        self.root = root ?? FileManager.default.temporaryDirectory.appendingPathComponent("mf-iio-buffer-\(UUID().uuidString)").path
        self.legacy = legacy
        self.number = number
        try FileManager.default.createDirectory(atPath: self.root + "/dev", withIntermediateDirectories: true)
        try write("name", name + "\n")
        try write("\(bufferFolder)/enable", "0\n")
        try write("\(bufferFolder)/length", "\(length)\n")
        for element in elements {
            try write("\(scanFolder)/\(element.name)_en", element.enabled ? "1\n" : "0\n")
            try write("\(scanFolder)/\(element.name)_index", "\(element.index)\n")
            try write("\(scanFolder)/\(element.name)_type", element.type + "\n")
        }
        if let timestampIndex {
            try write("\(scanFolder)/in_timestamp_en", "0\n")
            try write("\(scanFolder)/in_timestamp_index", "\(timestampIndex)\n")
            try write("\(scanFolder)/in_timestamp_type", "le:s64/64>>0\n")
        }
        for (file, text) in files { try write(file, text + "\n") }
        if case .interface(let current, let available) = trigger {
            try write("trigger/current_trigger", current + "\n")
            for (n, name) in available.enumerated() {
                try FileManager.default.createDirectory(atPath: "\(sysfs)/trigger\(n)", withIntermediateDirectories: true)
                try "\(name)\n".write(toFile: "\(sysfs)/trigger\(n)/name", atomically: false, encoding: .utf8)
            }
        }
        guard mkfifo(fifo, 0o600) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    /// Writes a file of the device, relative to its folder.
    func write(_ relative: String, _ text: String) throws {
        let path = device + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// The trimmed text of a file of the device, relative to its folder.
    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: device + "/" + relative, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: device + "/" + relative) }

    /// The device as `IIODevice` sees it.
    var iioDevice: IIODevice { get throws { try IIODevice(path: device) } }

    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }
}
