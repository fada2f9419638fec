import Foundation

/// A file's device and inode: the same file under two names (a link, `.` and `..`, another path)
/// is the same identity.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the file `path` names (following links); nil when it cannot be read.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// True when both paths name one existing file, by any name.
    static func same(_ a: String, _ b: String) -> Bool {
        guard let first = FileIdentity(path: a) else { return false }
        return first == FileIdentity(path: b)
    }
}
