import Foundation
import Testing
import ArgumentParser

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionIO

/// `motion fuse` on recordings whose sensors have separate timestamps: a CSV with empty cells, or
/// one file per sensor (`--gyroscope`, `--accelerometer`, `--magnetometer`).
///
/// The expectation is computed here without ``SampleAssembler``: a plain zero-order hold (the
/// latest reading at or before the gyroscope's time, no older than 0.1 s for the accelerometer
/// and 0.5 s for the magnetometer, dropped when the gyroscope's clock steps back before it), then
/// ``FusionStream`` with the command's default filter. Outputs are compared bit for bit (the
/// command prints numbers that read back exactly).
@Suite("motion fuse, multi-rate recordings")
struct FuseMultiRateTests {
    /// One row of readings, each sensor optional.
    struct Row {
        var t: Double
        var g: SIMD3<Double>?
        var a: SIMD3<Double>?
        var m: SIMD3<Double>?
    }

    // MARK: Writing inputs

    static func cells(_ v: SIMD3<Double>?) -> String {
        v.map { "\($0.x),\($0.y),\($0.z)" } ?? ",,"
    }

    /// A CSV with empty cells (`magnetometer` false: no magnetometer columns).
    static func csv(_ rows: [Row], magnetometer: Bool = true) -> String {
        var text = magnetometer ? "t,gx,gy,gz,ax,ay,az,mx,my,mz\n" : "t,gx,gy,gz,ax,ay,az\n"
        for r in rows {
            text += "\(r.t),\(cells(r.g)),\(cells(r.a))" + (magnetometer ? ",\(cells(r.m))" : "") + "\n"
        }
        return CSVReaderTests.file(text)
    }

    /// One file per sensor, `t,x,y,z`; nil for a sensor without readings.
    static func sensorFiles(_ rows: [Row]) -> (g: String, a: String, m: String?) {
        var g = "t,x,y,z\n", a = "t,x,y,z\n", m = "t,x,y,z\n"
        var anyM = false
        for r in rows {
            if let v = r.g { g += "\(r.t),\(cells(v))\n" }
            if let v = r.a { a += "\(r.t),\(cells(v))\n" }
            if let v = r.m {
                m += "\(r.t),\(cells(v))\n"
                anyM = true
            }
        }
        return (CSVReaderTests.file(g), CSVReaderTests.file(a), anyM ? CSVReaderTests.file(m) : nil)
    }

    static func outputPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mf-mr-\(UUID()).csv").path
    }

    /// Runs the command; nil on success, else its message.
    static func run(_ arguments: [String]) -> String? {
        do {
            var command = try MotionCommand.parseAsRoot(arguments)
            try command.run()
            return nil
        } catch {
            return MotionCommand.message(for: error)
        }
    }

    // MARK: The independent expectation

    /// The samples a zero-order hold makes: one per gyroscope reading, in row order, with the
    /// latest accelerometer and magnetometer readings at or before it within the default ages.
    static func heldSamples(_ rows: [Row]) -> [SensorSample] {
        var a: (t: Double, v: SIMD3<Double>)?
        var m: (t: Double, v: SIMD3<Double>)?
        var lastGyroscope: Double?
        var samples: [SensorSample] = []
        for r in rows {
            if let v = r.a { a = (r.t, v) }
            if let v = r.m { m = (r.t, v) }
            guard let g = r.g else { continue }
            if let last = lastGyroscope, r.t < last {
                // A clock that steps back: readings later than the new time belong to the old one.
                if let held = a, held.t > r.t { a = nil }
                if let held = m, held.t > r.t { m = nil }
            }
            lastGyroscope = r.t
            let useA = a.flatMap { $0.t <= r.t && r.t - $0.t <= 0.1 ? $0 : nil }
            let useM = m.flatMap { $0.t <= r.t && r.t - $0.t <= 0.5 ? $0 : nil }
            samples.append(
                SensorSample(
                    timestamp: r.t, gyroscope: g, accelerometer: useA?.v, magnetometer: useM?.v,
                    accelerometerTimestamp: useA?.t, magnetometerTimestamp: useM?.t))
        }
        return samples
    }

    /// `motion fuse`'s default filter on `samples`; a missing accelerometer is NaN (documented).
    static func fused(_ samples: [SensorSample]) -> [FusionOutput<Double>] {
        var stream = FusionStream(
            filter: InertialFrameFilter<Double>(settings: .init(frame: .enu)), clock: SampleClock(maximumGap: 1))
        return samples.map {
            stream.update(
                timestamp: $0.timestamp, gyroscope: $0.gyroscope!, accelerometer: $0.accelerometer ?? SIMD3(repeating: .nan),
                magnetometer: $0.magnetometer)
        }
    }

    /// Expects `path`'s rows to be `expected`, bit for bit.
    static func expectOutput(_ path: String, _ expected: [FusionOutput<Double>], _ what: String) throws {
        let rows = try FuseCommandTests.output(path)
        #expect(rows.count == expected.count, "\(what): \(rows.count) rows, expected \(expected.count)")
        var mismatches = 0
        for (row, o) in zip(rows, expected) {
            let q = o.quaternion
            let values: [Double] = [o.timestamp, q.w, q.x, q.y, q.z]
                + [o.gyroscopeBias, o.gravity, o.linearAcceleration, o.earthLinearAcceleration].flatMap { [$0.x, $0.y, $0.z] }
                + [Double(o.flags.rawValue)]
            if row.map(\.bitPattern) != values.map(\.bitPattern) { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(what): \(mismatches) rows differ")
    }

    /// BROAD trial 1 with every gyroscope reading, every 2nd accelerometer and every 5th
    /// magnetometer reading.
    static func broadThinned() throws -> [Row] {
        let path = BroadData.folder.appendingPathComponent(BroadData.trials[0] + ".csv").path
        let reader = try IMUCSVReader(path: path)
        var rows: [Row] = []
        var k = 0
        while let r = try reader.next() {
            rows.append(Row(t: r.timestamp, g: r.gyroscope, a: k % 2 == 0 ? r.accelerometer : nil, m: k % 5 == 0 ? r.magnetometer : nil))
            k += 1
        }
        return rows
    }

    // MARK: BROAD

    @Test(.enabled(if: BroadData.required))
    func broadTrialThinnedAsEmptyCellsAndAsSensorFiles() throws {
        let rows = try Self.broadThinned()
        let expected = Self.fused(Self.heldSamples(rows))
        #expect(expected.count == rows.count)
        // The hold really holds: most samples reuse an older magnetometer reading.
        #expect(Self.heldSamples(rows).filter { $0.magnetometerTimestamp != nil }.count > rows.count / 2)

        let csvOut = Self.outputPath()
        #expect(Self.run(["fuse", Self.csv(rows), "-o", csvOut]) == nil)
        try Self.expectOutput(csvOut, expected, "CSV with empty cells")

        let files = Self.sensorFiles(rows)
        let filesOut = Self.outputPath()
        #expect(Self.run(["fuse", "--gyroscope", files.g, "--accelerometer", files.a, "--magnetometer", files.m!, "-o", filesOut]) == nil)
        try Self.expectOutput(filesOut, expected, "one file per sensor")
    }

    // MARK: Which path a file takes

    /// A magnetometer in some rows only is a slower magnetometer: the file is assembled (the
    /// reading held for up to 0.5 s), whichever the first row has; standard output gets the same.
    @Test func magnetometerInSomeRowsOnlyIsAssembled() throws {
        for first in [0, 1] {  // the first row with a magnetometer reading, or without one
            let rows = Array(Self.synthetic(count: 301, accelerometerEvery: 1, magnetometerEvery: 5).dropFirst(first))
            let input = Self.csv(rows)
            let out = Self.outputPath()
            #expect(Self.run(["fuse", input, "-o", out]) == nil)
            try Self.expectOutput(out, Self.fused(Self.heldSamples(rows)), "held magnetometer, first row \(first)")
            let folder = try Folder()
            defer { folder.remove() }
            let status = try StandardOutputTests.run(["fuse", input, "-o", "-"], in: folder)
            #expect(status.status == 0, "\(status.error)")
            #expect(status.output == FileManager.default.contents(atPath: out))
        }
    }

    /// A magnetometer in every row, or in none, keeps the row-by-row path.
    @Test func magnetometerInEveryRowOrNoneIsFusedRowByRow() throws {
        for every in [1, 0] {
            let rows = Self.synthetic(count: 300, accelerometerEvery: 1, magnetometerEvery: every)
            let out = Self.outputPath()
            #expect(Self.run(["fuse", Self.csv(rows), "-o", out]) == nil)
            let samples = rows.map { SensorSample(timestamp: $0.t, gyroscope: $0.g, accelerometer: $0.a, magnetometer: $0.m) }
            try Self.expectOutput(out, Self.fused(samples), "row by row, magnetometer every \(every)")
        }
    }

    /// Standard output is written through: the input is scanned first, with the same result.
    @Test func standardOutputGetsTheSameRows() throws {
        let rows = Self.synthetic(count: 2000, accelerometerEvery: 2, magnetometerEvery: 5)
        let input = Self.csv(rows)
        let out = Self.outputPath()
        #expect(Self.run(["fuse", input, "-o", out]) == nil)
        let folder = try Folder()
        defer { folder.remove() }
        let status = try StandardOutputTests.run(["fuse", input, "-o", "-"], in: folder)
        #expect(status.status == 0, "\(status.error)")
        #expect(status.output == FileManager.default.contents(atPath: out))
    }

    // MARK: Rules

    /// Rows of a rotating device at 100 Hz; the accelerometer and magnetometer in every n-th row
    /// (0: never).
    static func synthetic(count: Int, accelerometerEvery: Int, magnetometerEvery: Int, start: Double = 0) -> [Row] {
        var q = Quaternion<Double>(angle: 0.2, axis: SIMD3(0, 1, 0))
        var rows: [Row] = []
        let w = SIMD3<Double>(0.3, -0.2, 0.5)
        for k in 0..<count {
            if k > 0 { q = (q * Quaternion(rotationVector: w * 0.01)).normalized() }
            let a = q.inverseAct(on: SIMD3(0, 0, 9.80665))
            let m = q.inverseAct(on: SIMD3(0, 20, -45))
            rows.append(
                Row(
                    t: start + Double(k) * 0.01, g: w,
                    a: accelerometerEvery > 0 && k % accelerometerEvery == 0 ? a : nil,
                    m: magnetometerEvery > 0 && k % magnetometerEvery == 0 ? m : nil))
        }
        return rows
    }

    /// No magnetometer reading at all: the samples are 6D, as without magnetometer columns, and
    /// as without a magnetometer file.
    @Test func magnetometerThatNeverArrivesGivesSixD() throws {
        let rows = Self.synthetic(count: 500, accelerometerEvery: 2, magnetometerEvery: 0)
        let expected = Self.fused(Self.heldSamples(rows))
        #expect(expected.allSatisfy { !$0.flags.contains(.magnetometerUsed) })
        let empty = Self.outputPath(), none = Self.outputPath(), files = Self.outputPath()
        #expect(Self.run(["fuse", Self.csv(rows), "-o", empty]) == nil)
        #expect(Self.run(["fuse", Self.csv(rows, magnetometer: false), "-o", none]) == nil)
        let f = Self.sensorFiles(rows)
        #expect(Self.run(["fuse", "--gyroscope", f.g, "--accelerometer", f.a, "-o", files]) == nil)
        // An empty magnetometer file (a header only) is a magnetometer that never reported.
        let emptyFile = CSVReaderTests.file("t,x,y,z\n")
        let files2 = Self.outputPath()
        #expect(Self.run(["fuse", "--gyroscope", f.g, "--accelerometer", f.a, "--magnetometer", emptyFile, "-o", files2]) == nil)
        for (path, what) in [(empty, "empty cells"), (none, "no columns"), (files, "two files"), (files2, "empty file")] {
            try Self.expectOutput(path, expected, what)
        }
    }

    /// An accelerometer that stops: 0.1 s after its last reading the samples go without it. They
    /// are fused with a NaN accelerometer: gyroscope only, no accelerometerUsed flag, no NaN in
    /// the output, one row per gyroscope reading.
    @Test func sensorThatStopsLeavesGyroscopeOnlySamples() throws {
        var rows = Self.synthetic(count: 600, accelerometerEvery: 2, magnetometerEvery: 5)
        for k in 300..<rows.count { rows[k].a = nil }  // the last reading is at 2.98 s
        let out = Self.outputPath()
        #expect(Self.run(["fuse", Self.csv(rows), "-o", out]) == nil)
        let samples = Self.heldSamples(rows)
        try Self.expectOutput(out, Self.fused(samples), "accelerometer stops")
        let output = try FuseCommandTests.output(out)
        #expect(output.count == 600)
        #expect(output.allSatisfy { row in row.allSatisfy { !$0.isNaN } })
        // The last reading (row 298) serves for 0.1 s: row 307 is the last sample with it (row
        // 308's time less row 298's is a little more than 0.1 in binary).
        #expect(samples.lastIndex { $0.accelerometer != nil } == 307)
        for (row, sample) in zip(output, samples).dropFirst() {  // the first has dt 0: nothing is used
            let flags = FusionFlags(rawValue: UInt16(row[17]))
            if sample.accelerometer == nil {
                #expect(sample.timestamp > rows[307].t)
                #expect(!flags.contains(.accelerometerUsed), "t \(row[0])")
                #expect(Array(row[11...13]) == [0, 0, 0], "linear acceleration at t \(row[0])")
            } else {
                #expect(flags.contains(.accelerometerUsed), "t \(row[0])")
            }
        }
    }

    /// A clock that steps back: a new timeline whose samples use none of the old one's readings.
    @Test func clockThatJumpsBack() throws {
        let first = Self.synthetic(count: 200, accelerometerEvery: 2, magnetometerEvery: 5, start: 10)
        var second = Self.synthetic(count: 200, accelerometerEvery: 3, magnetometerEvery: 7, start: 5)
        second[0].a = nil  // the first sample of the new timeline has no accelerometer of its time
        second[0].m = nil
        let rows = first + second
        let samples = Self.heldSamples(rows)
        #expect(samples[200].accelerometer == nil && samples[200].magnetometer == nil)
        let out = Self.outputPath()
        #expect(Self.run(["fuse", Self.csv(rows), "-o", out]) == nil)
        try Self.expectOutput(out, Self.fused(samples), "clock jumps back")
        let f = Self.sensorFiles(rows)
        let filesOut = Self.outputPath()
        #expect(Self.run(["fuse", "--gyroscope", f.g, "--accelerometer", f.a, "--magnetometer", f.m!, "-o", filesOut]) == nil)
        try Self.expectOutput(filesOut, Self.fused(samples), "clock jumps back, files")
        let output = try FuseCommandTests.output(out)
        #expect(FusionFlags(rawValue: UInt16(output[200][17])).contains(.timestampBackward))
    }

    /// Rows of readings without gyroscope give no output row; `nan` in all three cells is no
    /// reading, as MotionRecorder writes an absent sensor.
    @Test func rowsWithoutGyroscopeGiveNoOutputRow() throws {
        let text = """
            t,gx,gy,gz,ax,ay,az,mx,my,mz
            0.000,,,,0,0,9.8,,,
            0.001,,,,,,,20,0,-40
            0.002,0.1,0,0,,,,nan,nan,nan
            0.003,,,,0,0.1,9.8,,,
            0.004,0.1,0,0,nan,nan,nan,,,

            """
        let out = Self.outputPath()
        #expect(Self.run(["fuse", CSVReaderTests.file(text), "-o", out]) == nil)
        let rows: [Row] = [
            Row(t: 0, a: SIMD3(0, 0, 9.8)), Row(t: 0.001, m: SIMD3(20, 0, -40)), Row(t: 0.002, g: SIMD3(0.1, 0, 0)),
            Row(t: 0.003, a: SIMD3(0, 0.1, 9.8)), Row(t: 0.004, g: SIMD3(0.1, 0, 0)),
        ]
        try Self.expectOutput(out, Self.fused(Self.heldSamples(rows)), "readings rows")
        #expect(try FuseCommandTests.output(out).map { $0[0] } == [0.002, 0.004])
    }

    // MARK: Errors

    /// Only some of a sensor's cells empty: an error naming line and column; no output appears.
    @Test func partlyEmptySensorCellsAreErrors() throws {
        let cases: [(String, String)] = [
            ("0.01,0.1,,0.3,,,,,,", "line 3, column 3 (gy): '' is not a number"),
            ("0.01,0.1,0.2,0.3,1,2,,,,", "line 3, column 7 (az): '' is not a number"),
            ("0.01,,,,,,,1,,3", "line 3, column 9 (my): '' is not a number"),
        ]
        for (row, message) in cases {
            let input = CSVReaderTests.file("t,gx,gy,gz,ax,ay,az,mx,my,mz\n0,0.1,0.2,0.3,0,0,9.8,20,0,-40\n\(row)\n")
            let out = Self.outputPath()
            let error = Self.run(["fuse", input, "-o", out])
            #expect(error == "\(input): \(message)", "\(row)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    /// The per-sensor files: errors name the file, line and column; the usage is checked.
    @Test func sensorFileErrorsNameFileLineAndColumn() throws {
        let rows = Self.synthetic(count: 20, accelerometerEvery: 2, magnetometerEvery: 5)
        let f = Self.sensorFiles(rows)
        let noZ = CSVReaderTests.file("t,x,y\n0,1,2\n")
        let badNumber = CSVReaderTests.file("t,x,y,z\n0,1,2,3\n0.01,1,two,3\n")
        let noT = CSVReaderTests.file("time_ms,x,y,z\n0,1,2,3\n")
        let out = Self.outputPath()
        #expect(
            Self.run(["fuse", "--gyroscope", f.g, "--accelerometer", noZ, "-o", out])
                == "\(noZ): line 1: no column named 'z' in the header (accepted: 'z', with an optional unit "
                + "such as 'z (unit)'; found: 't', 'x', 'y')")
        #expect(
            Self.run(["fuse", "--gyroscope", f.g, "--accelerometer", f.a, "--magnetometer", badNumber, "-o", out])
                == "\(badNumber): line 3, column 3 (y): 'two' is not a number")
        #expect(
            Self.run(["fuse", "--gyroscope", noT, "--accelerometer", f.a, "-o", out])
                == "\(noT): line 1: no column named 't' in the header (accepted: 't' or 'Time' (any case), "
                + "with an optional unit such as 't (unit)'; found: 'time_ms', 'x', 'y', 'z')")
        #expect(!FileManager.default.fileExists(atPath: out))
        // Usage.
        let both = Self.run(["fuse", Self.csv(rows), "--gyroscope", f.g, "--accelerometer", f.a, "-o", out])
        #expect(both?.contains("not both") == true, "\(both ?? "no error")")
        let alone = Self.run(["fuse", "--gyroscope", f.g, "-o", out])
        #expect(alone?.contains("need both --gyroscope and --accelerometer") == true, "\(alone ?? "no error")")
        let nothing = Self.run(["fuse", "-o", out])
        #expect(nothing?.contains("missing INPUT") == true, "\(nothing ?? "no error")")
        // Every sensor file is an input the output may not replace.
        let refused = Self.run(["fuse", "--gyroscope", f.g, "--accelerometer", f.a, "--magnetometer", f.m!, "-o", f.m!])
        #expect(refused?.contains("same file as the input") == true, "\(refused ?? "no error")")
        #expect(try String(contentsOfFile: f.m!, encoding: .utf8).hasPrefix("t,x,y,z\n0.0,"))
    }
}
