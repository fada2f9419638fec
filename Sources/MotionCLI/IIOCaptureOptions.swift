import ArgumentParser
import Foundation
import MotionFusion

/// The options of live Linux IIO capture (`motion record --iio`, `motion device-motion --live`),
/// and how the devices are read.
///
/// Buffered capture (the kernel's buffer, `/dev/iio:deviceN`: every sample at the sensor's rate,
/// kernel timestamps) when the devices support it — each device with accelerometer, gyroscope or
/// magnetometer channels has a buffer (`buffer0/enable` or `buffer/enable`) and x, y, z scan
/// elements: one ``IIOBufferedSource`` when one device has every sensor there is, an
/// ``IIODeviceGroup`` when they are spread over several devices (each sensor from the first device
/// that has it). Otherwise, or with `--poll`, every device is polled through sysfs
/// (``IIOSource``), with a one-line notice on standard error saying why.
///
/// `--dev-root` names the folder of the character devices (`/dev` by default): tests, and setups
/// with the nodes elsewhere, point it at another folder holding `iio:deviceN`.
struct IIOCaptureOptions: ParsableArguments {
    @Option(help: "The IIO sysfs folder.")
    var iioRoot: String = IIODevice.defaultRoot

    @Option(help: "Folder of the iio:deviceN devices.")
    var devRoot: String = "/dev"

    @Flag(help: "Poll sysfs even when the devices have a buffer.")
    var poll = false

    @Option(
        help: ArgumentHelp(
            "Buffered: kernel-clock ns at t = 0 (default: the first scan with one device, the start with "
                + "several).", valueName: "ns"))
    var timestampOrigin: Int64?

    /// The source for the devices under ``iioRoot``, and the notice to print when it polls for want
    /// of buffers (nil when buffered, or when `--poll` asked for polling).
    ///
    /// - Parameters:
    ///   - rate: the polling rate asked for (nil: the devices' sampling frequency, else 100 Hz).
    func source(rate: Double?) throws -> (source: any MotionSource, notice: String?) {
        let devices: [IIODevice]
        // IIOError's description already starts with "IIO:".
        do { devices = try IIODevice.list(root: iioRoot) } catch { throw CommandFailure("\(error)") }
        guard !devices.isEmpty else { throw CommandFailure("no IIO devices under \(iioRoot)") }
        func polling(_ reason: String?) -> (source: any MotionSource, notice: String?) {
            let source = IIOSource(devices: devices, rate: rate)
            let hertz = source.rate == source.rate.rounded() ? String(Int(source.rate)) : String(source.rate)
            return (source, reason.map { "\($0); polling sysfs at \(hertz) Hz" })
        }
        if poll { return polling(nil) }

        // Which devices can be read through their buffer, and why the others cannot.
        var buffered: [(device: IIODevice, source: IIOBufferedSource)] = []
        var problems: [(device: IIODevice, reason: String)] = []
        var needed = Set<IIOChannelType>()
        for device in devices {
            let folder = Self.folder(of: device)
            needed.formUnion(device.channelTypes)
            do throws(IIOBufferError) {
                let source = try IIOBufferedSource(
                    device: device, characterDevicePath: devRoot + "/" + folder, timestampOrigin: timestampOrigin)
                buffered.append((device, source))
            } catch {
                guard !device.channelTypes.isEmpty else { continue }  // no motion sensor: not needed
                if case .noBuffer = error {
                    problems.append((device, "\(folder) has no buffer"))
                } else {
                    problems.append((device, "\(folder): \(error)"))
                }
            }
        }
        var covered = Set<IIOChannelType>()
        for (_, source) in buffered { covered.formUnion(Self.types(of: source)) }
        // A sensor only a device without a usable buffer has: poll everything, and say why.
        if let missing = problems.first(where: { !$0.device.channelTypes.isSubset(of: covered) }) {
            return polling(missing.reason)
        }
        guard !buffered.isEmpty else { return polling(problems.first?.reason ?? "no IIO device has a buffer") }
        if let one = buffered.first(where: { Self.types(of: $0.source) == covered }) {
            return (one.source, nil)
        }
        guard covered.contains(.gyroscope) else {
            let names = buffered.map { Self.folder(of: $0.device) }.joined(separator: ", ")
            return polling("the buffered devices (\(names)) have no gyroscope to merge their sensors by")
        }
        do throws(IIODeviceGroupError) {
            let group = try IIODeviceGroup(
                devices: buffered.map(\.device), characterDeviceFolder: devRoot, timestampOrigin: timestampOrigin)
            return (group, nil)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// ``source(rate:)``, with its notice (if any) printed on standard error: how the commands
    /// open the devices.
    func openSource(rate: Double?) throws -> any MotionSource {
        let (source, notice) = try source(rate: rate)
        if let notice { FileHandle.standardError.write("\(notice)\n".data(using: .utf8)!) }
        return source
    }

    /// Puts buffered devices back (disables their buffers) at the end of a run; polling needs
    /// nothing.
    static func stop(_ source: any MotionSource) {
        if let buffered = source as? IIOBufferedSource { buffered.stop() }
        if let group = source as? IIODeviceGroup { group.stop() }
    }

    /// `iio:deviceN` of a device's folder.
    private static func folder(of device: IIODevice) -> String {
        device.path.split(separator: "/").last.map(String.init) ?? device.path
    }

    private static func types(of source: IIOBufferedSource) -> Set<IIOChannelType> {
        var types = Set<IIOChannelType>()
        if source.sensors.contains(.gyroscope) { types.insert(.gyroscope) }
        if source.sensors.contains(.accelerometer) { types.insert(.accelerometer) }
        if source.sensors.contains(.magnetometer) { types.insert(.magnetometer) }
        return types
    }
}
