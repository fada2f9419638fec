import Foundation

/// An error of buffered IIO capture (``IIOBufferedSource``, ``IIOScanType``, ``IIOScanLayout``).
/// Every case names the file (or folder, or scan element) involved; the two a user can fix —
/// ``permissionDenied(path:)`` and ``busy(path:)`` — say how in their ``description``.
public enum IIOBufferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An `in_*_type` file holds `text`, which is not `[be|le]:[f|s|u]bits/storagebits[Xrepeat][>>shift]`
    /// or describes storage this reader does not handle; `reason` says which part.
    case malformedType(path: String, text: String, reason: String)
    /// The enabled scan elements cannot be laid out as the kernel does (for example an element
    /// whose size is not a power of two); `path` names the element.
    case unsupportedLayout(path: String, reason: String)
    /// The device has no buffer (`buffer0/` or `buffer/` with an `enable` file): its driver has no
    /// buffered mode. ``IIOSource`` polls such devices.
    case noBuffer(device: String)
    /// The device has no complete x, y, z scan elements of any channel type asked for.
    case noChannels(device: String)
    /// A scan element file the capture needs is missing (for example `in_timestamp_en`).
    case missingScanElement(path: String)
    /// The process may not open or write `path` (EACCES or EPERM).
    case permissionDenied(path: String)
    /// `path` is in use (EBUSY): another process has the character device open (the kernel allows
    /// one reader), or the buffer is already enabled.
    case busy(path: String)
    /// The kernel refused to take `value` into `path`; `reason` is the system's message.
    case rejected(path: String, value: String, reason: String)
    /// Enabling the buffer at `path` failed and the device has no trigger: `available` lists the
    /// triggers there are.
    case noTrigger(path: String, available: [String])
    /// The character device at `path` ended the stream: the device was unplugged (ENODEV, end of
    /// file), or another process disabled the buffer. `pendingBytes` is the part of a scan that
    /// had arrived (every complete scan before it was delivered).
    case disconnected(path: String, pendingBytes: Int)
    /// No data came from `path` for `seconds` (a trigger that never fires, a stopped sensor).
    case stalled(path: String, seconds: Double)
    /// A scan element decoded to a non-finite value (a floating-point element holding NaN or
    /// infinity, or an overflow after scale and offset).
    case nonFinite(path: String)
    /// Reading or writing `path` failed otherwise; `reason` is the system's message.
    case io(path: String, reason: String)
    /// Reading a sysfs attribute (scale, offset, index, name) failed.
    case sysfs(IIOError)

    /// The file, folder or scan element the error is about.
    public var path: String {
        switch self {
        case .malformedType(let path, _, _), .unsupportedLayout(let path, _), .missingScanElement(let path),
            .permissionDenied(let path), .busy(let path), .rejected(let path, _, _), .noTrigger(let path, _),
            .disconnected(let path, _), .stalled(let path, _), .nonFinite(let path), .io(let path, _):
            path
        case .noBuffer(let device), .noChannels(let device):
            device
        case .sysfs(let error):
            error.path
        }
    }

    /// A message naming the file, with the fix where there is one.
    public var description: String {
        switch self {
        case .malformedType(let path, let text, let reason):
            "IIO: \(path.isEmpty ? "scan type" : path) holds \"\(text)\", not a scan type "
                + "([be|le]:[f|s|u]bits/storagebits[Xrepeat][>>shift]): \(reason)"
        case .unsupportedLayout(let path, let reason):
            "IIO: cannot lay out scan element \(path): \(reason)"
        case .noBuffer(let device):
            "IIO: device \(device) has no buffer (no buffer0/enable or buffer/enable); poll it with IIOSource instead"
        case .noChannels(let device):
            "IIO: device \(device) has no x, y and z scan elements of in_accel, in_anglvel or in_magn"
        case .missingScanElement(let path):
            "IIO: missing scan element file \(path)"
        case .permissionDenied(let path):
            "IIO: permission denied: \(path). Run as root, or give a group access with a udev rule, for example "
                + "/etc/udev/rules.d/99-iio.rules: SUBSYSTEM==\"iio\", GROUP=\"iio\", MODE=\"0660\", "
                + "RUN+=\"/bin/sh -c 'chgrp -R iio /sys%p && chmod -R g+w /sys%p'\" "
                + "(the device node and the sysfs attributes), then `sudo groupadd -f iio; "
                + "sudo usermod -aG iio $USER`, `sudo udevadm control --reload; sudo udevadm trigger`, and log in again"
        case .busy(let path):
            if path.hasSuffix("/enable") {
                "IIO: busy: \(path) is already 1, so another process is capturing from this device "
                    + "(for example iio-sensor-proxy: `sudo systemctl stop iio-sensor-proxy`). If none is "
                    + "(a run that crashed), disable the buffer: `echo 0 | sudo tee \(path)`"
            } else {
                "IIO: busy: \(path) is in use by another process (the kernel allows one reader per device; "
                    + "find it with `fuser -v \(path)`, often iio-sensor-proxy: `sudo systemctl stop iio-sensor-proxy`)"
            }
        case .rejected(let path, let value, let reason):
            "IIO: \(path) refused \"\(value)\": \(reason)"
        case .noTrigger(let path, let available):
            "IIO: cannot enable the buffer: \(path) names no trigger and the device needs one; write a trigger's "
                + "name there"
                + (available.isEmpty
                    ? " (there is none: create one, for example an hrtimer trigger through configfs)"
                    : " (available: \(available.joined(separator: ", ")))")
        case .disconnected(let path, let pendingBytes):
            "IIO: \(path) ended the stream (device unplugged, or its buffer disabled by another process)"
                + (pendingBytes > 0 ? "; \(pendingBytes) bytes of an incomplete scan were dropped" : "")
        case .stalled(let path, let seconds):
            "IIO: no data from \(path) for \(seconds) s (is the trigger firing? is the sensor on?)"
        case .nonFinite(let path):
            "IIO: the value decoded from scan element \(path) is not finite"
        case .io(let path, let reason):
            "IIO: \(path): \(reason)"
        case .sysfs(let error):
            error.description
        }
    }

    /// The error for a failed `open`, `read` or `write` of `path` with the C library's `errno`
    /// `code`.
    static func system(_ code: Int32, path: String) -> IIOBufferError {
        switch code {
        case EACCES, EPERM: .permissionDenied(path: path)
        case EBUSY: .busy(path: path)
        case ENOENT: .sysfs(.missingFile(path: path))
        case ENODEV, ENXIO: .disconnected(path: path, pendingBytes: 0)
        default: .io(path: path, reason: String(cString: strerror(code)))
        }
    }
}
