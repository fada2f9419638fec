import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionIO

// Real recordings written in other units than they are read in: BROAD's trial 01 (TU Berlin), the
// example of x-io's Fusion, and an Inria phone trial (Nexus 5, swinging). Each must be refused by
// the reader, naming the column and the unit the values look like, and by `motion fuse` (no exit
// 0); the same recordings in their own units, and every BROAD, phone and WeAllWalk recording at
// hand, are read without a word.
@Suite(
    "Units checked against the data",
    .enabled(if: BroadData.required && TyrexData.required, "reference data not found at ../shared/reference-data"))
struct RecordingUnitCheckTests {
    /// A recording's rows, `t,gx,gy,gz,ax,ay,az,mx,my,mz`, in s, rad/s, m/s², µT.
    static func broad01() throws -> [[Double]] {
        let r = try BroadData.recording("01_undisturbed_slow_rotation_A")
        return r.timestamps.indices.map { i in
            let g = r.gyroscope[i], a = r.accelerometer[i], m = r.magnetometer![i]
            return [r.timestamps[i], g.x, g.y, g.z, a.x, a.y, a.z, m.x, m.y, m.z]
        }
    }

    static func xio() throws -> [[Double]] {
        // sensor_data.csv is in s, deg/s, g, µT (its header says so); these rows are in the library's units.
        let text = try String(contentsOfFile: PeerData.path("fusion/sensor_data.csv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: ",").map { Double($0)! }
            return [f[0]] + f[1...3].map { $0 * .pi / 180 } + f[4...6].map { $0 * 9.80665 } + Array(f[7...9])
        }
    }

    static func phone() throws -> [[Double]] {
        try TyrexData.rows("Guillaume_Nexus5_NoDist_Swinging.imu.csv.gz")
    }

    /// The rows with columns `columns` multiplied by `factor`, written under a plain header.
    static func write(_ rows: [[Double]], scaling columns: ClosedRange<Int>? = nil, by factor: Double = 1) throws
        -> String
    {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mf-units-\(UUID()).csv").path
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for row in rows {
            var r = row
            if let columns { for c in columns { r[c] *= factor } }
            text += r.map { "\($0)" }.joined(separator: ",") + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var recording: String
        var columns: ClosedRange<Int>?
        var factor: Double
        var options: [String]
        var quantity: MeasuredQuantity
        var looksLike: String
        var testDescription: String { name }
    }

    static let degrees = 180 / Double.pi
    static let cases: [Case] = [
        Case(name: "BROAD, gyroscope in deg/s", recording: "broad", columns: 1...3, factor: degrees, options: [],
             quantity: .gyroscope, looksLike: "deg/s"),
        Case(name: "BROAD, rad/s read as deg/s", recording: "broad", columns: nil, factor: 1,
             options: ["--gyro-unit", "deg/s"], quantity: .gyroscope, looksLike: "rad/s"),
        Case(name: "BROAD, accelerometer in g", recording: "broad", columns: 4...6, factor: 1 / 9.80665, options: [],
             quantity: .accelerometer, looksLike: "g"),
        Case(name: "BROAD, m/s² read as g", recording: "broad", columns: nil, factor: 1,
             options: ["--accel-unit", "g"], quantity: .accelerometer, looksLike: "m/s2"),
        Case(name: "BROAD, timestamps in ns", recording: "broad", columns: 0...0, factor: 1e9, options: [],
             quantity: .time, looksLike: "ns"),
        Case(name: "BROAD, magnetometer in nT", recording: "broad", columns: 7...9, factor: 1000, options: [],
             quantity: .magnetometer, looksLike: "nT"),
        Case(name: "BROAD, magnetometer in gauss", recording: "broad", columns: 7...9, factor: 0.01, options: [],
             quantity: .magnetometer, looksLike: "gauss"),
        Case(name: "BROAD, µT read as gauss", recording: "broad", columns: nil, factor: 1,
             options: ["--mag-unit", "gauss"], quantity: .magnetometer, looksLike: "uT"),
        Case(name: "x-io, gyroscope in deg/s", recording: "xio", columns: 1...3, factor: degrees, options: [],
             quantity: .gyroscope, looksLike: "deg/s"),
        Case(name: "x-io, timestamps in ms", recording: "xio", columns: 0...0, factor: 1000, options: [],
             quantity: .time, looksLike: "ms"),
        Case(name: "phone, gyroscope in deg/s", recording: "phone", columns: 1...3, factor: degrees, options: [],
             quantity: .gyroscope, looksLike: "deg/s"),
        Case(name: "phone, accelerometer in g", recording: "phone", columns: 4...6, factor: 1 / 9.80665, options: [],
             quantity: .accelerometer, looksLike: "g"),
        Case(name: "phone, timestamps in ms", recording: "phone", columns: 0...0, factor: 1000, options: [],
             quantity: .time, looksLike: "ms"),
    ]

    static func rows(_ recording: String) throws -> [[Double]] {
        switch recording {
        case "broad": try broad01()
        case "xio": try xio()
        default: try phone()
        }
    }

    @Test(arguments: cases)
    func aRecordingInOtherUnitsIsRefusedNamingTheUnitItLooksLike(_ c: Case) throws {
        let path = try Self.write(Self.rows(c.recording), scaling: c.columns, by: c.factor)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = c.options
        var units: (GyroscopeUnit?, AccelerometerUnit?, MagnetometerUnit?) = (nil, nil, nil)
        while options.count >= 2 {
            switch options[0] {
            case "--gyro-unit": units.0 = GyroscopeUnit(rawValue: options[1])
            case "--accel-unit": units.1 = AccelerometerUnit(rawValue: options[1])
            default: units.2 = MagnetometerUnit(rawValue: options[1])
            }
            options.removeFirst(2)
        }
        var refusal: CSVError?
        do {
            let reader = try IMUCSVReader(
                path: path, gyroscopeUnit: units.0, accelerometerUnit: units.1, magnetometerUnit: units.2)
            while try reader.next() != nil {}
        } catch {
            refusal = error
        }
        guard case .implausibleUnit(_, let column, let name, let mismatch, let source) = refusal else {
            Issue.record("\(c.name): not refused (\(String(describing: refusal)))")
            return
        }
        #expect(mismatch.quantity == c.quantity, "\(c.name): \(mismatch)")
        #expect(mismatch.looksLike == c.looksLike, "\(c.name): \(mismatch)")
        let first = ["t": 1, "gx": 2, "ax": 5, "mx": 8][name]
        #expect(first == column, "\(c.name): column \(column) \(name)")
        #expect(source == (c.options.isEmpty ? .library : .given))
        // `motion fuse` fails with the same words and writes no output.
        let output = path + ".out.csv"
        var message = ""
        do {
            var command = try MotionCommand.parseAsRoot(["fuse", path, "-o", output] + c.options)
            try command.run()
        } catch {
            message = "\(error)"
        }
        #expect(message.contains("look like \(c.looksLike)"), "\(c.name): \(message)")
        #expect(!FileManager.default.fileExists(atPath: output))
        // --trust-units reads the whole file as it is (read and checked to its end: the fusion
        // itself is not what is tested here, so the run stops after reading).
        var command = try MotionCommand.parseAsRoot(
            ["fuse", path, "-o", output, "--trust-units", "--stop-after", "parse"] + c.options)
        try command.run()
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func recordingsInTheirOwnUnitsAreRead() throws {
        for rows in [try Self.broad01(), try Self.xio(), try Self.phone()] {
            let path = try Self.write(rows)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let reader = try IMUCSVReader(path: path)
            var count = 0
            while try reader.next() != nil { count += 1 }
            #expect(count == rows.count)
        }
        for trial in BroadData.trials {
            _ = try BroadData.read(trial)  // IMURecording.read checks as well
        }
        // x-io's file with its own header (deg/s, g) read as written.
        let reader = try IMUCSVReader(path: PeerData.path("fusion/sensor_data.csv"))
        while try reader.next() != nil {}
    }

    @Test func oneFilePerSensorIsCheckedToo() throws {
        // BROAD 01 as a gyroscope and an accelerometer file, the accelerometer in g under `t,x,y,z`.
        let rows = try Self.broad01()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mf-units-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ name: String, _ columns: ClosedRange<Int>, scale: Double) throws -> String {
            let path = folder.appendingPathComponent(name).path
            let text = rows.map { r in ([r[0]] + columns.map { r[$0] * scale }).map { "\($0)" }.joined(separator: ",") }
            try ("t,x,y,z\n" + text.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let gyroscope = try file("g.csv", 1...3, scale: 1)
        let accelerometer = try file("a.csv", 4...6, scale: 1 / 9.80665)
        let output = folder.appendingPathComponent("out.csv").path
        var message = ""
        do {
            var command = try MotionCommand.parseAsRoot(
                ["fuse", "--gyroscope", gyroscope, "--accelerometer", accelerometer, "-o", output])
            try command.run()
        } catch {
            message = "\(error)"
        }
        #expect(message.contains("a.csv: line "), "\(message)")
        #expect(message.contains("column 2 (x)"), "\(message)")
        #expect(message.contains("the values look like g"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: output))
        var command = try MotionCommand.parseAsRoot(
            ["fuse", "--gyroscope", gyroscope, "--accelerometer", accelerometer, "-o", output, "--accel-unit", "g"])
        try command.run()
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test func theWholeFileReaderRefusesToo() throws {
        let path = try Self.write(Self.broad01(), scaling: 4...6, by: 1 / 9.80665)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try IMURecording.read(path: path)
        } throws: { error in
            guard let error = error as? RecordingFileError, error.path == path,
                case .implausibleUnit(let line, 5, "ax", let mismatch, .library) = error.error
            else { return false }
            return line == RecordingUnitCheck.sampleCount + 1 && mismatch.looksLike == "g"
        }
        #expect(try IMURecording.read(path: path, checksUnits: false).timestamps.count > 1000)
    }

    /// A recorder's file read back (`MotionRecorder.read`) is checked as every reader checks: BROAD
    /// trial 01 recorded from a source that gave its accelerometer in g as if in m/s² is refused at
    /// the row that completes the evidence, naming `ax` and g; unchecked, every row comes back. A
    /// sensor with only some of its cells empty is a malformed line, not an absent sensor.
    @Test func aRecordersFileReadBackIsCheckedToo() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder["rec.csv"]
        let recorder = try MotionRecorder(path: path, syncInterval: 0)
        let rows = try Self.broad01().prefix(3000)
        for r in rows {
            try recorder.append(
                SensorSample(
                    timestamp: r[0], gyroscope: SIMD3(r[1], r[2], r[3]),
                    accelerometer: SIMD3(r[4], r[5], r[6]) / 9.80665, magnetometer: SIMD3(r[7], r[8], r[9])))
        }
        try recorder.sync()
        #expect {
            _ = try MotionRecorder.read(path: path)
        } throws: { error in
            guard case .implausibleUnit(let line, 5, "ax", let mismatch, .library) = error as? CSVError else { return false }
            return line == RecordingUnitCheck.sampleCount + 1 && mismatch.looksLike == "g"
        }
        let back = try MotionRecorder.read(path: path, checksUnits: false)
        #expect(back.count == rows.count)
        #expect(back.last?.timestamp == rows.last?[0])

        let cut = try folder.write("cut.csv", MotionRecorder.header + "0,0.1,0.2,0.3,0,,9.81,nan,nan,nan\n")
        #expect {
            _ = try MotionRecorder.read(path: cut)
        } throws: { error in
            guard case .notANumber(2, 6, "ay", "") = error as? CSVError else { return false }
            return true
        }
    }

    /// `motion calibrate magnetometer` checks the field's unit too: BROAD trial 01's magnetometer
    /// written in nT under a plain header is refused at the row that completes the evidence, naming
    /// `mx` and nT (before, it fitted a 41,000 µT "field" and wrote it); `--mag-unit nT` reads it
    /// and `--trust-units` fits it as given.
    @Test func calibrateMagnetometerChecksTheFieldsUnit() throws {
        let path = try Self.write(Self.broad01(), scaling: 7...9, by: 1000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var refused: String?
        do {
            _ = try CalibrateMagnetometer.readMagnetometer(path, unit: nil)
        } catch {
            refused = "\(error)"
        }
        let message = try #require(refused)
        #expect(message.contains("line \(RecordingUnitCheck.sampleCount + 1), column 8 (mx)"), "\(message)")
        #expect(message.contains("the values look like nT"), "\(message)")
        let inNanotesla = try CalibrateMagnetometer.readMagnetometer(path, unit: .nanotesla)
        let median = inNanotesla.map { ($0 * $0).sum().squareRoot() }.sorted()[inNanotesla.count / 2]
        #expect(median > 20 && median < 70, "\(median) µT")
        let trusted = try CalibrateMagnetometer.readMagnetometer(path, unit: nil, checksUnit: false)
        #expect(trusted.count == inNanotesla.count)
        // Through the command: refused without the flag, which the command passes on.
        #expect(throws: (any Error).self) { try CalibrateMagnetometer.parse([path]).run() }
        #expect(try CalibrateMagnetometer.parse([path, "--trust-units"]).trustUnits)
    }

    @Test func hugeAndInfiniteMagnitudesAreReportedNotTrapped() {
        // Finite readings whose squared norm overflows: the median magnitude is infinite.
        var check = RecordingUnitCheck(
            time: .seconds, gyroscope: .radiansPerSecond, accelerometer: .metersPerSecondSquared,
            magnetometer: .microtesla)
        for k in 0..<RecordingUnitCheck.minimumCount {
            let t = Double(k) * 0.01
            check.add(timestamp: t)
            check.add(accelerometer: SIMD3(1e200, 0, 1e200), at: t)
            check.add(gyroscope: SIMD3(0, 0, 1e300), at: t)
            check.add(magnetometer: SIMD3(3e30, 0, 0))
        }
        let first = check.mismatch(final: true)
        #expect(first?.quantity == .accelerometer && first?.looksLike == nil, "\(String(describing: first))")
        #expect(first?.description.contains("inf m/s²") == true, "\(String(describing: first))")
        let second = check.mismatch(final: true)
        #expect(second?.quantity == .magnetometer && second?.description.contains("3e+30 µT") == true)
        #expect(RecordingUnitCheck.format(-.infinity) == "-inf" && RecordingUnitCheck.format(1234.4) == "1234")
    }

    @Test func theTiltTestTellsTheGyroscopeScaleFromStillPairs() {
        // A device tipped by 20° about x in 0.5 s between stills, ten times, read in rad/s: the test
        // finds the rotation as read; the same rates 180/π times larger are deg/s.
        func run(scale: Double, bias: Double = 0) -> RecordingUnitCheck.Mismatch? {
            var check = RecordingUnitCheck(
                time: .seconds, gyroscope: .radiansPerSecond, accelerometer: .metersPerSecondSquared, magnetometer: nil)
            var t = 0.0, angle = 0.0
            let dt = 0.01
            for cycle in 0..<12 {
                let rate = (cycle % 2 == 0 ? 1.0 : -1.0) * 20 * Double.pi / 180 / 0.5
                for phase in 0..<100 {  // 0.5 s still, 0.5 s turning
                    let turning = phase >= 50
                    if turning { angle += rate * dt }
                    let gravity = SIMD3(0, 9.81 * sin(angle), 9.81 * cos(angle))
                    check.add(timestamp: t)
                    check.add(accelerometer: gravity, at: t)
                    check.add(gyroscope: SIMD3((turning ? rate : 0) + bias, bias, -bias) * scale, at: t)
                    if let m = check.mismatch() { return m }
                    t += dt
                }
            }
            return check.mismatch(final: true)
        }
        #expect(run(scale: 1) == nil)
        let wrong = run(scale: 180 / .pi)
        #expect(wrong?.quantity == .gyroscope && wrong?.looksLike == "deg/s", "\(String(describing: wrong))")
        // A bias of 5 °/s on the right unit does not make it look wrong.
        #expect(run(scale: 1, bias: 5 * .pi / 180) == nil)
    }
}

/// What a newcomer meets first with another source's files: a gzipped recording, standard input, a
/// header with other names.
@Suite("Reading other sources' files")
struct OtherSourcesFileTests {
    /// `path` compressed by the system's gzip (not by the code under test) into `path.gz`.
    static func gzip(_ path: String) throws -> String {
        let process = Process()
        process.standardInput = FileHandle.nullDevice
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-kf", path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "gzip -kf \(path)")
        return path + ".gz"
    }

    /// Every record, and the line it came from.
    static func records(_ path: String) throws -> [IMURecord] {
        let reader = try IMUCSVReader(path: path)
        var records: [IMURecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    /// A gzip-compressed recording is read as the same file uncompressed, whatever its name: every
    /// record and line number the same (60,000 rows, across many chunks); progress counts the
    /// compressed bytes, which end at the file's size.
    @Test func aGzippedRecordingIsReadAsTheFileItCompresses() throws {
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for k in 0..<60_000 {
            text += "\(Double(k) * 0.01),\(0.001 * Double(k % 97)),0.2,-0.3,0.1,0.05,9.81,20,\(Double(k % 13)),-40\n"
        }
        let plain = CSVReaderTests.file(text)
        let compressed = try Self.gzip(plain)
        let renamed = plain + ".data"  // no .gz: the bytes say it is compressed
        try FileManager.default.copyItem(atPath: compressed, toPath: renamed)
        defer { for path in [plain, compressed, renamed] { try? FileManager.default.removeItem(atPath: path) } }
        let expected = try Self.records(plain)
        #expect(expected.count == 60_000)
        for path in [compressed, renamed] {
            let records = try Self.records(path)
            #expect(records.count == expected.count && records == expected, "\(path)")
        }
        let reader = try CSVReader(path: compressed)
        while try reader.skipRow() {}
        let size = try FileManager.default.attributesOfItem(atPath: compressed)[.size] as? Int
        #expect(reader.fileSize == size && reader.bytesRead == size)
    }

    /// A compressed file cut short, or whose check sum disagrees (a flipped bit in its trailer), is an
    /// error naming the file, never a shorter recording; one with a flipped byte inside the deflate
    /// data is an error too (zlib's, or the rows' garbage found first), never a recording that reads
    /// to its end. A folder is an error.
    @Test func aCutShortOrCorruptGzipStreamIsAnError() throws {
        var text = "t,gx,gy,gz,ax,ay,az\n"
        for k in 0..<20_000 { text += "\(Double(k) * 0.01),0.1,0.2,\(k % 7),0,0,9.81\n" }
        let plain = CSVReaderTests.file(text)
        let compressed = try Self.gzip(plain)
        defer { for path in [plain, compressed] { try? FileManager.default.removeItem(atPath: path) } }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: compressed))
        let cut = compressed + ".cut.gz", badSum = compressed + ".sum.gz", damaged = compressed + ".damaged.gz"
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        var flipped = bytes
        flipped[bytes.count - 8] ^= 0x01  // the CRC-32 of the uncompressed data
        try flipped.write(to: URL(fileURLWithPath: badSum))
        flipped = bytes
        flipped[bytes.count / 3] ^= 0xFF
        try flipped.write(to: URL(fileURLWithPath: damaged))
        defer { for path in [cut, badSum, damaged] { try? FileManager.default.removeItem(atPath: path) } }
        for (path, words) in [(cut, "cut short"), (badSum, "corrupt")] {
            #expect {
                _ = try Self.records(path)
            } throws: { error in
                guard case CSVError.unreadable(let named, let reason) = error else { return false }
                return named == path && reason.contains(words)
            }
        }
        #expect(throws: CSVError.self) { _ = try Self.records(damaged) }
        #expect {
            _ = try CSVReader(path: FileManager.default.temporaryDirectory.path)
        } throws: { error in
            guard case CSVError.unreadable(_, let reason) = error else { return false }
            return reason == String(cString: strerror(EISDIR))
        }
    }

    @Test func aMissingColumnListsTheNamesAcceptedAndTheHeaders() {
        let error = CSVError.missingColumn(line: 1, name: "az", found: ["time", "accX", "accY", "accZ"])
        #expect(
            error.description
                == "line 1: no column named 'az' in the header (accepted: 'az' or 'Accelerometer Z' (any case), "
                + "with an optional unit such as 'az (unit)'; found: 'time', 'accX', 'accY', 'accZ')")
    }

    /// The CLI's input `-`: a recording, plain or gzip-compressed, fed to `motion fuse - -o FILE`
    /// on standard input gives what the file given by name gives.
    @Test(arguments: [false, true])
    func standardInputIsADash(compressed: Bool) throws {
        let motion = try StandardOutputTests.binary()
        let plain = FuseCommandTests.input(rows: 300)
        let input = compressed ? try Self.gzip(plain) : plain
        defer { for path in Set([plain, input]) { try? FileManager.default.removeItem(atPath: path) } }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("mf-stdin-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: motion)
        process.arguments = ["fuse", "-", "-o", output]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let direct = output + ".direct.csv"
        defer { try? FileManager.default.removeItem(atPath: direct) }
        try FuseCommandTests.run(["fuse", plain, "-o", direct])
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: direct)))
    }
}
