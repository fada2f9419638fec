import Foundation

/// A fake `/sys/bus/iio/devices` tree in a fresh temporary folder.
struct FakeSysfs {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("mf-iio-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)

        // iio:device0 — a 9-axis IMU.
        try write("iio:device0/name", "fake-imu\n")
        try write("iio:device0/sampling_frequency", "100.000000\n")
        try write("iio:device0/in_accel_scale", "0.0023942\n")
        try write("iio:device0/in_accel_offset", "-10\n")
        try write("iio:device0/in_accel_x_raw", "100\n")
        try write("iio:device0/in_accel_y_raw", "-200\n")
        try write("iio:device0/in_accel_z_raw", "4096\n")
        try write("iio:device0/in_anglvel_x_scale", "0.001064724\n")
        try write("iio:device0/in_anglvel_y_scale", "0.0005\n")
        try write("iio:device0/in_anglvel_z_scale", "0.002\n")
        try write("iio:device0/in_anglvel_x_raw", "10\n")
        try write("iio:device0/in_anglvel_y_raw", "-20\n")
        try write("iio:device0/in_anglvel_z_raw", "0\n")
        try write("iio:device0/in_magn_scale", "0.001\n")
        try write("iio:device0/in_magn_x_raw", "200\n")
        try write("iio:device0/in_magn_y_raw", "-150\n")
        try write("iio:device0/in_magn_z_raw", "400\n")
        try write("iio:device0/in_magn_z_offset", "4\n")  // per-axis offset wins over none

        // iio:device10 — listed after device2 (numeric order), no name file, accel only.
        try write("iio:device10/in_accel_scale", "0.5")
        try write("iio:device10/in_accel_x_raw", "1")
        try write("iio:device10/in_accel_y_raw", "2")
        try write("iio:device10/in_accel_z_raw", "3")

        // iio:device2 — accelerometer with processed values and its own sampling frequency.
        try write("iio:device2/name", "fake-accel")
        try write("iio:device2/in_accel_sampling_frequency", "12.5")
        try write("iio:device2/in_accel_x_input", "0.1")
        try write("iio:device2/in_accel_y_input", "-0.2")
        try write("iio:device2/in_accel_z_input", "9.8")

        // Not devices.
        try write("trigger0/name", "fake-trigger")
    }

    var imu: String { root + "/iio:device0" }

    func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: root + "/" + relative)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: root) }
}
