/// An error reading a Linux Industrial I/O (IIO) device through sysfs. Every case names the file
/// (or folder) involved.
public enum IIOError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file or folder that is required does not exist.
    case missingFile(path: String)
    /// A file or folder exists but could not be opened or read; `reason` is the system's message.
    case unreadable(path: String, reason: String)
    /// A file that should hold a number holds `text` instead (trimmed of surrounding white space).
    /// Non-finite spellings such as `nan` or `inf` count as not a number.
    case notANumber(path: String, text: String)
    /// The device at `device` has no channel of this type.
    case noSuchChannel(device: String, type: IIOChannelType)
    /// The value computed from `path` — (raw + offset) × scale, converted to the library's unit —
    /// overflowed to a non-finite number.
    case nonFinite(path: String)

    /// The file or folder the error is about.
    public var path: String {
        switch self {
        case .missingFile(let path), .unreadable(let path, _), .notANumber(let path, _),
            .nonFinite(let path):
            path
        case .noSuchChannel(let device, _):
            device
        }
    }

    /// A one-line message naming the file.
    public var description: String {
        switch self {
        case .missingFile(let path):
            "IIO: missing file \(path)"
        case .unreadable(let path, let reason):
            "IIO: cannot read \(path): \(reason)"
        case .notANumber(let path, let text):
            "IIO: \(path) holds \"\(text)\", not a number"
        case .noSuchChannel(let device, let type):
            "IIO: device \(device) has no \(type.rawValue) channels"
        case .nonFinite(let path):
            "IIO: the value computed from \(path) is not finite"
        }
    }
}
