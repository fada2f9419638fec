import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// A recording that cannot be written stops with an error and a file of whole lines; every sample
/// taken from the source reaches the recorder; a recording never replays into itself.
@Suite("Recording: full disks, stops and its own input")
struct RecordingReliabilityTests {
    /// Runs the built `motion` through bash (for `ulimit`), in `folder`.
    static func shell(_ script: String, in folder: Folder) throws -> (status: Int32, error: String) {
        let process = Process()
        process.standardInput = FileHandle.nullDevice  // never the test runner's (a terminal would stop it)
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        process.environment = ProcessInfo.processInfo.environment.merging(["MOTION": try StandardOutputTests.binary()]) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, error)
    }

    /// Every line of a recording: whole (ends with a newline), ten numbers.
    static func expectWholeLines(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.last == UInt8(ascii: "\n"), "the file ends inside a line", sourceLocation: sourceLocation)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        #expect(lines.first.map(String.init) == String(MotionRecorder.header.dropLast()), sourceLocation: sourceLocation)
        for (index, line) in lines.dropFirst().enumerated() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            let numbers: Bool = fields.count == 10 && fields.allSatisfy { Double($0) != nil }
            #expect(numbers, "line \(index + 2): \(line)", sourceLocation: sourceLocation)
        }
        return lines.count - 1
    }

    /// `motion record` on a disk that fills up (a 64 KiB file-size limit: writes past it are cut
    /// short, then fail, as on a full disk): exit status 1 naming the file, the file ends on its last
    /// whole line, and a later recording appends whole lines (nothing glued onto a partial one).
    /// Before: "recorded 6001 samples", status 0, a partial last line, then a 12-field glued line.
    @Test func fullDiskStopsTheRecordingOnAWholeLine() throws {
        let folder = try Folder()
        defer { folder.remove() }
        // `trap '' XFSZ`: past the limit the kernel signals SIGXFSZ; ignored, the write fails with EFBIG.
        let full = try Self.shell(#"trap '' XFSZ; ulimit -f 64; exec "$MOTION" record --simulate walking -o rec.csv"#, in: folder)
        #expect(full.status == 1, "\(full.error)")
        #expect(full.error.contains("cannot write rec.csv") && full.error.contains("the recording stopped"), "\(full.error)")
        let size = try folder.read("rec.csv").count
        #expect(size <= 64 * 1024 && size > 32 * 1024, "\(size) bytes")
        let first = try Self.expectWholeLines(folder["rec.csv"])
        #expect(first > 100)
        // Space comes back: the recording continues with whole lines.
        let more = try Self.shell(#"exec "$MOTION" record --simulate walking --duration 1 -o rec.csv"#, in: folder)
        #expect(more.status == 0, "\(more.error)")
        let total = try Self.expectWholeLines(folder["rec.csv"])
        #expect(total == first + 101)  // 1 s at 100 Hz: the samples at 0 … 1 s
        #expect(try MotionRecorder.read(path: folder["rec.csv"]).count == total)
    }

    /// Appending keeps a whole last row written without its newline (it was cut away, the row
    /// lost, exit 0) and still drops a row that was cut short.
    @Test func appendingKeepsAWholeRowWithoutItsNewline() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let whole = "0.01,0.1,0.2,0.3,0,0,9.81,20,0,-40.14"
        let path = try folder.write("rec.csv", MotionRecorder.header + "0,0.1,0.2,0.3,0,0,9.81,20,0,-40\n" + whole)
        let recorder = try MotionRecorder(path: path)
        #expect(recorder.previousEnd == 0.01)
        try recorder.append(SensorSample(timestamp: 0.02, gyroscope: SIMD3(1, 2, 3), accelerometer: nil, magnetometer: nil))
        try recorder.sync()
        #expect(recorder.timeOffset == 0)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4 && lines[2] == whole[...], "\(lines)")
        #expect(try MotionRecorder.read(path: path).map(\.timestamp) == [0, 0.01, 0.02])
        // Cut short (nine fields): dropped, as before.
        let cut = try folder.write("cut.csv", MotionRecorder.header + "0,0.1,0.2,0.3,0,0,9.81,20,0,-40\n" + "0.01,0.1,0.2,0.3,0,0,9.81,20,0")
        let other = try MotionRecorder(path: cut)
        try other.append(SensorSample(timestamp: 0.02, gyroscope: SIMD3(1, 2, 3), accelerometer: nil, magnetometer: nil))
        try other.sync()
        #expect(try MotionRecorder.read(path: cut).map(\.timestamp) == [0, 0.02])
    }

    /// A new session whose source starts at 0 again continues the recording's time (it restarted
    /// at 0 and the file ran backwards): it starts as long after the last row as the wall clock
    /// says passed since the file was written; a session whose times already continue is kept.
    @Test func aNewSessionContinuesTheRecordingsTime() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = try folder.write("rec.csv", MotionRecorder.header + "4.99,0,0,0,0,0,9.81,nan,nan,nan\n5,0,0,0,0,0,9.81,nan,nan,nan\n")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -100)], ofItemAtPath: path)
        let recorder = try MotionRecorder(path: path)
        for k in 0..<3 {
            try recorder.append(
                SensorSample(
                    timestamp: Double(k) * 0.01, gyroscope: SIMD3(0, 0, 1), accelerometer: SIMD3(0, 0, 9.81), magnetometer: nil,
                    accelerometerTimestamp: k == 2 ? 0.015 : nil))
        }
        try recorder.sync()
        let times = try MotionRecorder.read(path: path).map(\.timestamp)
        #expect(times.count == 6, "\(times)")  // two old rows, three samples, one reading of its own
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "never backwards: \(times)")
        #expect(abs(times[2] - 5 - 100) < 5, "the pause: \(times[2] - 5) s")
        #expect(abs(recorder.timeOffset - (times[2])) < 1e-9)
        #expect(abs((times[5] - times[2]) - 0.02) < 1e-9 && abs((times[4] - times[2]) - 0.015) < 1e-9)
        // Timestamps that already continue are kept.
        let later = try MotionRecorder(path: path)
        #expect(later.previousEnd == times[5])
        try later.append(SensorSample(timestamp: 1e6, gyroscope: SIMD3(0, 0, 1), accelerometer: nil, magnetometer: nil))
        #expect(later.timeOffset == 0)
        #expect(try MotionRecorder.read(path: path).last?.timestamp == 1e6)
    }

    /// A recording is a regular file reached by its own name: devices, FIFOs and symbolic links are
    /// refused (a planted link redirected the appends; `-o /dev/stdout` appended to a terminal),
    /// and `-o -` names no file; a new file whose header cannot be written is an error, not a silent
    /// empty recording.
    @Test func recordingsAreRegularFilesNeverLinks() throws {
        let folder = try Folder()
        defer { folder.remove() }
        _ = try folder.write("victim.txt", "keep me\n")
        try FileManager.default.createSymbolicLink(atPath: folder["link.csv"], withDestinationPath: folder["victim.txt"])
        #expect(mkfifo(folder["pipe.csv"], 0o600) == 0)
        for path in ["/dev/full", "/dev/null", folder["link.csv"], folder["pipe.csv"], folder.path] {
            #expect(throws: RecorderError.self, "\(path)") { _ = try MotionRecorder(path: path) }
            do {
                _ = try MotionRecorder(path: path)
            } catch {
                guard case .cannotOpen(let named, _) = error else { Issue.record("\(path): \(error)"); continue }
                #expect(named == path)
            }
        }
        #expect(try folder.read("victim.txt") == Data("keep me\n".utf8))
        let dash = try Self.shell(#"exec "$MOTION" record --simulate walking --duration 1 -o -"#, in: folder)
        #expect(dash.status == 1 && dash.error.contains("-o -"), "\(dash.error)")
        // No room even for the header.
        let full = try Self.shell(#"trap '' XFSZ; ulimit -f 0; exec "$MOTION" record --simulate walking --duration 1 -o new.csv"#, in: folder)
        #expect(full.status == 1 && full.error.contains("cannot write new.csv"), "\(full.error)")
        #expect(folder.names == ["link.csv", "new.csv", "pipe.csv", "victim.txt"])
        #expect(try folder.read("new.csv").isEmpty)
    }

    /// A recording with its header and no sample yet reads back as empty, not as a broken file
    /// (found by the fuzz target FuzzFiles: it threw CSVError.noData).
    @Test func anEmptyRecordingReadsBackEmpty() throws {
        let folder = try Folder()
        defer { folder.remove() }
        _ = try MotionRecorder(path: folder["rec.csv"])
        let back = try MotionRecorder.read(path: folder["rec.csv"])
        #expect(back.isEmpty && back.partialLastLine == nil)
    }

    /// `motion record --replay F -o F` appended to the file it replayed, without end.
    @Test func recordingIntoTheReplayedFileIsRefused() throws {
        let folder = try Folder()
        defer { folder.remove() }
        var text = MotionRecorder.header
        for k in 0..<100 { text += "\(Double(k) * 0.01),0,0,0,0,0,9.81,nan,nan,nan\n" }
        _ = try folder.write("rec.csv", text)
        try FileManager.default.linkItem(atPath: folder["rec.csv"], toPath: folder["hard.csv"])
        for output in ["rec.csv", "./rec.csv", "hard.csv"] {
            let result = try Self.shell(#"exec "$MOTION" record --replay rec.csv -o "# + output, in: folder)
            #expect(result.status == 1 && result.error.contains("is the file being replayed"), "\(output): \(result.error)")
        }
        #expect(try folder.read("rec.csv") == Data(text.utf8))
    }

    /// Services stopped and started again and again while the source runs: every sample the
    /// source gave reaches the recorder once, in order — also the one taken as the last service
    /// stopped (271 of 20,000 were lost before).
    @Test func everySampleTakenReachesTheRecorderAcrossStops() throws {
        var settings = SyntheticMotion.Settings()
        settings.sampleRate = 1000
        settings.duration = 20  // 20,001 samples
        let recording = try SyntheticMotion.generate(settings)
        let folder = try Folder()
        defer { folder.remove() }
        let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        let recorder = try MotionRecorder(path: folder["rec.csv"], syncInterval: 0)
        manager.startRecording(to: recorder)
        var cycles = 0
        while !manager.hasEnded {
            manager.startGyroUpdates()
            manager.stopGyroUpdates()
            cycles += 1
        }
        manager.waitUntilFinished()
        #expect(manager.recordingError == nil)
        let recorded = try MotionRecorder.read(path: folder["rec.csv"]).map(\.timestamp)
        let firstDifference = recorded.indices.first { $0 >= recording.count || recorded[$0] != recording.timestamps[$0] }
        #expect(
            recorded == recording.timestamps,
            "\(recorded.count) of \(recording.count) in \(cycles) cycles; first difference at \(firstDifference ?? -1)")
    }
}
