import Foundation

/// Why an output file was not written. Every case names the output as it was given (`-` is
/// "standard output"), and the description starts with what could not be done to it.
public enum OutputFileError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The output, or its temporary file in the output's folder, could not be created or opened
    /// (a folder that does not exist, no permission, a closed standard output).
    case cannotCreate(path: String, reason: String)
    /// Writing, syncing or moving the output into place failed (a full disk, an I/O error); a
    /// file that was being replaced is unchanged.
    case cannotWrite(path: String, reason: String)
    /// The output is one of the inputs: the same file (device and inode), whatever its name —
    /// another spelling of the path, a hard link or a symbolic link to it.
    case sameAsInput(path: String, input: String)
    /// The output path is a symbolic link to a regular file, or a dangling one: neither replaced
    /// nor followed.
    case symbolicLink(path: String)
    /// The output is a regular file with other hard links: replacing it would break them.
    case hardLink(path: String, links: Int)
    /// The output is a directory, a block device or a socket: nothing a CSV or JSON file can go to.
    case unsupportedFileType(path: String, type: String)

    /// The path the error is about.
    public var path: String {
        switch self {
        case .cannotCreate(let path, _), .cannotWrite(let path, _), .sameAsInput(let path, _), .symbolicLink(let path),
            .hardLink(let path, _), .unsupportedFileType(let path, _):
            path
        }
    }

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): "cannot create \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .sameAsInput(let path, let input):
            "cannot write \(path): it is the same file as the input \(input); nothing was written"
        case .symbolicLink(let path):
            "cannot write \(path): it is a symbolic link, which is not replaced or followed; give the path of the file it points to"
        case .hardLink(let path, let links):
            "cannot write \(path): it is a file with \(links) hard links, which replacing it would break; remove the other links or choose another name"
        case .unsupportedFileType(let path, let type): "cannot write \(path): it is \(type)"
        }
    }

    public var errorDescription: String? { description }
}
