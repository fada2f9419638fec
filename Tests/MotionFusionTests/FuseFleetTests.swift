import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionIO

#if canImport(Glibc)
    import Glibc
#endif

/// `motion fuse INPUT… --output-directory FOLDER`: many recordings on all cores, each output the
/// same bytes as `motion fuse FILE -o OUTPUT` gives, refused before anything is read when the plan
/// cannot work, and a failing file reported without stopping the others.
@Suite("motion fuse over many files")
struct FuseFleetTests {
    /// The folders a test made, removed when it ends.
    final class Folders {
        var paths: [String] = []
        deinit { for path in paths { try? FileManager.default.removeItem(atPath: path) } }

        /// A fresh folder under the temporary directory.
        func make() throws -> String {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("mf-fleet-\(UUID())").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            paths.append(path)
            return path
        }
    }

    /// A recording written to `path` (FuseCommandTests' synthetic rotation, `rows` long).
    static func recording(at path: String, rows: Int, magnetometer: Bool = true) throws {
        let source = FuseCommandTests.input(rows: rows, magnetometer: magnetometer)
        try FileManager.default.copyItem(atPath: source, toPath: path)
    }

    static func run(_ arguments: [String]) throws { try FuseCommandTests.run(arguments) }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static func names(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func folderAndFilesGiveWhatSingleRunsGive() throws {
        let folders = Folders()
        let inputs = try folders.make()
        try Self.recording(at: inputs + "/a.csv", rows: 700)
        try Self.recording(at: inputs + "/b.csv", rows: 300, magnetometer: false)
        try Self.recording(at: inputs + "/c.csv", rows: 450)
        let zipped = try OtherSourcesFileTests.gzip(inputs + "/c.csv")
        try FileManager.default.removeItem(atPath: inputs + "/c.csv")
        #expect(zipped.hasSuffix("/c.csv.gz"))
        // Not recordings: another extension, a hidden file, a subfolder.
        try Data("t,gx\n".utf8).write(to: URL(fileURLWithPath: inputs + "/notes.txt"))
        try Self.recording(at: inputs + "/.hidden.csv", rows: 10)
        try FileManager.default.createDirectory(atPath: inputs + "/sub.csv", withIntermediateDirectories: false)
        let loose = try folders.make() + "/d.csv"
        try Self.recording(at: loose, rows: 200)
        let out = try folders.make() + "/fused"  // made by the command

        try Self.run(["fuse", inputs, loose, "--output-directory", out, "--filter", "inertial", "--jobs", "2"])
        #expect(try Self.names(out) == ["a.csv", "b.csv", "c.csv", "d.csv"])
        for (input, name) in [(inputs + "/a.csv", "a.csv"), (inputs + "/b.csv", "b.csv"), (zipped, "c.csv"), (loose, "d.csv")] {
            let single = try folders.make() + "/single.csv"
            try Self.run(["fuse", input, "-o", single, "--filter", "inertial"])
            let fleet = try Self.bytes(out + "/" + name)
            #expect(fleet == (try Self.bytes(single)), "\(name) differs from motion fuse \(input) -o …")
            #expect(fleet.count > 1000)
        }
    }

    /// Many workers at once (up to more than the processors, each on its own thread) give what one
    /// gives.
    @Test(arguments: [(files: 5, jobs: 4), (files: 20, jobs: 20)])
    func manyWorkersGiveWhatOneGives(files: Int, jobs: Int) throws {
        let folders = Folders()
        let inputs = try folders.make()
        for k in 0..<files { try Self.recording(at: inputs + "/r\(k).csv", rows: 60 + 13 * k) }
        let one = try folders.make(), many = try folders.make()
        try Self.run(["fuse", inputs, "-O", one, "--jobs", "1"])
        try Self.run(["fuse", inputs, "-O", many, "--jobs", "\(jobs)"])
        let names = try Self.names(one)
        #expect(names == (0..<files).map { "r\($0).csv" }.sorted())
        #expect(try Self.names(many) == names)
        for name in names { #expect(try Self.bytes(one + "/" + name) == (try Self.bytes(many + "/" + name))) }
    }

    @Test func aFailingFileStopsNoOtherAndIsNamed() throws {
        let folders = Folders()
        let inputs = try folders.make()
        try Self.recording(at: inputs + "/good1.csv", rows: 300)
        try Data("t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,9.8\n0.01,0,0,zero,0,0,9.8\n".utf8)
            .write(to: URL(fileURLWithPath: inputs + "/bad.csv"))
        try Self.recording(at: inputs + "/good2.csv", rows: 300)
        let out = try folders.make()
        let existing = out + "/bad.csv"
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: existing))
        do {
            try Self.run(["fuse", inputs, "-O", out])
            Issue.record("a malformed file did not fail the run")
        } catch let error as CommandFailure {
            #expect(error.description.hasPrefix("1 of 3 files failed (the others were written):"), "\(error.description)")
            #expect(error.description.contains(inputs + "/bad.csv: "))
            #expect(error.description.contains("line 3"), "\(error.description)")
        }
        // The good files are written; the bad one's old output is untouched; nothing temporary is left.
        #expect(try Self.names(out) == ["bad.csv", "good1.csv", "good2.csv"])
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "kept\n")
    }

    @Test func plansThatCannotWorkAreRefusedBeforeAnythingIsWritten() throws {
        let folders = Folders()
        let a = try folders.make(), b = try folders.make()
        try Self.recording(at: a + "/same.csv", rows: 50)
        try Self.recording(at: b + "/same.csv", rows: 50)
        try Self.recording(at: a + "/other.csv", rows: 50)
        let out = try folders.make() + "/never"
        func refusal(_ arguments: [String]) throws -> String {
            do {
                try Self.run(arguments)
            } catch let error as CommandFailure {
                return error.description
            }
            Issue.record("\(arguments) was not refused")
            return ""
        }
        #expect(try refusal(["fuse", a, b, "-O", out]).contains("would both be written to same.csv"))
        #expect(try refusal(["fuse", a + "/other.csv", a, "-O", out]).contains("is given twice"))
        #expect(try refusal(["fuse", a, "-O", a]).contains("is the input"))
        let empty = try folders.make()
        #expect(try refusal(["fuse", empty, "-O", out]).contains("holds no .csv or .csv.gz file"))
        #expect(try refusal(["fuse", a + "/missing.csv", a, "-O", out]).contains("no such file or folder"))
        #expect(try refusal(["fuse", a, "-", "-O", out]).contains("standard input"))
        #expect(!FileManager.default.fileExists(atPath: out))
        // An output folder that is a file.
        #expect(try refusal(["fuse", a, "-O", a + "/other.csv"]).contains("is not a folder"))
    }

    @Test(arguments: [
        (["fuse", "x.csv", "y.csv", "-o", "out.csv"], "several inputs need --output-directory"),
        (["fuse", "x.csv", "-o", "out.csv", "-O", "folder"], "not both"),
        (["fuse", "x.csv"], "missing -o OUTPUT (or --output-directory FOLDER"),
        (["fuse", "x.csv", "-o", "out.csv", "--jobs", "2"], "--jobs goes with --output-directory"),
        (["fuse", "x.csv", "-O", "folder", "--jobs", "0"], "--jobs must be 1 to 63"),
        (["fuse", "x.csv", "-O", "folder", "--jobs", "64"], "--jobs must be 1 to 63"),
        (["fuse", "--gyroscope", "g.csv", "--accelerometer", "a.csv", "-O", "folder"], "not the sensors' files"),
        (["fuse", "x.csv", "-O", "folder", "--magnetometer-calibration", "state.json"], "cannot go with --output-directory"),
    ])
    func optionsThatDoNotGoTogetherAreRefused(arguments: [String], message: String) {
        do {
            _ = try MotionCommand.parseAsRoot(arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            let text = MotionCommand.message(for: error)
            #expect(text.contains(message), "\(text)")
        }
    }

    @Test func theMeterAddsWhatEveryWorkerReportsAndTakesBackAFailedFile() {
        let meter = FuseFleetMeter(files: 3, workers: 2)
        let good = FuseFleetMeter.Tally(meter), bad = FuseFleetMeter.Tally(meter)
        good.report(bytesIn: 1_000_000, bytesOut: 2_000_000, rows: 10)
        bad.report(bytesIn: 300_000, bytesOut: 600_000, rows: 3)
        good.report(bytesIn: 1_500_000, bytesOut: 2_000_000, rows: 15)  // totals, not deltas
        meter.add(bytesIn: 0, bytesOut: 0, rows: 0, fileDone: true)
        bad.retract()
        let line = meter.finish()
        #expect(
            line.hasPrefix("fuse: done, 2 of 3 files (1 failed, not counted below), 15 rows, 1.5 MB in, 2.0 MB out, "),
            "\(line)")
        #expect(line.hasSuffix(" MB/s out (2 workers)"))
    }

    /// A folder stands for its regular files: a named pipe there would block the run forever.
    @Test func aFolderStandsForItsRegularFilesOnly() throws {
        let folders = Folders()
        let inputs = try folders.make()
        try Self.recording(at: inputs + "/a.csv", rows: 80)
        try #require(mkfifo(inputs + "/pipe.csv", 0o600) == 0)
        let out = try folders.make()
        try Self.run(["fuse", inputs, "-O", out])
        #expect(try Self.names(out) == ["a.csv"])
    }

    /// Names that differ only in case are one file on a case-insensitive disk: refused.
    @Test func outputNamesThatDifferOnlyInCaseAreRefused() throws {
        let folders = Folders()
        let a = try folders.make(), b = try folders.make()
        try Self.recording(at: a + "/Run.csv", rows: 50)
        try Self.recording(at: b + "/run.csv.gz", rows: 50)
        let out = try folders.make() + "/never"
        #expect(throws: CommandFailure.self) { try Self.run(["fuse", a, b, "-O", out]) }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func measuringRunsMakeNoFolder() throws {
        let folders = Folders()
        let inputs = try folders.make()
        try Self.recording(at: inputs + "/a.csv", rows: 80)
        let out = try folders.make() + "/never"
        try Self.run(["fuse", inputs, "-O", out, "--stop-after", "filter"])
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func theJobLimitLeavesASlotOfTheSignalCleanup() {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            #expect(FuseFleetPlan.maximumJobs < TemporaryFileCleanup.capacity)
        }
    }
}
