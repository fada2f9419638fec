import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

// Every command that writes a file, run in-process the way a user runs it, against outputs that
// must not be destroyed: the input itself (by its name, another spelling, a hard link, a symbolic
// link), a symbolic link, a hard-linked file, symbolic links planted at the names of temporary
// files, a device, a FIFO, a full device, a missing folder. OutputFileTests checks OutputFile
// alone; `-o -` and `-o /dev/stdout` run the built `motion` executable (below) so that they write
// to a pipe and not to the test runner's standard output.

/// One way of running a command that writes a file: the arguments for an input and an output.
struct OutputCommand: Sendable, CustomTestStringConvertible {
    var name: String
    /// Whether the command reads the recording (otherwise it only writes).
    var readsInput: Bool = true
    /// The arguments, given the input recording and the output path.
    var arguments: @Sendable (_ input: String, _ output: String) -> [String]
    var testDescription: String { name }

    static let all: [OutputCommand] = [
        OutputCommand(name: "fuse") { ["fuse", $0, "-o", $1] },
        OutputCommand(name: "fuse float madgwick") { ["fuse", $0, "-o", $1, "--precision", "float", "--filter", "madgwick"] },
        OutputCommand(name: "device-motion") { ["device-motion", $0, "-o", $1] },
        OutputCommand(name: "events") { ["events", $0, "-o", $1] },
        OutputCommand(name: "steps") { ["steps", $0, "-o", $1] },
        OutputCommand(name: "activity") { ["activity", $0, "-o", $1] },
        OutputCommand(name: "tune") { ["tune", $0, "-o", $1, "--set", "accelerometerTimeConstant=2,4", "--jobs", "1"] },
        OutputCommand(name: "simulate -o", readsInput: false) { _, output in ["simulate", "gestures", "-o", output, "--rate", "20"] },
        OutputCommand(name: "simulate --schedule", readsInput: false) { input, output in
            ["simulate", "gestures", "-o", input + ".simulated.csv", "--schedule", output, "--rate", "20"]
        },
        OutputCommand(name: "calibrate magnetometer") { ["calibrate", "magnetometer", $0, "-o", $1, "--field-strength", "50"] },
        OutputCommand(name: "calibrate gyroscope") { ["calibrate", "gyroscope", $0, "-o", $1] },
    ]
}

@Suite("Command output safety")
struct CommandOutputSafetyTests {
    /// A recording every command accepts: a magnetometer turned through every direction (for
    /// `calibrate magnetometer`), the device at rest otherwise (for `calibrate gyroscope`).
    static let recording: String = {
        var random = TestRandom(seed: 31)
        let field = EllipsoidFitTests.readings(
            hardIron: SIMD3(10, -5, 20), softIron: .identity, radius: 50, count: 600, maximumPolarAngle: .pi,
            noise: 0.05, random: &random)
        // With a truth (at rest, level: the identity) for `motion tune`.
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz,qw,qx,qy,qz\n"
        for (k, m) in field.enumerated() {
            text += "\(Double(k) * 0.01),0.001,-0.002,0.003,0,0,9.80665,\(m.x),\(m.y),\(m.z),1,0,0,0\n"
        }
        return text
    }()

    /// Runs `motion` in-process; the error's text, or nil when it succeeded.
    static func run(_ arguments: [String]) -> String? {
        do {
            var command = try MotionCommand.parseAsRoot(arguments)
            try command.run()
            return nil
        } catch {
            return MotionCommand.message(for: error)
        }
    }

    // MARK: The output is the input

    /// `-o` naming the input, by the same name, by another spelling, through a hard link and through
    /// a symbolic link: refused before anything is written, with an error that names both.
    @Test(arguments: ["the same name", "another spelling", "a hard link", "a symbolic link"])
    func fuseRefusesAnOutputThatIsItsInput(_ way: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", Self.recording)
        let output: String
        switch way {
        case "the same name": output = input
        case "another spelling": output = folder.path + "/./sub/../rec.csv"
            try FileManager.default.createDirectory(atPath: folder["sub"], withIntermediateDirectories: false)
        case "a hard link":
            output = folder["hard.csv"]
            #expect(link(input, output) == 0)
        default:
            output = folder["link.csv"]
            #expect(symlink("rec.csv", output) == 0)
        }
        let before = folder.names
        let status = FileStatus(output)
        let message = try #require(Self.run(["fuse", input, "-o", output]), "\(way): fuse succeeded")
        #expect(message.contains("cannot write \(output)") && message.contains(input), "\(way): \(message)")
        #expect(message.contains("same file"), "\(way): \(message)")
        #expect(try folder.read("rec.csv") == Data(Self.recording.utf8), "\(way): the input changed")
        #expect(folder.names == before, "\(way): \(folder.names)")
        #expect(FileStatus(output) == status, "\(way): the output path changed")
    }

    /// Every command with an input file, over each of its inputs (the recording, a calibration
    /// file): refused, the input untouched.
    @Test func everyCommandRefusesToOverwriteItsInputs() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", Self.recording)
        let calibration = folder["gyro.json"]
        try CalibrationFile.write(InertialCalibration(bias: SIMD3(0.001, 0, 0)), sensor: .gyroscope, to: calibration)
        let calibrationBytes = try folder.read("gyro.json")
        let hard = folder["hard.json"]
        #expect(link(calibration, hard) == 0)
        let runs: [(arguments: [String], victim: String)] = [
            (["device-motion", input, "-o", input], input),
            (["events", input, "-o", input], input),
            (["calibrate", "magnetometer", input, "-o", input, "--field-strength", "50"], input),
            (["calibrate", "accelerometer", input, "-o", input], input),
            (["calibrate", "gyroscope", input, "-o", input], input),
            (["fuse", input, "--calibration", calibration, "-o", calibration], calibration),
            (["fuse", input, "--calibration", calibration, "-o", hard], calibration),
            (["device-motion", input, "--calibration", calibration, "-o", calibration], calibration),
        ]
        for run in runs {
            let output = run.arguments[run.arguments.firstIndex(of: "-o")! + 1]
            let message = Self.run(run.arguments) ?? "(succeeded)"
            #expect(message.contains("cannot write \(output)") && message.contains(run.victim), "\(run.arguments): \(message)")
            #expect(message.contains("same file"), "\(run.arguments): \(message)")
            #expect(try folder.read("rec.csv") == Data(Self.recording.utf8), "\(run.arguments): the recording changed")
            #expect(try folder.read("gyro.json") == calibrationBytes, "\(run.arguments): the calibration changed")
            #expect(folder.names == ["gyro.json", "hard.json", "rec.csv"], "\(run.arguments): \(folder.names)")
        }
    }

    /// `motion simulate -o X --schedule X`, by any spelling or link: refused, nothing written.
    @Test func simulateRefusesOneFileForBothOutputs() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let existing = try folder.write("existing.csv", "an earlier run\n")
        #expect(symlink("existing.csv", folder["link.csv"]) == 0)
        try FileManager.default.createDirectory(atPath: folder["sub"], withIntermediateDirectories: false)
        let before = folder.names
        let pairs = [
            (folder["new.csv"], folder["new.csv"]), (folder["new.csv"], folder.path + "/sub/../new.csv"),
            (existing, existing), (existing, folder["link.csv"]), ("-", "-"),
        ]
        for (output, schedule) in pairs {
            let message = Self.run(["simulate", "gestures", "-o", output, "--schedule", schedule, "--rate", "20"])
            #expect(message?.contains("cannot write \(schedule)") == true, "\(output) \(schedule): \(message ?? "succeeded")")
            #expect(message?.contains("same file") == true, "\(output) \(schedule): \(message ?? "succeeded")")
            #expect(folder.names == before, "\(output) \(schedule): \(folder.names)")
            #expect(try folder.read("existing.csv") == Data("an earlier run\n".utf8))
        }
        // Standard output under two names (both would have been written through, mixed).
        for schedule in ["/dev/stdout", "/proc/self/fd/1"] {
            let message = Self.run(["simulate", "gestures", "-o", "-", "--schedule", schedule, "--rate", "20"])
            #expect(message?.contains("cannot write \(schedule): -o - writes to the same place") == true, "\(schedule): \(message ?? "succeeded")")
        }
    }

    // MARK: Links at the output path

    /// A symbolic link at the output path is refused: neither the link nor its target changes.
    @Test(arguments: OutputCommand.all)
    func symbolicLinkAtTheOutputIsRefused(_ command: OutputCommand) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", Self.recording)
        let target = try folder.write("target.csv", "an earlier run\n")
        let output = folder["out.csv"]
        #expect(symlink("target.csv", output) == 0)
        #expect(symlink("nowhere.csv", folder["dangling.csv"]) == 0)
        let before = folder.names
        for (path, linkTarget) in [(output, "target.csv"), (folder["dangling.csv"], "nowhere.csv")] {
            let message = try #require(Self.run(command.arguments(input, path)), "\(command.name): succeeded over \(path)")
            #expect(message.contains("cannot write \(path)") && message.contains("symbolic link"), "\(command.name): \(message)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == linkTarget, "\(command.name)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("an earlier run\n".utf8), "\(command.name)")
            #expect(folder.names == before, "\(command.name): \(folder.names)")
        }
    }

    /// An output file with another hard link is refused: replacing it would break the link, and
    /// writing over it in place would leave it half written on a failure.
    @Test(arguments: OutputCommand.all)
    func hardLinkedOutputIsRefused(_ command: OutputCommand) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", Self.recording)
        let output = try folder.write("out.csv", "an earlier run\n")
        #expect(link(output, folder["other-name.csv"]) == 0)
        let before = folder.names
        let message = try #require(Self.run(command.arguments(input, output)), "\(command.name): succeeded")
        #expect(message.contains("cannot write \(output)") && message.contains("hard link"), "\(command.name): \(message)")
        #expect(FileStatus(output)?.links == 2 && FileStatus(output)?.inode == FileStatus(folder["other-name.csv"])?.inode)
        #expect(try folder.read("other-name.csv") == Data("an earlier run\n".utf8), "\(command.name)")
        #expect(folder.names == before, "\(command.name): \(folder.names)")
    }

    // MARK: Temporary files

    /// Symbolic links planted at the temporary names earlier versions used (`OUT.partial-<pid>`)
    /// are neither followed nor removed, and the output is written.
    @Test(arguments: OutputCommand.all)
    func plantedTemporaryNamesAreNotFollowed(_ command: OutputCommand) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", Self.recording)
        let victim = try folder.write("victim.txt", "precious\n")
        let output = folder["out.csv"]
        let planted = ["out.csv.partial-\(getpid())", "out.csv.partial", "out.csv.tmp", ".out.csv.tmp", "out.csv~"]
        for name in planted { #expect(symlink(victim, folder[name]) == 0) }
        for round in ["new", "existing"] {
            #expect(Self.run(command.arguments(input, output)) == nil, "\(command.name), \(round) output")
            #expect(try folder.read("victim.txt") == Data("precious\n".utf8), "\(command.name), \(round) output: the victim changed")
            for name in planted { #expect(FileStatus(folder[name])?.isSymbolicLink == true, "\(command.name): \(name)") }
            #expect(FileStatus(output)?.isRegularFile == true)
            #expect(try folder.read("out.csv").count > 10)
            let expected = (["out.csv", "rec.csv", "victim.txt"] + planted + (command.name == "simulate --schedule" ? ["rec.csv.simulated.csv"] : [])).sorted()
            #expect(folder.names == expected, "\(command.name): \(folder.names)")
        }
    }

    /// Replacing an existing output keeps its permission bits (0640 here) and, for root, its owner;
    /// a new output gets 0666 less the umask.
    @Test(arguments: OutputCommand.all)
    func replacedOutputKeepsItsModeAndOwner(_ command: OutputCommand) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", Self.recording)
        let output = folder["out.csv"]
        #expect(Self.run(command.arguments(input, output)) == nil, "\(command.name): new output")
        #expect(FileStatus(output)?.permissions == 0o666 & ~(try FileStatus.umask()), "\(command.name): new output")
        #expect(chmod(output, 0o640) == 0)
        let root = geteuid() == 0
        if root { #expect(chown(output, 1234, 5678) == 0) }
        let before = try #require(FileStatus(output))
        #expect(Self.run(command.arguments(input, output)) == nil, "\(command.name): existing output")
        let after = try #require(FileStatus(output))
        #expect(after.inode != before.inode, "\(command.name): the output was replaced, not rewritten")
        #expect(after.permissions == 0o640, "\(command.name): mode \(String(after.permissions, radix: 8))")
        if root { #expect(after.owner == 1234 && after.group == 5678, "\(command.name): owner \(after.owner):\(after.group)") }
        #expect(try folder.read("out.csv").count > 10)
    }

    // MARK: Failures name the output

    /// A folder that does not exist: the error names the output (not the input) and says it
    /// cannot be created; nothing is left anywhere.
    @Test(arguments: OutputCommand.all)
    func missingFolderNamesTheOutput(_ command: OutputCommand) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", Self.recording)
        let output = folder["no-such-folder/out.csv"]
        let before = folder.names
        let message = try #require(Self.run(command.arguments(input, output)), "\(command.name): succeeded")
        #expect(message.contains("cannot create \(output): No such file or directory"), "\(command.name): \(message)")
        #expect(!message.contains("cannot read"), "\(command.name): \(message)")
        #expect(folder.names == before, "\(command.name): \(folder.names)")
    }

    /// Writing through a symbolic link to /dev/full (writes fail with ENOSPC): "cannot write" the
    /// output, with the reason; the link stays.
    @Test(arguments: OutputCommand.all)
    func fullDeviceThroughALinkReportsTheWriteError(_ command: OutputCommand) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", Self.recording)
        let output = folder["full.csv"]
        #expect(symlink("/dev/full", output) == 0)
        let message = try #require(Self.run(command.arguments(input, output)), "\(command.name): succeeded")
        #expect(message.contains("cannot write \(output): No space left on device"), "\(command.name): \(message)")
        #expect(!message.contains("cannot read"), "\(command.name): \(message)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: output) == "/dev/full")
    }

    /// /dev/full itself (never run this against a version that renames onto the output: as root it
    /// would replace the device).
    @Test(arguments: OutputCommand.all)
    func fullDeviceReportsTheWriteError(_ command: OutputCommand) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", Self.recording)
        let message = try #require(Self.run(command.arguments(input, "/dev/full")), "\(command.name): succeeded")
        #expect(message.contains("cannot write /dev/full: No space left on device"), "\(command.name): \(message)")
        #expect(FileStatus("/dev/full")?.isCharacterDevice == true)
    }

    // MARK: Devices and FIFOs are written through

    /// /dev/null and a symbolic link to it: written through, the device and the link stay.
    @Test(arguments: OutputCommand.all)
    func nullDeviceIsWrittenThrough(_ command: OutputCommand) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", Self.recording)
        let link = folder["null.csv"]
        #expect(symlink("/dev/null", link) == 0)
        #expect(Self.run(command.arguments(input, link)) == nil, "\(command.name): through a link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/null")
        // /dev/null itself (never against a version that renames onto the output).
        #expect(Self.run(command.arguments(input, "/dev/null")) == nil, "\(command.name)")
        #expect(FileStatus("/dev/null")?.isCharacterDevice == true)
    }

    /// A FIFO gets the same bytes as a file, and stays a FIFO.
    @Test(arguments: OutputCommand.all.filter { $0.name == "fuse" || $0.name == "device-motion" || $0.name == "simulate -o" })
    func fifoIsWrittenThrough(_ command: OutputCommand) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let input = try folder.write("rec.csv", Self.recording)
        #expect(Self.run(command.arguments(input, folder["file.csv"])) == nil)
        let expected = try folder.read("file.csv")
        let fifo = folder["fifo.csv"]
        #expect(mkfifo(fifo, 0o600) == 0)
        // Read it on another thread while the command writes (a pipe holds only 64 KiB). Opened
        // without blocking first, so that the command's open finds a reader.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        let received = FIFOReader(descriptor: reader)
        received.start()
        let message = Self.run(command.arguments(input, fifo))
        let bytes = received.finish()
        #expect(message == nil, "\(command.name): \(message ?? "")")
        #expect(bytes == expected, "\(command.name): \(bytes.count) bytes, expected \(expected.count)")
        #expect(FileStatus(fifo)?.isFIFO == true)
    }
}

/// Reads a FIFO on a thread of its own until `finish()` and the end of the data.
final class FIFOReader: @unchecked Sendable {
    let descriptor: Int32
    private let state = Lock((data: Data(), stop: false))
    private let done = DispatchSemaphore(value: 0)

    init(descriptor: Int32) { self.descriptor = descriptor }

    func start() {
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if n > 0 {
                    state.withLock { $0.data.append(contentsOf: chunk[0..<n]) }
                } else if n == 0 || errno == EAGAIN {
                    // No writer (yet, or any more): the end once the command has returned.
                    if state.withLock({ $0.stop }) && n == 0 { break }
                    usleep(1000)
                } else if errno != EINTR {
                    break
                }
            }
            close(descriptor)
            done.signal()
        }
    }

    /// Waits for the data after the command has returned.
    func finish() -> Data {
        state.withLock { $0.stop = true }
        done.wait()
        return state.withLock { $0.data }
    }
}

/// `-o -` and `-o /dev/stdout`, through the built executable with its standard output on a pipe
/// or a file.
@Suite("Command output safety: standard output")
struct StandardOutputTests {
    static func binary() throws -> String {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let binary = folder.appendingPathComponent("motion").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "the motion executable is built next to the tests: \(binary)")
        return binary
    }

    /// Runs `motion` in `folder` with its standard output on a pipe, or on `standardOutput`.
    static func run(
        _ arguments: [String], in folder: Folder, standardOutput: FileHandle? = nil
    ) throws -> (status: Int32, output: Data, error: String) {
        let process = Process()
        process.standardInput = FileHandle.nullDevice  // never the test runner's (a terminal would stop it)
        process.executableURL = URL(fileURLWithPath: try binary())
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        let out = Pipe(), err = Pipe()
        process.standardOutput = standardOutput ?? out
        process.standardError = err
        try process.run()
        // Standard error carries a line or two: it cannot fill its pipe while standard output is read.
        let output = standardOutput == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, error)
    }

    /// `-o -`: the CSV on standard output, the same bytes as a file gets, and no file named `-`.
    @Test func dashIsStandardOutput() throws {
        let folder = try Folder()
        defer { folder.remove() }
        _ = try folder.write("rec.csv", CommandOutputSafetyTests.recording)
        #expect(CommandOutputSafetyTests.run(["fuse", folder["rec.csv"], "-o", folder["file.csv"]]) == nil)
        let result = try Self.run(["fuse", "rec.csv", "-o", "-"], in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == (try folder.read("file.csv")))
        #expect(folder.names == ["file.csv", "rec.csv"])
    }

    /// `-o /dev/stdout`: written through to a pipe and to a file, and /dev/stdout stays a link
    /// (never run this against a version that renames onto the output: as root it would replace it).
    @Test func devStdoutIsWrittenThrough() throws {
        let folder = try Folder()
        defer { folder.remove() }
        _ = try folder.write("rec.csv", CommandOutputSafetyTests.recording)
        #expect(CommandOutputSafetyTests.run(["fuse", folder["rec.csv"], "-o", folder["file.csv"]]) == nil)
        let expected = try folder.read("file.csv")
        let piped = try Self.run(["fuse", "rec.csv", "-o", "/dev/stdout"], in: folder)
        #expect(piped.status == 0, "\(piped.error)")
        #expect(piped.output == expected)
        #expect(FileStatus("/dev/stdout")?.isSymbolicLink == true)
        // Standard output on a file: the file gets the same bytes.
        _ = try folder.write("redirected.csv", "")
        let handle = try #require(FileHandle(forWritingAtPath: folder["redirected.csv"]))
        let redirected = try Self.run(["fuse", "rec.csv", "-o", "/dev/stdout"], in: folder, standardOutput: handle)
        try handle.close()
        #expect(redirected.status == 0, "\(redirected.error)")
        #expect(try folder.read("redirected.csv") == expected)
        #expect(folder.names == ["file.csv", "rec.csv", "redirected.csv"])
    }

    /// Standard output on the input file itself (`motion fuse rec.csv -o - 1<>rec.csv`): refused.
    @Test func standardOutputOnTheInputIsRefused() throws {
        let folder = try Folder()
        defer { folder.remove() }
        _ = try folder.write("rec.csv", CommandOutputSafetyTests.recording)
        for output in ["-", "/dev/stdout"] {
            let handle = try #require(FileHandle(forWritingAtPath: folder["rec.csv"]))
            let result = try Self.run(["fuse", "rec.csv", "-o", output], in: folder, standardOutput: handle)
            try handle.close()
            #expect(result.status != 0)
            #expect(result.error.contains("same file") && result.error.contains("rec.csv"), "\(result.error)")
            #expect(try folder.read("rec.csv") == Data(CommandOutputSafetyTests.recording.utf8))
        }
    }
}
