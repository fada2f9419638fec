import Foundation
import Testing

@testable import MotionFusionIO

#if canImport(Glibc)
    import Glibc
#endif

/// An interrupted run leaves nothing behind: `motion` ended by SIGINT, SIGTERM or SIGHUP while it
/// writes its output (or its outputs, fusing many recordings) removes the temporary file beside it (it left a full-size hidden copy, one
/// more per interruption), ends by the signal, and the output path is as it was.
///
/// The input is a FIFO that the test keeps open after 12,000 rows (more than the reader's first
/// 256 KiB), so the command is certainly in the middle of its run, its temporary file there, when
/// the signal is sent. The command is started with the three signals unblocked (the test's thread,
/// whose mask a child inherits, may block them).
@Suite("Interrupted runs")
struct InterruptedRunTests {
    /// `fuse --output-directory` ("fuse many") reads the FIFO as one of two recordings given (the
    /// other, a regular file, is done by the time of the signal) and writes into a folder.
    @Test(arguments: ["fuse", "device-motion", "events", "steps", "activity", "fuse many"])
    func aSignalRemovesTheTemporaryFile(command: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let many = command == "fuse many"
        if many {
            try FileManager.default.createDirectory(atPath: folder["in"], withIntermediateDirectories: false)
            try FileManager.default.createDirectory(atPath: folder["out"], withIntermediateDirectories: false)
            var other = "t,gx,gy,gz,ax,ay,az\n"
            for k in 0..<100 { other += "\(Double(k) * 0.01),0.01,0.02,0.03,0,0,9.81\n" }
            _ = try folder.write("in/b.csv", other)
        }
        let fifo = many ? folder["in/a.csv"] : folder["input.fifo"]
        try #require(mkfifo(fifo, 0o600) == 0)
        let watched = many ? folder["out"] : folder.path
        let previous = try folder.write(many ? "out/a.csv" : "out.csv", "an earlier result\n")
        var rows = "t,gx,gy,gz,ax,ay,az\n"
        for k in 0..<12_000 { rows += "\(Double(k) * 0.01),0.01,0.02,0.03,0,0,9.81\n" }
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            // Read and write, so that opening does not wait for the command, and the command never
            // sees the end of the input.
            let writer = open(fifo, O_RDWR)
            try #require(writer >= 0)
            defer { close(writer) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try StandardOutputTests.binary())
            process.arguments = many
                ? ["fuse", fifo, folder["in/b.csv"], "-O", watched, "--jobs", "2"] : [command, fifo, "-o", previous]
            process.standardInput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            var signals = sigset_t()
            var saved = sigset_t()
            sigemptyset(&signals)
            for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, s) }
            pthread_sigmask(SIG_UNBLOCK, &signals, &saved)
            defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
            try process.run()
            pthread_sigmask(SIG_SETMASK, &saved, nil)
            // Written once the command reads (more than the FIFO holds), without blocking: a
            // command that ended early fails the test instead of hanging it.
            _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
            let bytes = Array(rows.utf8)
            var written = 0
            let deadline = Date().addingTimeInterval(20)
            while written < bytes.count, Date() < deadline, process.isRunning {
                let n = bytes[written...].withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                if n > 0 { written += n } else { usleep(5_000) }
            }
            #expect(written == bytes.count, "\(command): the command read the rows")
            var temporary: [String] = []
            for _ in 0..<200 where temporary.isEmpty {
                temporary = try FileManager.default.contentsOfDirectory(atPath: watched).filter { $0.contains(".tmp-") }
                if temporary.isEmpty { usleep(50_000) }
            }
            #expect(temporary.count == 1, "\(command): the temporary file while it runs")
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal, "\(command), signal \(signal): ended by it")
            let left = try FileManager.default.contentsOfDirectory(atPath: watched).filter { $0.contains(".tmp-") }
            #expect(left.isEmpty, "\(command), signal \(signal): \(left) left behind")
            #expect(try String(contentsOfFile: previous, encoding: .utf8) == "an earlier result\n")
            if many {
                // The other recording was done before the signal, and is kept.
                #expect(try String(contentsOfFile: folder["out/b.csv"], encoding: .utf8).hasPrefix("t,qw,qx,qy,qz"))
                try FileManager.default.removeItem(atPath: folder["out/b.csv"])
            }
        }
    }
}
