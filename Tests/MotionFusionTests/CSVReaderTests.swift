import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Malformed and unusual files: every error names line and column.
@Suite("CSV reading")
struct CSVReaderTests {
    static func file(_ text: String, name: String = UUID().uuidString) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mf-\(name).csv").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    static func readAll(_ text: String) throws(CSVError) -> [IMURecord] {
        let reader = try IMUCSVReader(path: file(text))
        var records: [IMURecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    @Test func columnsInAnyOrderOtherColumnsIgnoredCRLFAndBOM() throws {
        let text = "\u{FEFF}ax,ay,az,extra,t,gz,gy,gx\r\n0,0,9.8,hello,0.5,3,2,1\r\n0,0,9.8,x,0.6,3,2,1\r\n"
        let records = try Self.readAll(text)
        #expect(records.count == 2)
        #expect(records[0].timestamp == 0.5 && records[0].gyroscope == SIMD3(1, 2, 3))
        #expect(records[1].magnetometer == nil && records[1].line == 3)
    }

    @Test func unitsAreConverted() throws {
        let reader = try IMUCSVReader(
            path: Self.file("t,gx,gy,gz,ax,ay,az,mx,my,mz\n0,180,0,0,0,0,1,0.2,0,0.4\n"),
            gyroscopeUnit: .degreesPerSecond, accelerometerUnit: .standardGravity, magnetometerUnit: .gauss)
        let record = try #require(try reader.next())
        #expect(abs(record.gyroscope.x - .pi) < 1e-15)
        #expect(record.accelerometer.z == 9.80665)
        #expect(record.magnetometer == SIMD3(20, 0, 40))
    }

    @Test func emptyMagnetometerFieldsMeanNoMagnetometerThatRow() throws {
        let records = try Self.readAll("t,gx,gy,gz,ax,ay,az,mx,my,mz\n0,0,0,0,0,0,1,,,\n1,0,0,0,0,0,1,1,2,3\n")
        #expect(records[0].magnetometer == nil && records[1].magnetometer == SIMD3(1, 2, 3))
    }

    @Test func errorsNameLineAndColumn() {
        let header = "t,gx,gy,gz,ax,ay,az\n"
        let cases: [(String, CSVError)] = [
            ("", .empty),
            ("t,gx,gy,gz,ax,ay\n0,0,0,0,0,0\n", .missingColumn(line: 1, name: "az", found: ["t", "gx", "gy", "gz", "ax", "ay"])),
            ("t,gx,gy,gz,ax,ay,az,gx\n", .duplicateColumn(line: 1, name: "gx", column: 8)),
            (header, .noData(line: 2)),
            (header + "0,0,0,0,0,0,1\n0,0,0,0,0,1\n", .wrongFieldCount(line: 3, expected: 7, found: 6)),
            (header + "0,0,0,0,0,0,1\n0,0,0,abc,0,0,1\n", .notANumber(line: 3, column: 4, name: "gz", text: "abc")),
            (header + "0,0,0,0,,0,1\n", .notANumber(line: 2, column: 5, name: "ax", text: "")),
            (header + "0,0,0,0,1.5.5,0,1\n", .notANumber(line: 2, column: 5, name: "ax", text: "1.5.5")),
            ("t,gx,gy,gz,ax,ay,az,mx,my\n", .missingColumn(line: 1, name: "mz", found: ["t", "gx", "gy", "gz", "ax", "ay", "az", "mx", "my"])),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text.debugDescription)") { try Self.readAll(text) }
        }
        #expect(throws: CSVError.lineTooLong(line: 2, limit: 1024 * 1024)) {
            try Self.readAll(header + String(repeating: "1", count: 2 * 1024 * 1024) + "\n")
        }
        #expect(throws: CSVError.self) { try IMUCSVReader(path: "/nonexistent/file.csv") }
        #expect(
            CSVError.notANumber(line: 3, column: 4, name: "gz", text: "abc").description
                == "line 3, column 4 (gz): 'abc' is not a number")
    }

    /// A file cut in the middle of a line (a crash or a full disk during a write): the cut line is
    /// never read, not even when what is left of it still parses (`-40.14` cut to `-4`, which was
    /// read as -4 before, or a short line, which rejected the whole file), and it is reported.
    @Test func truncatedLastLineIsReportedNotGuessed() throws {
        let whole = "t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,1\n"
        for (cut, bytes) in [("1,0,0", 5), ("1,0,0,0,0,0,-4", 14), ("1,0,0,0,0,0,-40.1\r", 18)] {
            let reader = try IMUCSVReader(path: Self.file(whole + cut))
            var records: [IMURecord] = []
            while let record = try reader.next() { records.append(record) }
            #expect(records.count == 1 && records[0].line == 2, "\(cut)")
            #expect(reader.csv.partialLastLine == CSVPartialLine(line: 3, byteCount: bytes), "\(cut)")
        }
        // A whole file reports no cut, and trailing spaces without a newline are a blank line.
        for text in [whole, whole + "  ", whole + "\r"] {
            let reader = try IMUCSVReader(path: Self.file(text))
            while try reader.next() != nil {}
            #expect(reader.csv.partialLastLine == nil)
        }
        // A header alone, without its newline, is still a header (and the file has no data).
        #expect(throws: CSVError.noData(line: 2)) { try Self.readAll("t,gx,gy,gz,ax,ay,az") }
        #expect(CSVPartialLine(line: 5302, byteCount: 37).description == "line 5302 has no newline (37 bytes, cut short?): it was not read")
    }

    @Test func largeFileStreamsAcrossChunks() throws {
        var text = "t,gx,gy,gz,ax,ay,az\n"
        for k in 0..<60_000 { text += "\(Double(k) * 0.01),0.1,0.2,0.3,0,0,9.81\n" }
        let records = try Self.readAll(text)
        #expect(records.count == 60_000)
        #expect(records.last?.timestamp == 599.99 && records.last?.line == 60_001)
    }
}

/// Numbers read exactly as `strtod` reads them, across chunk boundaries, and errors deep in a file.
@Suite("CSV reading: numbers and chunks")
struct CSVReaderNumberTests {
    static func strtodValue(_ text: String) -> Double? { DecimalParsingTests.strtodValue(text) }

    @Test func everyFieldReadsAsStrtodReadsIt() throws {
        var random = TestRandom(seed: 5)
        var texts = [
            "0", "-0", "+0", ".5", "5.", "-.5", "+5.", "1e5", "1E-5", "  2.5  ", " -3", "7 ", "inf", "-inf", "+inf",
            "infinity", "INF", "nan", "-nan", "NaN", "1e400", "-1e400", "1e-400", "0x1p3", "0X1.8p1", "4.9e-324",
            "2.2250738585072011e-308", "2.2250738585072014e-308", "1.7976931348623157e308", "12345678901234567890123",
            "1.00000000000000011102230246251565404236316680908203125", "9007199254740993", "0.1",
        ]
        for _ in 0..<20_000 {
            let x = Double(bitPattern: random.next())
            guard x.isFinite else { continue }
            texts.append(["\(x)", String(format: "%.17g", x), String(format: "%.20e", x)][Int(random.next() % 3)])
            texts.append(String(format: "%.17g", (Double(random.next() >> 11) / 0x1p53 - 0.5) * 100))
        }
        var file = "a,value,b\n"
        for (k, text) in texts.enumerated() { file += "\(k),\(text),x\(k % 2 == 0 ? "\r" : "")\n" }
        let reader = try CSVReader(path: CSVReaderTests.file(file))
        var values: [Double] = []
        var k = 0
        while try reader.nextRow(columns: [1, 0], into: &values) {
            let reference = try #require(Self.strtodValue(texts[k].trimmingCharacters(in: .init(charactersIn: " "))))
            #expect(
                reference.isNaN ? values[0].isNaN : values[0].bitPattern == reference.bitPattern,
                "\(texts[k].debugDescription): \(values[0]) vs strtod \(reference)")
            #expect(values[1] == Double(k))
            #expect(reader.lineNumber == k + 2)
            k += 1
        }
        #expect(k == texts.count)
    }

    @Test func linesOfEveryLengthAcrossChunkBoundaries() throws {
        // Random padding puts line ends (LF and CRLF) at every offset of the 256 KiB chunks; a few
        // lines are longer than a chunk; the last line has no newline.
        var random = TestRandom(seed: 8)
        var file = "t,pad,v\r\n"
        var expected: [(Double, Double)] = []
        for k in 0..<40_000 {
            let long = k % 10_000 == 5_000
            let pad = String(repeating: "p", count: long ? 300_000 + Int(random.next() % 1000) : Int(random.next() % 40))
            let v = (Double(random.next() >> 11) / 0x1p53 - 0.5) * 1e3
            expected.append((Double(k) * 0.01, v))
            file += "\(Double(k) * 0.01),\(pad),\(v)" + (random.next() % 2 == 0 ? "\r\n" : "\n")
        }
        let reader = try CSVReader(path: CSVReaderTests.file(file))
        var values: [Double] = []
        var k = 0
        while try reader.nextRow(columns: [0, 2], into: &values) {
            #expect(values[0] == expected[k].0 && values[1] == expected[k].1, "row \(k)")
            k += 1
        }
        #expect(k == expected.count)
        #expect(reader.bytesRead == file.utf8.count)
    }

    @Test func errorsDeepInTheFileNameTheirLineAndColumn() {
        var text = "t,gx,gy,gz,ax,ay,az\n"
        for k in 0..<50_000 { text += "\(Double(k) * 0.01),0.1,0.2,0.3,0,0,9.81\n" }
        #expect(throws: CSVError.notANumber(line: 50_002, column: 6, name: "ay", text: "1.5e")) {
            try CSVReaderTests.readAll(text + "500,0.1,0.2,0.3,0,1.5e,9.81\n")
        }
        #expect(throws: CSVError.notANumber(line: 50_002, column: 2, name: "gx", text: String(repeating: "9", count: 40))) {
            try CSVReaderTests.readAll(text + "500,\(String(repeating: "9", count: 60))x,0.2,0.3,0,0,9.81\n")
        }
        #expect(throws: CSVError.wrongFieldCount(line: 50_003, expected: 7, found: 9)) {
            try CSVReaderTests.readAll(text + "\n500,0.1,0.2,0.3,0,0,9.81,1,2\n")
        }
        #expect(throws: CSVError.notANumber(line: 50_002, column: 1, name: "t", text: "")) {
            try CSVReaderTests.readAll(text + "  ,0.1,0.2,0.3,0,0,9.81\n")
        }
    }
}
