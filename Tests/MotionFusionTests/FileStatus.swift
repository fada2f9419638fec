import Foundation
import Testing

// Files and folders for the output tests (OutputFileTests, CommandOutputSafetyTests).

/// What `stat` says about a path.
struct FileStatus: Equatable {
    var device: UInt64, inode: UInt64, mode: UInt32, links: UInt64, owner: UInt32, group: UInt32

    /// The path itself (`lstat`), or nil when there is nothing there.
    init?(_ path: String) {
        var s = stat()
        guard lstat(path, &s) == 0 else { return nil }
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
        mode = UInt32(s.st_mode)
        links = UInt64(s.st_nlink)
        owner = UInt32(s.st_uid)
        group = UInt32(s.st_gid)
    }

    var type: UInt32 { mode & 0o170000 }
    var permissions: UInt32 { mode & 0o7777 }
    var isRegularFile: Bool { type == 0o100000 }
    var isSymbolicLink: Bool { type == 0o120000 }
    var isCharacterDevice: Bool { type == 0o020000 }
    var isFIFO: Bool { type == 0o010000 }

    /// The umask of this process, from /proc (reading it with umask(2) would change it for a moment).
    static func umask() throws -> UInt32 {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(UInt32(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
    }
}
