import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionIO

/// One recording, one answer: the same readings written in every spelling the recording format
/// allows — empty cells, `nan` cells, the two mixed row by row, gzip, standard input, one file per
/// sensor (for the commands that take them) — give every command that reads a recording the same
/// output, byte for byte, whether the
/// output goes to a file, to standard output on a pipe or to standard output on a file.
///
/// The readings are a rotating device's, the accelerometer in rows of its own 3 ms after every
/// second gyroscope reading and the magnetometer with every fifth: a multi-rate recording. The
/// fused result is also checked against the independent zero-order hold of
/// ``FuseMultiRateTests/heldSamples(_:)`` (bit for bit).
@Suite("One recording, one answer")
struct RecordingSpellingTests {
    /// The readings: 3 s still (a gyroscope bias of (0.01, −0.02, 0.005) rad/s, for `calibrate
    /// gyroscope`), then 6 s of rotation; gyroscope rows, accelerometer rows of their own,
    /// magnetometer with every fifth gyroscope reading.
    static func readings() -> [FuseMultiRateTests.Row] {
        var still: [FuseMultiRateTests.Row] = []
        let bias = SIMD3<Double>(0.01, -0.02, 0.005)
        for k in 0..<300 {
            still.append(
                FuseMultiRateTests.Row(
                    t: Double(k) * 0.01, g: bias, a: k % 2 == 0 ? SIMD3(0.1, -0.2, 9.78) : nil,
                    m: k % 5 == 0 ? SIMD3(18, -3, -44) : nil))
        }
        var rows: [FuseMultiRateTests.Row] = []
        for r in still + FuseMultiRateTests.synthetic(count: 600, accelerometerEvery: 2, magnetometerEvery: 5, start: 3) {
            rows.append(FuseMultiRateTests.Row(t: r.t, g: r.g, a: nil, m: r.m))
            if let a = r.a { rows.append(FuseMultiRateTests.Row(t: r.t + 0.003, g: nil, a: a, m: nil)) }
        }
        return rows
    }

    /// The three cells of a sensor: its reading, or no reading spelled `absent`.
    static func cells(_ v: SIMD3<Double>?, absent: String) -> String {
        v.map { "\($0.x),\($0.y),\($0.z)" } ?? [absent, absent, absent].joined(separator: ",")
    }

    /// One CSV; `absent(row)` spells a missing reading in that row (`""` or `"nan"`).
    static func text(_ rows: [FuseMultiRateTests.Row], absent: (Int) -> String) -> String {
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for (k, r) in rows.enumerated() {
            let x = absent(k)
            text += "\(r.t),\(cells(r.g, absent: x)),\(cells(r.a, absent: x)),\(cells(r.m, absent: x))\n"
        }
        return text
    }

    /// Runs the built `motion` in `folder` with standard input from `input` (else none) and
    /// standard output on a pipe, or on the file `standardOutput`.
    static func run(
        _ arguments: [String], in folder: Folder, input: String? = nil, standardOutput: String? = nil
    ) throws -> (status: Int32, output: Data, error: String) {
        let process = Process()
        process.standardInput = try input.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) } ?? FileHandle.nullDevice
        process.executableURL = URL(fileURLWithPath: try StandardOutputTests.binary())
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        let out = Pipe(), err = Pipe()
        if let standardOutput {
            _ = FileManager.default.createFile(atPath: standardOutput, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: standardOutput))
        } else {
            process.standardOutput = out
        }
        process.standardError = err
        try process.run()
        let output = standardOutput == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let result = standardOutput.flatMap { FileManager.default.contents(atPath: $0) } ?? output
        return (process.terminationStatus, result, error)
    }

    @Test func everySpellingGivesEveryCommandTheSameBytes() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let rows = Self.readings()
        _ = try folder.write("empty.csv", Self.text(rows) { _ in "" })
        _ = try folder.write("nan.csv", Self.text(rows) { _ in "nan" })
        _ = try folder.write("mixed.csv", Self.text(rows) { $0 % 3 == 0 ? "nan" : "" })
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-k", "-c", folder["mixed.csv"]]
        gzip.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: try folder.write("mixed.csv.gz", "")))
        try gzip.run()
        gzip.waitUntilExit()
        try #require(gzip.terminationStatus == 0)
        let files = FuseMultiRateTests.sensorFiles(rows)
        let sensorFiles = ["--gyroscope", files.g, "--accelerometer", files.a, "--magnetometer", files.m!]

        // The fused attitudes are those of the independent zero-order hold.
        #expect(FuseMultiRateTests.run(["fuse", folder["empty.csv"], "-o", folder["reference.csv"]]) == nil)
        try FuseMultiRateTests.expectOutput(
            folder["reference.csv"], FuseMultiRateTests.fused(FuseMultiRateTests.heldSamples(rows)), "empty cells")

        // Each command's output for each spelling and each way out; the first is the reference.
        let spellings: [(name: String, input: [String], standardInput: String?)] = [
            ("empty cells", ["empty.csv"], nil), ("nan cells", ["nan.csv"], nil), ("mixed cells", ["mixed.csv"], nil),
            ("gzip", ["mixed.csv.gz"], nil), ("standard input", ["-"], folder["nan.csv"]),
        ]
        let commands: [(name: String, arguments: [String])] = [
            ("fuse", ["fuse"]), ("device-motion", ["device-motion"]), ("events", ["events"]),
            ("calibrate gyroscope", ["calibrate", "gyroscope"]),
        ]
        var table: [String] = []
        var references: [String: Data] = [:]
        for command in commands {
            var reference: Data?
            var outputs: [(String, Data)] = []
            for spelling in spellings {
                let toFile = try Self.run(
                    command.arguments + spelling.input + ["-o", "out.csv"], in: folder, input: spelling.standardInput)
                let toPipe = try Self.run(command.arguments + spelling.input + ["-o", "-"], in: folder, input: spelling.standardInput)
                let toFileOnStandardOutput = try Self.run(
                    command.arguments + spelling.input + ["-o", "-"], in: folder, input: spelling.standardInput,
                    standardOutput: folder["stdout.csv"])
                for (way, result) in [("pipe", toPipe), ("standard output on a file", toFileOnStandardOutput)] {
                    #expect(result.status == toFile.status, "\(command.name), \(spelling.name), \(way): \(result.error)")
                }
                let file = toFile.status == 0 ? try #require(FileManager.default.contents(atPath: folder["out.csv"])) : Data()
                if toFile.status == 0 {
                    outputs += [("file", file), ("pipe", toPipe.output), ("standard output on a file", toFileOnStandardOutput.output)]
                } else {
                    // A refusal is the same refusal, with the same message after the file's name.
                    outputs.append(("message", Data(toFile.error.split(separator: ":").dropFirst().joined(separator: ":").utf8)))
                }
                for (way, data) in outputs {
                    if let reference {
                        #expect(data == reference, "\(command.name): \(spelling.name) to \(way) differs from empty cells to a file")
                    } else {
                        reference = data
                    }
                }
                outputs.removeAll()
                table.append("\(command.name) | \(spelling.name) | exit \(toFile.status) | \(file.count) bytes")
            }
            #expect((reference?.count ?? 0) > 20, "\(command.name) gave an output")
            references[command.name] = reference
        }
        // One file per sensor: the same results.
        for command in ["fuse", "device-motion", "events"] {
            let fromFiles = try Self.run([command] + sensorFiles + ["-o", "-"], in: folder)
            #expect(fromFiles.status == 0, "\(command): \(fromFiles.error)")
            #expect(fromFiles.output == references[command], "\(command) from one file per sensor")
            table.append("\(command) | one file per sensor | exit \(fromFiles.status) | \(fromFiles.output.count) bytes")
        }
        // `record --replay` writes the same recording from every spelling (it failed at the first empty cell).
        var recorded: Data?
        for spelling in spellings where spelling.standardInput == nil {
            try? FileManager.default.removeItem(atPath: folder["replayed.csv"])
            let result = try Self.run(["record", "--replay"] + spelling.input + ["-o", "replayed.csv"], in: folder)
            #expect(result.status == 0, "record --replay \(spelling.name): \(result.error)")
            let data = FileManager.default.contents(atPath: folder["replayed.csv"])
            if let recorded { #expect(data == recorded, "record --replay \(spelling.name)") } else { recorded = data }
        }
        print("one recording, one answer:\n" + table.joined(separator: "\n"))
    }

    /// A magnetometer whose cells turn to `nan` part-way (how `motion record` writes a sensor that
    /// stopped), with standard output on a pipe: one header and the rows of a file output — it was
    /// two headers and the whole result twice.
    @Test func aMagnetometerThatStopsGivesOneHeaderOnStandardOutput() throws {
        let folder = try Folder()
        defer { folder.remove() }
        var rows = FuseMultiRateTests.synthetic(count: 3000, accelerometerEvery: 1, magnetometerEvery: 1)
        for k in 1500..<rows.count { rows[k].m = nil }
        _ = try folder.write("stops.csv", Self.text(rows) { _ in "nan" })
        for command in ["fuse", "device-motion"] {
            let file = try Self.run([command, "stops.csv", "-o", "out.csv"], in: folder)
            let pipe = try Self.run([command, "stops.csv", "-o", "-"], in: folder)
            #expect(file.status == 0 && pipe.status == 0, "\(command): \(file.error) \(pipe.error)")
            let text = String(decoding: pipe.output, as: UTF8.self)
            #expect(text.split(separator: "\n").filter { $0.hasPrefix("t,") }.count == 1, "\(command): one header")
            #expect(text.split(separator: "\n").count == 3001, "\(command): a header and 3000 rows")
            #expect(pipe.output == FileManager.default.contents(atPath: folder["out.csv"]), "\(command): pipe = file")
        }
        #expect(FuseMultiRateTests.run(["fuse", folder["stops.csv"], "-o", folder["fused.csv"]]) == nil)
        try FuseMultiRateTests.expectOutput(
            folder["fused.csv"], FuseMultiRateTests.fused(FuseMultiRateTests.heldSamples(rows)), "magnetometer that stops")
    }
}
