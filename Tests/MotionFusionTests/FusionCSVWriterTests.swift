import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `FusionCSVWriter`: the text is Swift's own shortest round-trip text, every number reads back to
/// the same bits, and the file appears only when finished.
@Suite("CSV writing")
struct FusionCSVWriterTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mf-writer-\(UUID().uuidString).csv").path
    }

    /// A value from random bits (every binade, subnormals, ±0, ±∞, NaN), or of the size the filters
    /// give, or one of the special values.
    static func randomValue<Scalar: BinaryFloatingPoint>(
        _ random: inout TestRandom, _: Scalar.Type, fromBits: (UInt64) -> Scalar
    ) -> Scalar {
        switch random.next() % 8 {
        case 0, 1, 2:
            // NaN payloads are printed as nan(0x…) or snan(0x…), which are not promised to read
            // back: NaNs here are the plain ones.
            let value = fromBits(random.next())
            return value.isNaN ? (value.sign == .minus ? -Scalar.nan : .nan) : value
        case 3: return Scalar(Double(random.next() >> 11) / 0x1p53 - 0.5) * 20
        case 4: return Scalar(Double(random.next() >> 11) / 0x1p53 - 0.5) * 1e-6
        case 5: return [0, -0.0, .infinity, -.infinity, .nan, -.nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude][Int(random.next() % 8)]
        default: return Scalar(Double(random.next() % 2_000_000) / 1000)  // short decimals, 1e+16-style sizes
                * (random.next() % 4 == 0 ? 1e16 : 1)
        }
    }

    static func outputs<Scalar: FusionScalar>(
        count: Int, seed: UInt64, _: Scalar.Type, fromBits: (UInt64) -> Scalar
    ) -> [FusionOutput<Scalar>] {
        var random = TestRandom(seed: seed)
        func value() -> Scalar { randomValue(&random, Scalar.self, fromBits: fromBits) }
        func vector() -> SIMD3<Scalar> { SIMD3(value(), value(), value()) }
        return (0..<count).map { _ in
            FusionOutput(
                timestamp: randomValue(&random, Double.self, fromBits: { Double(bitPattern: $0) }),
                quaternion: Quaternion(w: value(), x: value(), y: value(), z: value()), gyroscopeBias: vector(),
                gravity: vector(), linearAcceleration: vector(), earthLinearAcceleration: vector(),
                flags: FusionFlags(rawValue: UInt16(truncatingIfNeeded: random.next())))
        }
    }

    static func fields<Scalar: FusionScalar>(_ o: FusionOutput<Scalar>) -> [Scalar] {
        let q = o.quaternion
        return [q.w, q.x, q.y, q.z] + [o.gyroscopeBias, o.gravity, o.linearAcceleration, o.earthLinearAcceleration]
            .flatMap { [$0.x, $0.y, $0.z] }
    }

    /// Swift's text of a number, formatted as the writer used to format it (string interpolation of
    /// a generic scalar: `TextOutputStreamable`'s text, so a negative NaN is `-nan`).
    /// Swift's text, except that every NaN is `nan` (Swift writes `-nan` and `snan`, which readers
    /// cannot read back).
    static func swiftText<Scalar: FusionScalar>(_ value: Scalar) -> String { value.isNaN ? "nan" : "\(value)" }

    static func same<Scalar: BinaryFloatingPoint>(_ a: Scalar?, _ b: Scalar) -> Bool {
        guard let a else { return false }
        return a.isNaN ? b.isNaN : a == b && a.sign == b.sign
    }

    /// Writes the rows and checks the file line by line, with the standard library as the reference.
    static func checkRoundTrip<Scalar: FusionScalar & LosslessStringConvertible>(
        _ rows: [FusionOutput<Scalar>]
    ) throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try FusionCSVWriter(path: path)
        for row in rows { writer.write(row) }
        try writer.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.first.map(String.init) == FusionCSVWriter.header)
        #expect(lines.count == rows.count + 1)
        for (line, row) in zip(lines.dropFirst(), rows) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            try #require(fields.count == 18, "\(line)")
            // The documented format: exactly Swift's text for each number…
            let expected = [Self.swiftText(row.timestamp)] + Self.fields(row).map(Self.swiftText) + ["\(row.flags.rawValue)"]
            #expect(fields.map(String.init) == expected)
            // …which reads back to the same value (NaN stays NaN).
            #expect(Self.same(Double(String(fields[0])), row.timestamp), "\(fields[0])")
            for (field, value) in zip(fields[1...16], Self.fields(row)) {
                #expect(Self.same(Scalar(String(field)), value), "\(field) vs \(value)")
            }
            #expect(UInt16(fields[17]) == row.flags.rawValue)
        }
    }

    @Test func doubleRowsReadBackBitExactly() throws {
        // 20,000 rows: several times the 256 KiB buffer, so rows cross every flush.
        try Self.checkRoundTrip(Self.outputs(count: 20_000, seed: 11, Double.self, fromBits: { Double(bitPattern: $0) }))
    }

    /// A signaling NaN (`snan` in Swift's text) is written `nan`, so the file reads back (found by
    /// the fuzz target FuzzFiles: the reader refused `snan`).
    @Test func signalingNaNIsWrittenAsNaN() throws {
        let snan = Double.signalingNaN
        #expect("\(snan)" == "snan" && "\(-Double.nan)" == "-nan")  // what Swift would write
        let row = FusionOutput<Double>(
            timestamp: snan, quaternion: Quaternion(w: -.nan, x: snan, y: 0, z: 0), gyroscopeBias: .zero,
            gravity: .zero, linearAcceleration: .zero, earthLinearAcceleration: .zero, flags: [])
        try Self.checkRoundTrip([row])
    }

    @Test func floatRowsReadBackBitExactly() throws {
        try Self.checkRoundTrip(
            Self.outputs(count: 5_000, seed: 12, Float.self, fromBits: { Float(bitPattern: UInt32(truncatingIfNeeded: $0)) }))
    }

    @Test func writtenFileReadsBackThroughTheCSVReader() throws {
        let rows = Self.outputs(count: 3_000, seed: 13, Double.self, fromBits: { Double(bitPattern: $0) })
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try FusionCSVWriter(path: path)
        for row in rows { writer.write(row) }
        try writer.finish()
        let reader = try CSVReader(path: path)
        let columns = Array(0..<18)
        var values: [Double] = []
        var k = 0
        while try reader.nextRow(columns: columns, into: &values) {
            let row = rows[k]
            #expect(Self.same(values[0], row.timestamp))
            for (value, expected) in zip(values[1...16], Self.fields(row)) { #expect(Self.same(value, expected)) }
            #expect(values[17] == Double(row.flags.rawValue))
            k += 1
        }
        #expect(k == rows.count)
    }

    @Test func fileAppearsOnlyWhenFinished() throws {
        let path = Self.temporaryPath()
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        func leftovers() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(name) }
        }
        let row = Self.outputs(count: 1, seed: 14, Double.self, fromBits: { Double(bitPattern: $0) })[0]
        do {
            let writer = try FusionCSVWriter(path: path)
            for _ in 0..<5_000 { writer.write(row) }  // more than one buffer: part of it is on disk
            #expect(!FileManager.default.fileExists(atPath: path))
            writer.abandon()
        }
        #expect(try leftovers().isEmpty)
        do {
            let writer = try FusionCSVWriter(path: path)
            for _ in 0..<5_000 { writer.write(row) }
            try writer.finish()
        }
        #expect(try leftovers() == [name])
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 5_001)
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: OutputFileError.cannotCreate(path: "/nonexistent-directory/out.csv", reason: "No such file or directory")) {
            try FusionCSVWriter(path: "/nonexistent-directory/out.csv")
        }
    }
}
