import Foundation
import Testing

@testable import MotionFusionIO
import MotionFusionSimulation

#if canImport(Glibc)
    import Glibc
#endif

/// How `CSVReader` gets its bytes (`ByteInput`: read(2), and zlib's inflate for gzip): several gzip
/// members read as their concatenation, across the 64 KiB input buffer; bytes after the last member
/// ignored; the shortest inputs; and a pipe that delivers a few bytes at a time, plain or gzip,
/// read as the file is. Compressed by the system's gzip, compared with the text read as it is.
@Suite("Reading bytes: gzip members, short inputs, slow pipes")
struct ByteInputTests {
    /// Rows of digits that compress poorly (about 2:1), so that one member is larger than the
    /// reader's 64 KiB of compressed input.
    static func rows(_ range: Range<Int>, seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        var text = ""
        for k in range {
            let values = (0..<6).map { _ in Double(Int64(truncatingIfNeeded: random.next() >> 20)) / 1e9 }
            text += "\(Double(k) / 100)," + values.map { "\($0)" }.joined(separator: ",") + "\n"
        }
        return text
    }

    static let header = "t,gx,gy,gz,ax,ay,az\n"

    /// Every record, the units taken as they are (the rows are random numbers).
    static func records(_ path: String) throws -> [IMURecord] {
        let reader = try IMUCSVReader(path: path, checksUnits: false)
        var records: [IMURecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    @Test func concatenatedMembersReadAsOneFileAndTrailingBytesAreIgnored() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let first = Self.header + Self.rows(0..<8_000, seed: 1)
        let second = Self.rows(8_000..<9_000, seed: 2)
        let plain = try folder.write("plain.csv", first + second)
        let one = try Data(contentsOf: URL(fileURLWithPath: OtherSourcesFileTests.gzip(try folder.write("a.csv", first))))
        let two = try Data(contentsOf: URL(fileURLWithPath: OtherSourcesFileTests.gzip(try folder.write("b.csv", second))))
        #expect(one.count > 64 * 1024, "the first member crosses the input buffer: \(one.count) bytes")
        let expected = try Self.records(plain)
        #expect(expected.count == 9_000)
        let joined = folder["joined.csv.gz"]
        try (one + two).write(to: URL(fileURLWithPath: joined))
        #expect(try Self.records(joined) == expected)
        // Bytes after the last member that do not start another: ignored, as gzip does; progress
        // still ends at the file's size.
        let trailing = folder["trailing.csv.gz"]
        try (one + two + Data("not gzip\n".utf8)).write(to: URL(fileURLWithPath: trailing))
        #expect(try Self.records(trailing) == expected)
        let reader = try CSVReader(path: trailing)
        while try reader.skipRow() {}
        #expect(reader.bytesRead == reader.fileSize)
    }

    @Test func theShortestInputs() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let cases: [(String, Data, String)] = [
            ("empty", Data(), "empty"),
            ("one byte", Data([0x1F]), "no column named 't'"),
            ("gzip's magic alone", Data([0x1F, 0x8B]), "cut short"),
            ("a header alone, no newline", Data("t,gx,gy,gz,ax,ay,az".utf8), "no data"),
        ]
        for (name, bytes, words) in cases {
            let path = folder["short.csv"]
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(Comment(rawValue: name)) {
                _ = try Self.records(path)
            } throws: { error in
                "\(error)".contains(words)
            }
        }
    }

    /// A pipe written a few bytes at a time (as a slow producer or a terminal gives them): the
    /// records are those of the file, plain and gzip.
    @Test(arguments: [false, true])
    func aPipeGivingFewBytesAtATimeReadsAsTheFile(compressed: Bool) throws {
        let folder = try Folder()
        defer { folder.remove() }
        let plain = try folder.write("plain.csv", Self.header + Self.rows(0..<3_000, seed: 3))
        let expected = try Self.records(plain)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: compressed ? OtherSourcesFileTests.gzip(plain) : plain)))
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        defer { close(readEnd) }
        let writer = Thread {
            var offset = 0
            var step = 0
            while offset < bytes.count {
                let n = min(1 + step % 13, bytes.count - offset)
                let written = bytes[offset..<(offset + n)].withUnsafeBytes { write(writeEnd, $0.baseAddress, n) }
                if written <= 0 { break }
                offset += written
                step += 1
                if step % 64 == 0 { usleep(200) }  // let the reader find the pipe empty now and then
            }
            close(writeEnd)
        }
        writer.start()
        let records = try Self.records("/dev/fd/\(readEnd)")
        #expect(records == expected)
    }
}
