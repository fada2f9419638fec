import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A live pipeline, `producer | motion COMMAND - -o - | consumer`: the rows that come in go out
/// while the producer is still writing, not when a buffer fills or the producer closes (the reader
/// waited for 256 KiB of a pipe before returning a row, and the output went out in 64 KiB blocks).
///
/// Each command gets 300 rows (18 KB, lying flat) on a pipe that stays open, as text or as one
/// gzip member (compressed by the system's gzip); its output must come out before the pipe is
/// closed — the test waits up to 60 s for it, which a command that holds its rows until the end
/// never meets — and, once the input is closed, equal the output for the same rows read from a
/// file.
@Suite("Live pipes")
struct LivePipeTests {
    static let rows: String = {
        var text = "t,gx,gy,gz,ax,ay,az\n"
        for k in 0..<300 { text += "\(Double(k) / 100),0.01,0.02,0.03,0,0,9.81\n" }
        return text
    }()

    /// What must have come out, of the complete output for the file, before the input ends: every
    /// fused row but the last few the reader may hold for readings still to come, or the events.
    static func expectedEarly(_ command: String, of complete: Data) -> Int {
        let lines = complete.split(separator: UInt8(ascii: "\n")).count
        return command == "events" ? lines : lines - 5
    }

    @Test(arguments: [("fuse", false), ("fuse", true), ("device-motion", false), ("events", false)])
    func rowsComeOutWhileThePipeIsOpen(command: String, compressed: Bool) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = try folder.write("rows.csv", Self.rows)
        let sent = compressed ? try Data(contentsOf: URL(fileURLWithPath: OtherSourcesFileTests.gzip(file))) : Data(Self.rows.utf8)
        let expected = try StandardOutputTests.run([command, file, "-o", "-"], in: folder)
        try #require(expected.status == 0, "\(expected.error)")
        let early = Self.expectedEarly(command, of: expected.output)
        #expect(early >= 2, "\(command): the complete output has rows")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try StandardOutputTests.binary())
        process.arguments = [command, "-", "-o", "-"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(sent)
        let reader = output.fileHandleForReading.fileDescriptor
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(60)
        while received.split(separator: UInt8(ascii: "\n")).count < early, Date() < deadline, process.isRunning {
            let n = chunk.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            if n > 0 { received.append(contentsOf: chunk[..<n]) } else { usleep(10_000) }
        }
        let lines = received.split(separator: UInt8(ascii: "\n")).count
        #expect(lines >= early, "\(command): \(lines) lines out while the input was open, \(early) expected")
        #expect(process.isRunning, "\(command): still reading the open pipe")
        try input.fileHandleForWriting.close()
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) & ~O_NONBLOCK)
        received.append(output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(received == expected.output, "\(command): the same bytes as from the file")
    }
}
