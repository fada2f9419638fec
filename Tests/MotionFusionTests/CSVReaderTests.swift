import Foundation
import Testing

@testable import MotionFusion

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
        let text = "\u{FEFF}ax,ay,az,extra,t,gz,gy,gx\r\n0,0,9.8,hello,0.5,3,2,1\r\n0,0,9.8,x,0.6,3,2,1"
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
            ("t,gx,gy,gz,ax,ay\n0,0,0,0,0,0\n", .missingColumn(name: "az")),
            ("t,gx,gy,gz,ax,ay,az,gx\n", .duplicateColumn(name: "gx", column: 8)),
            (header, .noData),
            (header + "0,0,0,0,0,0,1\n0,0,0,0,0,1\n", .wrongFieldCount(line: 3, expected: 7, found: 6)),
            (header + "0,0,0,0,0,0,1\n0,0,0,abc,0,0,1\n", .notANumber(line: 3, column: 4, name: "gz", text: "abc")),
            (header + "0,0,0,0,,0,1\n", .notANumber(line: 2, column: 5, name: "ax", text: "")),
            (header + "0,0,0,0,1.5.5,0,1\n", .notANumber(line: 2, column: 5, name: "ax", text: "1.5.5")),
            ("t,gx,gy,gz,ax,ay,az,mx,my\n", .missingColumn(name: "mz")),
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

    @Test func truncatedLastLineIsReportedNotGuessed() {
        // A file cut in the middle of a line: the short line is an error, not a silent row.
        #expect(throws: CSVError.wrongFieldCount(line: 3, expected: 7, found: 3)) {
            try Self.readAll("t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,1\n1,0,0")
        }
    }

    @Test func largeFileStreamsAcrossChunks() throws {
        var text = "t,gx,gy,gz,ax,ay,az\n"
        for k in 0..<60_000 { text += "\(Double(k) * 0.01),0.1,0.2,0.3,0,0,9.81\n" }
        let records = try Self.readAll(text)
        #expect(records.count == 60_000)
        #expect(records.last?.timestamp == 599.99 && records.last?.line == 60_001)
    }
}
