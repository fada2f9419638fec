// libFuzzer target: the Linux IIO reader on an arbitrary fake sysfs device. The input is split at
// 0xFF bytes into the contents of the device's files (name, raw values, scales, offsets, sampling
// frequency); reading must give finite values or a typed IIOError, never a crash.
import Foundation
import FuzzDriver
import MotionFusion

let root = FileManager.default.temporaryDirectory.appendingPathComponent("motionfusion-fuzz-iio-\(getpid())").path
let files = [
    "name", "in_accel_x_raw", "in_accel_y_raw", "in_accel_z_raw", "in_accel_scale", "in_accel_offset",
    "in_anglvel_x_raw", "in_anglvel_y_raw", "in_anglvel_z_raw", "in_anglvel_x_scale", "in_anglvel_scale",
    "in_magn_x_raw", "in_magn_y_raw", "in_magn_z_raw", "in_magn_scale", "in_magn_z_offset",
    "sampling_frequency", "in_accel_sampling_frequency",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIIO(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0xFF, omittingEmptySubsequences: false)
    let fm = FileManager.default
    try? fm.removeItem(atPath: root)
    guard (try? fm.createDirectory(atPath: root, withIntermediateDirectories: true)) != nil else { return 0 }
    for (name, part) in zip(files, parts) {
        fm.createFile(atPath: root + "/" + name, contents: Data(part))
    }
    do {
        let device = try IIODevice(path: root)
        for type in IIOChannelType.allCases {
            if let value = try? device.read(type) {
                // Finite or not, a value must come back without a crash; NaN only from NaN text.
                _ = value
            }
            _ = device.samplingFrequency(of: type)
        }
    } catch {
        _ = error.localizedDescription
    }
    return 0
}

@_cdecl("FuzzIIO_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzIIO)
}
