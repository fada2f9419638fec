import Foundation
import Testing
import ArgumentParser
import RealModule

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Units written in a CSV header (`Gyroscope X (deg/s)`, `gx[deg/s]`): read and converted, or
/// refused; never dropped.
@Suite("CSV header units")
struct HeaderUnitTests {
    static func readAll(_ text: String) throws(CSVError) -> [IMURecord] {
        try CSVReaderTests.readAll(text)
    }

    /// The message of what `body` throws, or nil when it does not throw.
    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mf-units-\(name)-\(UUID()).csv").path
    }

    @Test func everyAcceptedSpellingIsConverted() throws {
        // One row: 90°/s = π/2 rad/s on every gyroscope axis, 1 g on every accelerometer axis, 0.5 G
        // = 50 µT, 20000 nT = 20 µT, 0.03 mT = 30 µT; time 1500 ms = 1.5 s.
        let cases: [(header: String, row: String, t: Double, g: Double, a: Double, m: SIMD3<Double>?)] = [
            (
                "Time (s),Gyroscope X (deg/s),Gyroscope Y (deg/s),Gyroscope Z (deg/s),Accelerometer X (g),Accelerometer Y (g),Accelerometer Z (g),Magnetometer X (uT),Magnetometer Y (uT),Magnetometer Z (uT)",
                "1.5,90,90,90,1,1,1,10,20,30", 1.5, .pi / 2, 9.80665, SIMD3(10, 20, 30)
            ),
            (
                "t (ms),gx[deg/s],gy (dps),gz [°/s],ax (m/s²),ay(m/s^2),az [m/s2],mx (µT),my (μT),mz[uT]",
                "1500,90,90,90,9.80665,9.80665,9.80665,10,20,30", 1.5, .pi / 2, 9.80665, SIMD3(10, 20, 30)
            ),
            (
                "t[us],gx (rad/s),gy (rad/s),gz (rad/s),ax (ms^-2),ay (ms^-2),az (ms^-2),mx (G),my (gauss),mz (G)",
                "1500000,1.5707963267948966,1.5707963267948966,1.5707963267948966,9.80665,9.80665,9.80665,0.1,0.2,0.3",
                1.5, .pi / 2, 9.80665, SIMD3(10, 20, 30)
            ),
            (
                "t (ns),gx,gy,gz,ax,ay,az,mx (nT),my (nT),mz (nT)",
                "1500000000,1.5707963267948966,1.5707963267948966,1.5707963267948966,9.80665,9.80665,9.80665,10000,20000,30000",
                1.5, .pi / 2, 9.80665, SIMD3(10, 20, 30)
            ),
            (
                "t (µs),gx,gy,gz,ax,ay,az,mx (mT),my (mT),mz (mT)",
                "1500000,1.5707963267948966,1.5707963267948966,1.5707963267948966,9.80665,9.80665,9.80665,0.01,0.02,0.03",
                1.5, .pi / 2, 9.80665, SIMD3(10, 20, 30)
            ),
        ]
        for c in cases {
            let records = try Self.readAll(c.header + "\n" + c.row + "\n")
            let r = try #require(records.first, "\(c.header)")
            #expect(r.timestamp == c.t, "\(c.header)")
            for k in 0..<3 {
                #expect(abs(r.gyroscope[k] - c.g) < 1e-15, "\(c.header): gyroscope \(r.gyroscope)")
                #expect(abs(r.accelerometer[k] - c.a) < 1e-14, "\(c.header): accelerometer \(r.accelerometer)")
                #expect(abs(r.magnetometer![k] - c.m![k]) < 1e-12, "\(c.header): magnetometer \(String(describing: r.magnetometer))")
            }
        }
    }

    @Test func gravityIsLowerCaseGAndGaussIsUpperCaseGOnlyInAMagnetometerColumn() throws {
        // "G" in an accelerometer column and "g" in a magnetometer column are refused, naming the
        // column: no guess between gravity and gauss.
        let accelerometerG = Self.message {
            _ = try Self.readAll("t,gx,gy,gz,ax (G),ay (G),az (G)\n0,0,0,0,0,0,1\n")
        }
        #expect(accelerometerG?.contains("line 1, column 5 (ax (G))") == true, "\(accelerometerG ?? "no error")")
        #expect(accelerometerG?.contains("'G'") == true, "\(accelerometerG ?? "no error")")
        let magnetometerG = Self.message {
            _ = try Self.readAll("t,gx,gy,gz,ax,ay,az,mx (g),my (g),mz (g)\n0,0,0,0,0,0,1,1,2,3\n")
        }
        #expect(magnetometerG?.contains("line 1, column 8 (mx (g))") == true, "\(magnetometerG ?? "no error")")
        #expect(magnetometerG?.contains("'g'") == true, "\(magnetometerG ?? "no error")")
        // Case matters: MT is not mT, MS not ms.
        let megatesla = Self.message {
            _ = try Self.readAll("t,gx,gy,gz,ax,ay,az,mx (MT),my (MT),mz (MT)\n0,0,0,0,0,0,1,1,2,3\n")
        }
        #expect(megatesla?.contains("column 8") == true && megatesla?.contains("'MT'") == true, "\(megatesla ?? "no error")")
        let megasecond = Self.message { _ = try Self.readAll("t (Ms),gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,1\n") }
        #expect(megasecond?.contains("line 1, column 1 (t (Ms))") == true, "\(megasecond ?? "no error")")
    }

    @Test func anUnknownUnitIsRefusedWithLineColumnNameAndText() {
        // Long and short names: the column is found, and its unit is refused.
        let cases: [(String, String)] = [
            ("Time (s),Gyroscope X (furlongs/s),Gyroscope Y (furlongs/s),Gyroscope Z (furlongs/s),Accelerometer X (g),Accelerometer Y (g),Accelerometer Z (g)\n0,0,0,0,0,0,1\n",
             "line 1, column 2 (Gyroscope X (furlongs/s)): unknown gyroscope unit 'furlongs/s'"),
            ("t,gx,gy,gz,ax [LSB],ay [LSB],az [LSB]\n0,0,0,0,0,0,1\n",
             "line 1, column 5 (ax [LSB]): unknown accelerometer unit 'LSB'"),
            ("t (h),gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,1\n", "line 1, column 1 (t (h)): unknown time unit 'h'"),
            ("t,gx (),gy (),gz (),ax,ay,az\n0,0,0,0,0,0,1\n", "line 1, column 2 (gx ()): unknown gyroscope unit ''"),
        ]
        for (text, expected) in cases {
            let message = Self.message { _ = try Self.readAll(text) }
            #expect(message?.hasPrefix(expected) == true, "\(message ?? "no error") for \(text.debugDescription)")
        }
        #expect(throws: CSVError.unknownUnit(line: 1, quantity: .accelerometer, column: 5, name: "ax [LSB]", unit: "LSB")) {
            try Self.readAll("t,gx,gy,gz,ax [LSB],ay [LSB],az [LSB]\n0,0,0,0,0,0,1\n")
        }
        #expect(
            CSVError.unknownUnit(line: 1, quantity: .magnetometer, column: 8, name: "mx (T)", unit: "T").description
                == "line 1, column 8 (mx (T)): unknown magnetometer unit 'T' (accepted: µT, uT, nT, mT, gauss, G)")
    }

    @Test func axesOfOneSensorInDifferentUnitsAreRefused() {
        let mixed = Self.message {
            _ = try Self.readAll("t,gx (deg/s),gy (rad/s),gz (deg/s),ax,ay,az\n0,0,0,0,0,0,1\n")
        }
        #expect(mixed?.hasPrefix("line 1, column 3 (gy (rad/s)): gyroscope unit 'rad/s'") == true, "\(mixed ?? "no error")")
        #expect(mixed?.contains("deg/s") == true, "\(mixed ?? "no error")")
        #expect(
            throws: CSVError.mixedUnits(
                line: 1, quantity: .gyroscope, column: 3, name: "gy (rad/s)", unit: "rad/s", otherColumn: 2, otherName: "gx (deg/s)",
                otherUnit: "deg/s")
        ) { try Self.readAll("t,gx (deg/s),gy (rad/s),gz (deg/s),ax,ay,az\n0,0,0,0,0,0,1\n") }
        // A unit on some axes only is as ambiguous.
        let partly = Self.message {
            _ = try Self.readAll("t,gx,gy,gz,ax (g),ay (g),az,mx,my,mz\n0,0,0,0,0,0,1,1,2,3\n")
        }
        #expect(partly?.hasPrefix("line 1, column 7 (az): no unit") == true, "\(partly ?? "no error")")
        // The same unit spelt two ways is one unit.
        #expect(Self.message { _ = try Self.readAll("t,gx (deg/s),gy (dps),gz (°/s),ax,ay,az\n0,0,0,0,0,0,1\n") } == nil)
    }

    @Test func aGivenUnitThatContradictsTheHeaderIsRefusedNamingBoth() throws {
        let path = CSVReaderTests.file("t,gx (deg/s),gy (deg/s),gz (deg/s),ax,ay,az\n0,1,2,3,0,0,1\n")
        let contradiction = Self.message { _ = try IMUCSVReader(path: path, gyroscopeUnit: .radiansPerSecond) }
        #expect(contradiction?.hasPrefix("line 1, column 2 (gx (deg/s)):") == true, "\(contradiction ?? "no error")")
        #expect(
            contradiction?.contains("deg/s") == true && contradiction?.contains("rad/s") == true,
            "\(contradiction ?? "no error")")
        #expect(
            throws: CSVError.unitContradiction(line: 1, quantity: .gyroscope, column: 2, name: "gx (deg/s)", header: "deg/s", given: "rad/s")
        ) { try IMUCSVReader(path: path, gyroscopeUnit: .radiansPerSecond) }
        // Agreeing, or not given: read.
        let agreeing = try IMUCSVReader(path: path, gyroscopeUnit: .degreesPerSecond)
        #expect(try agreeing.next()?.gyroscope == SIMD3(1, 2, 3) * (.pi / 180))
        let fromHeader = try IMUCSVReader(path: path)
        #expect(try fromHeader.next()?.gyroscope == SIMD3(1, 2, 3) * (.pi / 180))
    }

    @Test func theUnitsUsedCanBeRead() throws {
        let xio = try IMUCSVReader(
            path: CSVReaderTests.file("Time (s),Gyroscope X (deg/s),Gyroscope Y (deg/s),Gyroscope Z (deg/s),Accelerometer X (g),Accelerometer Y (g),Accelerometer Z (g),Magnetometer X (uT),Magnetometer Y (uT),Magnetometer Z (uT)\n0,0,0,0,0,0,1,1,2,3\n"))
        #expect(
            xio.units
                == IMUCSVReader.Units(
                    time: .seconds, gyroscope: .degreesPerSecond, accelerometer: .standardGravity,
                    magnetometer: .microtesla))
        // Without units in the header: the ones given, else the library's.
        let plain = CSVReaderTests.file("t,gx,gy,gz,ax,ay,az\n0,0,0,0,0,0,1\n")
        #expect(
            try IMUCSVReader(path: plain).units
                == IMUCSVReader.Units(time: .seconds, gyroscope: .radiansPerSecond, accelerometer: .metersPerSecondSquared, magnetometer: nil))
        #expect(try IMUCSVReader(path: plain, accelerometerUnit: .standardGravity).units.accelerometer == .standardGravity)
        // Magnetometer columns that are not read have no unit, and their header is not checked.
        let ignored = CSVReaderTests.file("t,gx,gy,gz,ax,ay,az,mx (furlongs),my (furlongs),mz (furlongs)\n0,0,0,0,0,0,1,1,2,3\n")
        #expect(try IMUCSVReader(path: ignored, useMagnetometer: false).units.magnetometer == nil)
    }

    @Test func aShortAndALongNameForOneColumnAreADuplicate() {
        // Before, the exact name won and the other column was silently ignored.
        #expect(throws: CSVError.duplicateColumn(line: 1, name: "gx", column: 8)) {
            try Self.readAll("t,gx,gy,gz,ax,ay,az,gx (deg/s)\n0,0,0,0,0,0,1,5\n")
        }
        #expect(throws: CSVError.duplicateColumn(line: 1, name: "t", column: 8)) {
            try Self.readAll("t,gx,gy,gz,ax,ay,az,Time (s)\n0,0,0,0,0,0,1,5\n")
        }
    }

    @Test func splittingAHeaderIntoNameAndUnit() {
        #expect(CSVReader.splitUnit("Gyroscope X (deg/s)") == ("Gyroscope X", "deg/s"))
        #expect(CSVReader.splitUnit(" gx[deg/s] ") == ("gx", "deg/s"))
        #expect(CSVReader.splitUnit("gx [ m/s² ]") == ("gx", "m/s²"))
        #expect(CSVReader.splitUnit("gx ()") == ("gx", ""))
        #expect(CSVReader.splitUnit("gx") == ("gx", nil))
        #expect(CSVReader.splitUnit("(s)") == ("(s)", nil))
        #expect(CSVReader.splitUnit("gx (deg/s") == ("gx (deg/s", nil))
    }

    @Test func theUnitOptionsAreOptionalAndDocumented() throws {
        let units = try InputUnits.parse([])
        #expect(units.gyroUnit == nil && units.accelUnit == nil && units.magUnit == nil)
        let given = try InputUnits.parse(["--gyro-unit", "deg/s", "--accel-unit", "g", "--mag-unit", "mT"])
        #expect(given.gyroUnit == .degreesPerSecond && given.accelUnit == .standardGravity && given.magUnit == .millitesla)
        // The unit options are hidden from --help, which names them; --help-hidden lists them.
        let help = MotionCommand.helpMessage(for: FuseCommand.self, columns: 1000)
        for text in ["gx (deg/s)", "--mag-unit", "--time-unit", "--trust-units", "--help-hidden", "CommandLineTool.md"] {
            #expect(help.contains(text), "\(text)")
        }
        let hidden = MotionCommand.helpMessage(for: FuseCommand.self, includeHidden: true, columns: 1000)
        for text in ["--mag-unit <mag-unit>", "mT", "--time-unit <time-unit>", "--trust-units "] {
            #expect(hidden.contains(text), "\(text)")
        }
        // The details live in the article the help points to.
        let article = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Sources/MotionFusion/MotionFusion.docc/CommandLineTool.md"),
            encoding: .utf8)
        for text in ["Gyroscope X (deg/s)", "`gx (deg/s)`", "contradicts the header", "--trust-units"] {
            #expect(article.contains(text), "\(text)")
        }
    }

    @Test func headerSpellingsOfTheUnitTypes() {
        #expect(GyroscopeUnit(headerText: "deg/s") == .degreesPerSecond)
        #expect(GyroscopeUnit(headerText: "°/s") == .degreesPerSecond)
        #expect(GyroscopeUnit(headerText: "dps") == .degreesPerSecond)
        #expect(GyroscopeUnit(headerText: "rad/s") == .radiansPerSecond)
        #expect(GyroscopeUnit(headerText: "Rad/s") == nil)
        #expect(AccelerometerUnit(headerText: "g") == .standardGravity)
        #expect(AccelerometerUnit(headerText: "G") == nil)
        for text in ["m/s²", "m/s^2", "m/s2", "ms^-2"] {
            #expect(AccelerometerUnit(headerText: text) == .metersPerSecondSquared, "\(text)")
        }
        for text in ["µT", "μT", "uT"] { #expect(MagnetometerUnit(headerText: text) == .microtesla, "\(text)") }
        #expect(MagnetometerUnit(headerText: "G") == .gauss)
        #expect(MagnetometerUnit(headerText: "gauss") == .gauss)
        #expect(MagnetometerUnit(headerText: "g") == nil)
        #expect(MagnetometerUnit(headerText: "nT") == .nanotesla)
        #expect(MagnetometerUnit(headerText: "mT") == .millitesla)
        #expect(MagnetometerUnit(headerText: "MT") == nil)
        #expect(TimeUnit(headerText: "s") == .seconds)
        #expect(TimeUnit(headerText: "ms") == .milliseconds)
        for text in ["us", "µs", "μs"] { #expect(TimeUnit(headerText: text) == .microseconds, "\(text)") }
        #expect(TimeUnit(headerText: "ns") == .nanoseconds)
        #expect(TimeUnit(headerText: "S") == nil)
        // Milliseconds are divided, so every whole millisecond is the nearest Double to its seconds.
        #expect(TimeUnit.milliseconds.seconds(1) == 0.001 && TimeUnit.milliseconds.seconds(7) == 0.007)
    }
}

/// `motion fuse` on x-io Fusion's own example file, whose header gives deg/s, g and uT.
@Suite(
    "CSV header units: x-io's recording through motion fuse",
    .enabled(if: PeerData.required, "reference data not found at ../shared/reference-data"))
struct HeaderUnitFuseTests {
    static let xio = PeerData.path("fusion/sensor_data.csv")

    @Test func noUnitOptionsGiveTheSameOutputAsTheMatchingOptions() throws {
        let fromHeader = HeaderUnitTests.temporary("header"), fromOptions = HeaderUnitTests.temporary("options")
        defer {
            try? FileManager.default.removeItem(atPath: fromHeader)
            try? FileManager.default.removeItem(atPath: fromOptions)
        }
        try FuseCommandTests.run(["fuse", Self.xio, "-o", fromHeader])
        try FuseCommandTests.run([
            "fuse", Self.xio, "-o", fromOptions, "--gyro-unit", "deg/s", "--accel-unit", "g", "--mag-unit", "uT",
        ])
        let a = try Data(contentsOf: URL(fileURLWithPath: fromHeader))
        let b = try Data(contentsOf: URL(fileURLWithPath: fromOptions))
        #expect(a.count > 1_000_000)
        let same = a == b  // outside #expect: a failing #expect would diff two megabytes
        #expect(same, "the outputs differ")
        // And the attitude is right: the first row (at rest) tilts as the file's accelerometer does.
        let first = try FuseCommandTests.output(fromHeader)[0]
        let q = Quaternion(w: first[1], x: first[2], y: first[3], z: first[4])
        let up = q.inverseAct(on: SIMD3<Double>(0, 0, 1))
        let measured = SIMD3<Double>(0.001015204, -0.02045836, 0.9970807)  // the file's first row, g
        let angle = Double.acos(min(1, (up * measured).sum() / (measured * measured).sum().squareRoot()))
        #expect(angle < Double.pi / 180, "\(angle * 180 / .pi)°")
    }

    @Test func anOptionThatContradictsTheHeaderIsAnErrorNamingBoth() throws {
        let out = HeaderUnitTests.temporary("contradiction")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let message = HeaderUnitTests.message { try FuseCommandTests.run(["fuse", Self.xio, "-o", out, "--gyro-unit", "rad/s"]) }
        #expect(message?.contains("line 1, column 2 (Gyroscope X (deg/s))") == true, "\(message ?? "no error")")
        #expect(message?.contains("deg/s") == true && message?.contains("rad/s") == true, "\(message ?? "no error")")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func withoutHeaderUnitsTheOptionsConvertAsBefore() throws {
        // The x-io rows with a header of short names: the options give the same output as x-io's
        // own header.
        let text = try String(contentsOfFile: Self.xio, encoding: .utf8)
        let body = text.drop { $0 != "\n" }
        let plain = CSVReaderTests.file("t,gx,gy,gz,ax,ay,az,mx,my,mz" + body)
        let a = HeaderUnitTests.temporary("plain"), b = HeaderUnitTests.temporary("xio")
        defer {
            try? FileManager.default.removeItem(atPath: a)
            try? FileManager.default.removeItem(atPath: b)
        }
        try FuseCommandTests.run(["fuse", plain, "-o", a, "--gyro-unit", "deg/s", "--accel-unit", "g"])
        try FuseCommandTests.run(["fuse", Self.xio, "-o", b])
        let same = try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b))
        #expect(same, "the outputs differ")
    }
}

/// The other readers of IMU recordings honour header units the same way: `CSVReplaySource`
/// (`motion record --replay`), `IMURecording.read` (`motion calibrate gyroscope|accelerometer`) and
/// `motion calibrate magnetometer`.
@Suite("CSV header units: other readers")
struct HeaderUnitOtherReaderTests {
    static let text = "t (ms),gx (deg/s),gy (deg/s),gz (deg/s),ax (g),ay (g),az (g),mx (G),my (G),mz (G)\n"
        + "0,90,0,-90,0,0,1,0.1,0.2,0.3\n10,0,0,0,0,0,1,0.1,0.2,0.3\n"

    @Test func replaySourceConvertsFromTheHeader() throws {
        let source = try CSVReplaySource(path: CSVReaderTests.file(Self.text), pacing: .asFastAsPossible)
        let first = try #require(try source.next())
        #expect(first.gyroscope == SIMD3<Double>(.pi / 2, 0, -.pi / 2))
        #expect(first.accelerometer == SIMD3(0, 0, 9.80665))
        #expect(first.magnetometer == SIMD3(0.1, 0.2, 0.3) * 100)
        #expect(try source.next()?.timestamp == 0.01)
    }

    @Test func recordingReadConvertsFromTheHeaderAndRefusesAContradiction() throws {
        let path = CSVReaderTests.file(Self.text)
        let recording = try IMURecording.read(path: path)
        #expect(recording.timestamps == [0, 0.01])
        #expect(recording.gyroscope[0] == SIMD3<Double>(.pi / 2, 0, -.pi / 2))
        #expect(recording.accelerometer[0] == SIMD3(0, 0, 9.80665))
        #expect(recording.magnetometer?[0] == SIMD3(0.1, 0.2, 0.3) * 100)
        #expect(
            throws: RecordingFileError(
                path: path,
                error: .unitContradiction(line: 1, quantity: .gyroscope, column: 2, name: "gx (deg/s)", header: "deg/s", given: "rad/s"))
        ) { try IMURecording.read(path: path, gyroscopeUnit: .radiansPerSecond) }
        let g = CSVReaderTests.file("t,gx,gy,gz,ax (G),ay (G),az (G)\n0,0,0,0,0,0,1\n")
        #expect(
            throws: RecordingFileError(
                path: g, error: .unknownUnit(line: 1, quantity: .accelerometer, column: 5, name: "ax (G)", unit: "G"))
        ) { try IMURecording.read(path: g) }
    }

    @Test func calibrateMagnetometerConvertsFromTheHeaderAndRefusesAContradiction() throws {
        let path = CSVReaderTests.file(Self.text)
        #expect(try CalibrateMagnetometer.readMagnetometer(path, unit: .gauss) == [SIMD3(10, 20, 30), SIMD3(10, 20, 30)])
        let message = HeaderUnitTests.message { _ = try CalibrateMagnetometer.readMagnetometer(path, unit: .microtesla) }
        #expect(message?.contains("line 1, column 8 (mx (G))") == true && message?.contains("uT") == true, "\(message ?? "no error")")
    }
}
