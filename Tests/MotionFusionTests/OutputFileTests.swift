import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `OutputFile` alone: a replaced file changes only in `commit()`, every failure leaves it as it
/// was with no temporary file behind, refusals come before anything is created, and write errors
/// are remembered and reported under the output's name. CommandOutputSafetyTests runs the same
/// rules through every command.
@Suite("Output files")
struct OutputFileTests {
    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// The temporary files beside `name` in the folder.
    static func temporaries(_ folder: Folder, of name: String) -> [String] {
        folder.names.filter { $0.hasPrefix(name + ".tmp-") }
    }

    @Test func replacesOnlyOnCommit() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let target = try folder.write("out.csv", "old\n")
        let file = try OutputFile(path: target)
        #expect(file.mode == .replace)
        file.write("new ")
        file.write(String(repeating: "x", count: 200_000))  // more than the buffer: on disk before commit
        file.write("\n")
        // Meanwhile: the old file as it was, and one temporary file beside it, 0600, not a link.
        #expect(try Self.text(target) == "old\n")
        let temporaries = Self.temporaries(folder, of: "out.csv")
        try #require(temporaries.count == 1, "\(folder.names)")
        #expect(file.temporaryPath == folder[temporaries[0]])
        let status = try #require(FileStatus(folder[temporaries[0]]))
        #expect(status.isRegularFile && status.permissions == 0o600)
        #expect(status.links == 1 && status.owner == geteuid())
        #expect(temporaries[0].count == "out.csv.tmp-".count + 12)
        try file.commit()
        #expect(try Self.text(target) == "new " + String(repeating: "x", count: 200_000) + "\n")
        #expect(folder.names == ["out.csv"])
        try file.commit()  // a second time: nothing
        file.abandon()  // after commit: nothing
        #expect(try Self.text(target) == "new " + String(repeating: "x", count: 200_000) + "\n")
    }

    @Test func abandonAndDeinitLeaveTheTargetAsItWas() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let target = try folder.write("out.csv", "old\n")
        let file = try OutputFile(path: target)
        file.write(String(repeating: "y", count: 300_000))
        file.abandon()
        #expect(try Self.text(target) == "old\n")
        #expect(folder.names == ["out.csv"])
        #expect(throws: OutputFileError.cannotWrite(path: target, reason: "the output was abandoned")) { try file.commit() }
        do {
            let dropped = try OutputFile(path: target)
            dropped.write("never committed\n")
        }
        #expect(try Self.text(target) == "old\n")
        #expect(folder.names == ["out.csv"])
        // A new file that is abandoned never appears.
        do {
            let dropped = try OutputFile(path: folder["new.csv"])
            dropped.write("never committed\n")
        }
        #expect(folder.names == ["out.csv"])
    }

    /// Text and numbers through `TextOutputStream` are Swift's own text, in order with raw bytes.
    @Test func textAndBytesKeepTheirOrder() throws {
        let folder = try Folder()
        defer { folder.remove() }
        var file = try OutputFile(path: folder["out.txt"], bufferSize: 100)
        let values: [Double] = [0, -0.0, 0.1, 1e-5, -2.5e16, .nan, -.infinity, .leastNonzeroMagnitude]
        var expected = ""
        for (k, value) in values.enumerated() {
            value.write(to: &file)
            print(",", Float(value), separator: "", to: &file)
            let chunk = String(repeating: "\(k)", count: 150)  // larger than the buffer
            Array(chunk.utf8).withUnsafeBytes { file.write($0) }
            expected += "\(value),\(Float(value))\n" + chunk
        }
        try file.commit()
        #expect(try Self.text(folder["out.txt"]) == expected)
    }

    /// /dev/full: the first failure is remembered, later writes do nothing, and commit reports it
    /// under the output's name.
    @Test func writeErrorsAreRememberedAndReported() throws {
        let file = try OutputFile(path: "/dev/full")
        #expect(file.mode == .writeThrough && file.temporaryPath == nil)
        file.write("header\n")
        #expect(!file.hasFailed)  // still in the buffer
        file.flush()
        #expect(file.hasFailed && file.failure == "No space left on device")
        file.write(String(repeating: "z", count: 1_000_000))
        #expect(throws: OutputFileError.cannotWrite(path: "/dev/full", reason: "No space left on device")) { try file.commit() }
        #expect(FileStatus("/dev/full")?.isCharacterDevice == true)
    }

    /// A failure while finishing (here the rename, onto a folder that appeared at the path) leaves
    /// no temporary file and the path as it was.
    @Test func aFailedCommitRemovesTheTemporaryFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let target = folder["out.csv"]
        let file = try OutputFile(path: target)
        file.write("rows\n")
        try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
        #expect(throws: OutputFileError.self) { try file.commit() }
        #expect(FileStatus(target)?.type == 0o040000)
        #expect(folder.names == ["out.csv"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: target) == ["inside"])
    }

    /// A symbolic link or a second hard link that appears at the path while the output is written
    /// is refused at commit: the link and its target stay as they were.
    @Test func linksThatAppearBeforeCommitAreRefused() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let victim = try folder.write("victim.txt", "precious\n")
        let target = try folder.write("out.csv", "old\n")
        let file = try OutputFile(path: target)
        file.write("rows\n")
        try FileManager.default.removeItem(atPath: target)
        #expect(symlink(victim, target) == 0)
        #expect(throws: OutputFileError.symbolicLink(path: target)) { try file.commit() }
        #expect(try Self.text(victim) == "precious\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: target) == victim)
        #expect(folder.names == ["out.csv", "victim.txt"])

        let other = try folder.write("other.csv", "old\n")
        let second = try OutputFile(path: other)
        second.write("rows\n")
        #expect(link(other, folder["third.csv"]) == 0)
        #expect(throws: OutputFileError.hardLink(path: other, links: 2)) { try second.commit() }
        #expect(try Self.text(folder["third.csv"]) == "old\n" && FileStatus(other)?.links == 2)
        #expect(folder.names == ["other.csv", "out.csv", "third.csv", "victim.txt"])
    }

    /// Every refusal, from the initializer, before anything is created.
    @Test func refusalsComeBeforeAnythingIsCreated() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("in.csv", "t\n1\n")
        #expect(symlink("in.csv", folder["to-input.csv"]) == 0)
        #expect(link(input, folder["input-link.csv"]) == 0)
        let file = try folder.write("file.csv", "old\n")
        #expect(symlink("file.csv", folder["to-file.csv"]) == 0)
        #expect(symlink("missing.csv", folder["dangling.csv"]) == 0)
        try FileManager.default.createDirectory(atPath: folder["sub"], withIntermediateDirectories: false)
        let before = folder.names
        let cases: [(String, OutputFileError)] = [
            (input, .sameAsInput(path: input, input: input)),
            (folder.path + "/sub/../in.csv", .sameAsInput(path: folder.path + "/sub/../in.csv", input: input)),
            (folder["to-input.csv"], .sameAsInput(path: folder["to-input.csv"], input: input)),
            (folder["input-link.csv"], .sameAsInput(path: folder["input-link.csv"], input: input)),
            (folder["to-file.csv"], .symbolicLink(path: folder["to-file.csv"])),
            (folder["dangling.csv"], .symbolicLink(path: folder["dangling.csv"])),
            (folder["sub"], .unsupportedFileType(path: folder["sub"], type: "a directory")),
            (folder["sub/"], .unsupportedFileType(path: folder["sub/"], type: "a directory")),
            (folder["nowhere/out.csv"], .cannotCreate(path: folder["nowhere/out.csv"], reason: "No such file or directory")),
            (folder["file.csv/out.csv"], .cannotCreate(path: folder["file.csv/out.csv"], reason: "Not a directory")),
            (folder["new/"], .cannotCreate(path: folder["new/"], reason: "Is a directory")),
        ]
        for (path, error) in cases {
            #expect(throws: error, "\(path)") { try OutputFile(path: path, inputs: [input]) }
        }
        #expect(throws: OutputFileError.hardLink(path: input, links: 2)) { try OutputFile(path: input) }
        #expect(folder.names == before)
        #expect(try Self.text(file) == "old\n" && (try Self.text(input)) == "t\n1\n")
        // A closed descriptor.
        #expect(throws: OutputFileError.cannotCreate(path: "/dev/fd/987", reason: "Bad file descriptor")) {
            try OutputFile(path: "/dev/fd/987")
        }
    }

    /// `-` and the /dev names of descriptors are written through; character devices may be an
    /// input and the output at once (they hold no data).
    @Test func descriptorsAndDevicesAreWrittenThrough() throws {
        for path in ["-", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/proc/self/fd/2", "/dev/null"] {
            let file = try OutputFile(path: path, inputs: ["/dev/null"])
            #expect(file.mode == .writeThrough && file.temporaryPath == nil, "\(path)")
            file.abandon()
        }
        let null = try OutputFile(path: "/dev/null", inputs: ["/dev/null"])
        null.write(String(repeating: "n", count: 100_000))
        try null.commit()
        #expect(FileStatus("/dev/null")?.isCharacterDevice == true)
    }

    /// A new file gets 0666 less the umask; a replaced one keeps its bits (and, for root, owner).
    @Test func permissionsAndOwnerAreKept() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let target = folder["out.csv"]
        let new = try OutputFile(path: target)
        new.write("1\n")
        try new.commit()
        #expect(FileStatus(target)?.permissions == 0o666 & ~(try FileStatus.umask()))
        #expect(OutputFile.umask() == (try FileStatus.umask()))
        for bits: mode_t in [0o640, 0o600, 0o444, 0o2755] {
            if geteuid() == 0 { #expect(chown(target, 4321, 8765) == 0) }
            #expect(chmod(target, bits) == 0)  // after chown, which clears the set-group-ID bit
            let file = try OutputFile(path: target)
            file.write("\(bits)\n")
            try file.commit()
            let status = try #require(FileStatus(target))
            #expect(status.permissions == UInt32(bits), "\(String(bits, radix: 8)) became \(String(status.permissions, radix: 8))")
            if geteuid() == 0 { #expect(status.owner == 4321 && status.group == 8765) }
            #expect(try Self.text(target) == "\(bits)\n")
        }
    }

    @Test func errorsNameThePathAndTheReason() {
        let cases: [(OutputFileError, String)] = [
            (.cannotCreate(path: "a/b.csv", reason: "No such file or directory"), "cannot create a/b.csv: No such file or directory"),
            (.cannotWrite(path: "/dev/full", reason: "No space left on device"), "cannot write /dev/full: No space left on device"),
            (.sameAsInput(path: "out.csv", input: "in.csv"), "cannot write out.csv: it is the same file as the input in.csv; nothing was written"),
            (.unsupportedFileType(path: "d", type: "a directory"), "cannot write d: it is a directory"),
        ]
        for (error, text) in cases {
            #expect(error.description == text)
            #expect(error.errorDescription == text)
            #expect(error.localizedDescription == text)
        }
        #expect(OutputFileError.symbolicLink(path: "l.csv").description.hasPrefix("cannot write l.csv: it is a symbolic link"))
        #expect(OutputFileError.hardLink(path: "h.csv", links: 3).description.hasPrefix("cannot write h.csv: it is a file with 3 hard links"))
        #expect(OutputFileError.hardLink(path: "h.csv", links: 3).path == "h.csv")
    }

    @Test func splitsPathsIntoFolderAndName() {
        #expect(OutputFile.split("out.csv") == (".", "out.csv"))
        #expect(OutputFile.split("/out.csv") == ("/", "out.csv"))
        #expect(OutputFile.split("a/b/out.csv") == ("a/b", "out.csv"))
        #expect(OutputFile.split("a/") == ("a", ""))
        #expect(OutputFile.openDescriptorNumber("-") == 1 && OutputFile.openDescriptorNumber("/dev/stdout") == 1)
        #expect(OutputFile.openDescriptorNumber("/dev/fd/7") == 7 && OutputFile.openDescriptorNumber("/proc/self/fd/0") == 0)
        #expect(OutputFile.openDescriptorNumber("/dev/fd/x") == nil && OutputFile.openDescriptorNumber("./-") == nil)
    }
}
