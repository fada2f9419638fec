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

// Broken files (the issue's list) through the reader and through `motion fuse`. CSVReaderTests
// covers most of them for the reader alone (empty, header only, missing and duplicated columns, a
// truncated last line, wrong field counts, non-numeric and empty fields, an enormous data line, CRLF
// with a BOM); FuseCommandTests and FuseStageTests check one non-numeric field through `motion fuse`.
// New here: every class through `motion fuse` with an existing output file that must survive
// untouched, CRLF and BOM variants of the errors, an enormous header line, binary garbage, an error
// after the output has been flushed many times, and parseable but hostile numbers (nan, inf,
// overflowing literals, bad timestamps) fused row for row.

/// One broken file, the error the reader must throw, and whether that error names a column.
struct BadFile: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var error: CSVError
    var testDescription: String { name }

    static let header = "t,gx,gy,gz,ax,ay,az\n"
    static func rows(_ range: Range<Int>, lineEnd: String = "\n") -> String {
        range.map { "\(Double($0) * 0.01),0.1,0.2,0.3,0,0,9.81\(lineEnd)" }.joined()
    }
    static let megabyte = 1024 * 1024

    static let all: [BadFile] = [
        BadFile(name: "empty", text: "", error: .empty),
        BadFile(name: "a byte-order mark only", text: "\u{FEFF}", error: .empty),
        BadFile(name: "blank lines only", text: "\n\r\n\n", error: .empty),
        BadFile(name: "a header only", text: header, error: .noData(line: 2)),
        BadFile(name: "a header only, BOM and CRLF, blank lines", text: "\u{FEFF}t,gx,gy,gz,ax,ay,az\r\n\r\n\n", error: .noData(line: 2)),
        BadFile(name: "a missing column", text: "t,gx,gy,gz,ax,ay\n0,0,0,0,0,0\n", error: .missingColumn(line: 1, name: "az", found: ["t", "gx", "gy", "gz", "ax", "ay"])),
        BadFile(name: "a duplicated column", text: "t,gx,gy,gz,ax,ay,az,t\n" + rows(0..<2), error: .duplicateColumn(line: 1, name: "t", column: 8)),
        // Blank lines before the header: the header's line, not line 1 (said "line 1" before).
        BadFile(name: "blank lines, then a missing column", text: "\n \r\n\nt,gx,gy,gz,ax,ay\n0,0,0,0,0,0\n", error: .missingColumn(line: 4, name: "az", found: ["t", "gx", "gy", "gz", "ax", "ay"])),
        BadFile(name: "blank lines, then a header only", text: "\n\n" + header, error: .noData(line: 4)),
        BadFile(
            name: "blank lines, then an unknown unit", text: "\n\nt,gx,gy,gz,ax (G),ay (G),az (G)\n" + rows(0..<2),
            error: .unknownUnit(line: 3, quantity: .accelerometer, column: 5, name: "ax (G)", unit: "G")),
        BadFile(name: "only mx and my", text: "t,gx,gy,gz,ax,ay,az,mx,my\n", error: .missingColumn(line: 1, name: "mz", found: ["t", "gx", "gy", "gz", "ax", "ay", "az", "mx", "my"])),
        BadFile(
            name: "an unknown unit in the header", text: "t,gx,gy,gz,ax (G),ay (G),az (G)\n" + rows(0..<2),
            error: .unknownUnit(line: 1, quantity: .accelerometer, column: 5, name: "ax (G)", unit: "G")),
        BadFile(
            name: "a short line, then more", text: header + rows(0..<2) + "0.02,0.1,0.\n" + rows(3..<4),
            error: .wrongFieldCount(line: 4, expected: 7, found: 3)),
        BadFile(
            name: "a short line, CRLF, then more", text: header + rows(0..<2, lineEnd: "\r\n") + "0.02,0.1,0.\r\n" + rows(3..<4, lineEnd: "\r\n"),
            error: .wrongFieldCount(line: 4, expected: 7, found: 3)),
        BadFile(
            name: "too many fields", text: header + rows(0..<1) + "0.01,0.1,0.2,0.3,0,0,9.81,5\n",
            error: .wrongFieldCount(line: 3, expected: 7, found: 8)),
        BadFile(
            name: "a non-numeric last field, CRLF", text: header + rows(0..<1, lineEnd: "\r\n") + "0.01,0.1,0.2,0.3,0,0,9.8x\r\n",
            error: .notANumber(line: 3, column: 7, name: "az", text: "9.8x")),
        BadFile(
            name: "a non-numeric field after a BOM", text: "\u{FEFF}" + header + rows(0..<1) + "0.01,abc,0.2,0.3,0,0,9.81\n",
            error: .notANumber(line: 3, column: 2, name: "gx", text: "abc")),
        BadFile(
            name: "an empty field", text: header + "0,0.1,,0.3,0,0,9.81\n",
            error: .notANumber(line: 2, column: 3, name: "gy", text: "")),
        BadFile(
            name: "binary garbage", text: header + "0,0.1,\u{1}\u{7F}\u{FF},0.3,0,0,9.81\n",
            error: .notANumber(line: 2, column: 3, name: "gy", text: "\u{1}\u{7F}\u{FF}")),
        BadFile(
            name: "an enormous data line", text: header + rows(0..<1) + String(repeating: "7", count: 2 * megabyte) + "\n",
            error: .lineTooLong(line: 3, limit: megabyte)),
        BadFile(
            name: "an enormous header line", text: String(repeating: "t", count: 2 * megabyte) + "\n" + rows(0..<1),
            error: .lineTooLong(line: 1, limit: megabyte)),
        // About 5,000 rows: `motion fuse` has flushed its output many times before the error.
        BadFile(
            name: "an error after 5,000 rows", text: header + rows(0..<5000) + "50,0.1,0.2,0.3,0,1.5e,9.81\n",
            error: .notANumber(line: 5002, column: 6, name: "ay", text: "1.5e")),
    ]
}

@Suite("Hostile input: files")
struct HostileInputFileTests {
    /// A fresh directory per test, so that leftovers are easy to see.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mf-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func fuse(_ arguments: [String]) throws {
        var command = try MotionCommand.parseAsRoot(["fuse"] + arguments)
        try command.run()
    }

    @Test(arguments: BadFile.all)
    func readerAndFuseRejectWithLineAndColumnAndLeaveNoOutput(_ file: BadFile) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("input.csv").path
        let output = directory.appendingPathComponent("output.csv").path
        try Data(file.text.utf8).write(to: URL(fileURLWithPath: input))
        // The reader: the exact error.
        #expect(throws: file.error) {
            let reader = try IMUCSVReader(path: input)
            while try reader.next() != nil {}
        }
        // `motion fuse`, over an output file from an earlier run: the error names the line (and
        // the column, for a field or a header column), and the old output is untouched.
        let previous = Data("t,qw\nan earlier run\n".utf8)
        try previous.write(to: URL(fileURLWithPath: output))
        var message = ""
        do {
            try Self.fuse([input, "-o", output])
            Issue.record("\(file.name): fuse succeeded")
        } catch {
            message = "\(error)"
        }
        #expect(message.contains(file.error.description), "\(file.name): \(message)")
        switch file.error {
        case .notANumber(let line, let column, _, _):
            #expect(message.contains("line \(line), column \(column)"), "\(file.name): \(message)")
        case .duplicateColumn(let line, _, let column):
            #expect(message.contains("line \(line), column \(column)"), "\(file.name): \(message)")
        case .wrongFieldCount(let line, let expected, let found):
            // The column where the line and the header part: the first missing or extra field.
            #expect(message.contains("line \(line), column \(min(expected, found) + 1):"), "\(file.name): \(message)")
        case .lineTooLong(let line, _), .tooManySamples(let line, _):
            #expect(message.contains("line \(line):"), "\(file.name): \(message)")
        case .empty:
            #expect(message.contains("line 1:"), "\(file.name): \(message)")
        case .missingColumn(let line, _, _), .noData(let line):
            // The header's line; for no data, the line after it, where the first row should be.
            #expect(message.contains("line \(line):"), "\(file.name): \(message)")
        case .unknownUnit(let line, _, let column, _, _), .mixedUnits(let line, _, let column, _, _, _, _, _),
            .unitContradiction(let line, _, let column, _, _, _):
            #expect(message.contains("line \(line), column \(column) ("), "\(file.name): \(message)")
        case .implausibleUnit(let line, let column, _, _, _):
            #expect(message.contains("line \(line), column \(column) ("), "\(file.name): \(message)")
        case .unreadable:
            break
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == previous, "\(file.name): the earlier output changed")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["input.csv", "output.csv"], "\(file.name): \(left)")
    }

    /// CRLF, a byte-order mark, another column order with extra columns, blank lines and a missing
    /// final newline are read normally: the same output, byte for byte.
    @Test func harmlessVariantsFuseToTheSameOutput() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = (0..<300).map { ConstantRotation.sample($0) }
        func row(_ k: Int, _ order: [String]) -> String {
            let s = samples[k]
            let values: [String: Double] = [
                "t": Double(k) * 0.01, "gx": s.gyroscope.x, "gy": s.gyroscope.y, "gz": s.gyroscope.z,
                "ax": s.accelerometer.x, "ay": s.accelerometer.y, "az": s.accelerometer.z,
                "mx": s.magnetometer!.x, "my": s.magnetometer!.y, "mz": s.magnetometer!.z, "note": 7,
            ]
            return order.map { "\(values[$0]!)" }.joined(separator: ",")
        }
        let plain = ["t", "gx", "gy", "gz", "ax", "ay", "az", "mx", "my", "mz"]
        let shuffled = ["note", "mz", "ax", "t", "gy", "my", "gx", "az", "mx", "gz", "ay"]
        func file(_ order: [String], lineEnd: String, prefix: String = "", blankEvery: Int = 0) -> String {
            var text = prefix + order.joined(separator: ",") + lineEnd
            for k in 0..<samples.count {
                text += row(k, order) + lineEnd
                if blankEvery > 0 && k % blankEvery == 0 && k < samples.count - 1 { text += lineEnd }
            }
            return text
        }
        let variants = [
            ("plain", file(plain, lineEnd: "\n")),
            ("CRLF", file(plain, lineEnd: "\r\n")),
            ("BOM and CRLF", file(plain, lineEnd: "\r\n", prefix: "\u{FEFF}")),
            ("other order, extra column, blank lines", file(shuffled, lineEnd: "\n", blankEvery: 37)),
            ("BOM, CRLF, other order", file(shuffled, lineEnd: "\r\n", prefix: "\u{FEFF}")),
            // A recording cut inside its last line (inside a number: `-4` of `-40.14`): the cut line
            // is not read, so the output is that of the whole lines (it was fused as -4 before).
            ("a cut last line", file(plain, lineEnd: "\n") + "99.0,0.1,0.2,0.3,0,0,9.81,20,0,-4"),
        ]
        var outputs: [Data] = []
        for (i, (_, text)) in variants.enumerated() {
            let input = directory.appendingPathComponent("in\(i).csv").path
            let output = directory.appendingPathComponent("out\(i).csv").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: input))
            try Self.fuse([input, "-o", output])
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        #expect(outputs[0].count > 300 * 50)
        for (i, (name, _)) in variants.enumerated() { #expect(outputs[i] == outputs[0], "\(name)") }
    }

    /// Numbers the reader accepts but no sensor gives (nan, inf, overflowing literals, bad
    /// timestamps): one output row per input row, a unit attitude in every row, and the clock's
    /// flags where the timestamps are bad.
    @Test func hostileNumbersFuseRowForRow() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        var t = 0.0
        var expectedFlags: [Int: FusionFlags] = [:]
        let n = 400
        for k in 0..<n {
            var fields = ["0.3", "-0.2", "0.5", "0", "0", "9.81", "0", "20", "-45"]
            switch k % 9 {
            case 1: fields[k % 3] = "nan"
            case 2: fields[3 + k % 3] = "inf"
            case 3: fields[6 + k % 3] = "-inf"
            case 4: fields[k % 3] = "1e999"  // overflows to infinity
            case 5: fields[3 + k % 3] = "-1e400"
            case 6: fields[6 + k % 3] = "nan"  // one NaN magnetometer field: unusable this row
            default: break
            }
            var stamp = String(t)
            switch k {
            case 100: stamp = "nan"
            case 150: expectedFlags[k] = .timestampRepeated  // the previous row's time
            case 200:
                t -= 0.5
                stamp = String(t)
            case 300:
                t += 3 * 3600
                stamp = String(t)
            default:
                t += 0.01
                stamp = String(t)
            }
            if k == 100 { expectedFlags[k] = .timestampInvalid }
            if k == 200 { expectedFlags[k] = .timestampBackward }
            if k == 300 { expectedFlags[k] = .timestampGap }
            text += ([stamp] + fields).joined(separator: ",") + "\n"
        }
        let input = directory.appendingPathComponent("hostile.csv").path
        let output = directory.appendingPathComponent("fused.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        for filter in ["inertial", "madgwick", "mahony", "complementary"] {
            for precision in ["double", "float"] {
                try Self.fuse([input, "-o", output, "--filter", filter, "--precision", precision])
                let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").dropFirst()
                #expect(lines.count == n, "\(filter) \(precision): \(lines.count) rows")
                let tolerance = precision == "float" ? 1e-6 : 1e-12
                for (k, line) in lines.enumerated() {
                    let v = line.split(separator: ",").map { Double($0) }
                    guard v.count == 18, v.allSatisfy({ $0 != nil }) else {
                        Issue.record("\(filter) \(precision), row \(k): \(line)")
                        return
                    }
                    let q = Quaternion(w: v[1]!, x: v[2]!, y: v[3]!, z: v[4]!)
                    #expect(q.isFinite && abs(q.length - 1) <= tolerance, "\(filter) \(precision), row \(k): \(q)")
                    let flags = FusionFlags(rawValue: UInt16(v[17]!))
                    let clockFlags = flags.intersection([.timestampRepeated, .timestampBackward, .timestampGap, .timestampInvalid])
                    #expect(clockFlags == (expectedFlags[k] ?? []), "\(filter) \(precision), row \(k): flags \(flags.rawValue)")
                }
            }
        }
    }
}
