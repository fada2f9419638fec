import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionIO

/// The one table of a recording's columns, against the format as the article documents it.
struct RecordingColumnsTests {
    @Test func theColumnsAreTheDocumentedOnes() {
        #expect(RecordingColumns.header(RecordingColumns.sensors) == "t,gx,gy,gz,ax,ay,az,mx,my,mz\n")
        #expect(MotionRecorder.header == "t,gx,gy,gz,ax,ay,az,mx,my,mz\n")
        #expect(RecordingColumns.inertial == ["t", "gx", "gy", "gz", "ax", "ay", "az"])
        #expect(RecordingColumns.truth == ["qw", "qx", "qy", "qz"])
        #expect(RecordingColumns.columns(of: .magnetometer) == ["mx", "my", "mz"])
        let long = ["t": "time", "gx": "gyroscope x", "ay": "accelerometer y", "mz": "magnetometer z"]
        for (name, expected) in long { #expect(RecordingColumns.longName(of: name) == expected, "\(name)") }
        for name in ["qw", "movement", "x", "T", "Gx"] { #expect(RecordingColumns.longName(of: name) == nil, "\(name)") }
    }

    /// The Python scripts take the names from scripts/recording_columns.py, which must spell each
    /// of them as this table does.
    @Test func thePythonScriptsUseTheSameNames() throws {
        let path = WMMData.root.appendingPathComponent("scripts/recording_columns.py").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var names: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            // NAME = "a"  or  NAME = ("a", "b", …)
            let parts: [String] = line.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: CharacterSet.whitespaces)
            }
            guard parts.count == 2, parts[0].allSatisfy({ $0.isUppercase || $0 == "_" }) else { continue }
            let value: String = parts[1]
            guard value.hasPrefix("\"") || value.hasPrefix("(\"") else { continue }
            let pieces: [Substring] = value.split(separator: "\"", omittingEmptySubsequences: false)
            var quoted: [String] = []
            for (index, piece) in pieces.enumerated() where index % 2 == 1 { quoted.append(String(piece)) }
            names[parts[0]] = quoted
        }
        let expected: [String: [String]] = [
            "TIME": [RecordingColumns.time], "GYROSCOPE": RecordingColumns.gyroscope,
            "ACCELEROMETER": RecordingColumns.accelerometer, "MAGNETOMETER": RecordingColumns.magnetometer,
            "TRUTH": RecordingColumns.truth, "MOVEMENT": [RecordingColumns.movement], "AXES": RecordingColumns.axes,
        ]
        #expect(names == expected)
        #expect(text.contains("INERTIAL = (TIME,) + GYROSCOPE + ACCELEROMETER\n"))
        #expect(text.contains("SENSORS = INERTIAL + MAGNETOMETER\n"))
    }

    /// Every spelling in a unit's table reads as its unit, the Greek mu as the micro sign, and the
    /// message lists the table in its order.
    @Test func everySpellingInTheTableReadsAsItsUnit() {
        for (text, unit) in TimeUnit.headerSpellings { #expect(TimeUnit(headerText: text) == unit, "\(text)") }
        for (text, unit) in GyroscopeUnit.headerSpellings { #expect(GyroscopeUnit(headerText: text) == unit, "\(text)") }
        for (text, unit) in AccelerometerUnit.headerSpellings {
            #expect(AccelerometerUnit(headerText: text) == unit, "\(text)")
        }
        for (text, unit) in MagnetometerUnit.headerSpellings {
            #expect(MagnetometerUnit(headerText: text) == unit, "\(text)")
        }
        #expect(TimeUnit(headerText: "\u{3BC}s") == .microseconds && MagnetometerUnit(headerText: "\u{3BC}T") == .microtesla)
        #expect(TimeUnit(headerText: "\u{3BC}") == nil && MagnetometerUnit(headerText: "\u{3BC}G") == nil)
        #expect(MeasuredQuantity.magnetometer.headerSpellings == ["µT", "uT", "nT", "mT", "gauss", "G"])
        #expect(MeasuredQuantity.time.headerSpellings == ["s", "ms", "us", "µs", "ns"])
    }

    /// A header spelled with the long names and units reads as the short one does.
    @Test func longNamesWithUnitsReadAsTheShortOnes() throws {
        let long = CSVReaderTests.file(
            "Time (s),Gyroscope X (deg/s),GYROSCOPE Y (deg/s),gyroscope z (deg/s),Accelerometer X (g),"
                + "Accelerometer Y (g),Accelerometer Z (g)\n0,90,0,0,0,0,1\n0.01,90,0,0,0,0,1\n")
        let short = CSVReaderTests.file(
            "t (s),gx (deg/s),gy (deg/s),gz (deg/s),ax (g),ay (g),az (g)\n0,90,0,0,0,0,1\n0.01,90,0,0,0,0,1\n")
        defer { for path in [long, short] { try? FileManager.default.removeItem(atPath: path) } }
        let a = try IMURecording.read(path: long, checksUnits: false)
        let b = try IMURecording.read(path: short, checksUnits: false)
        #expect(a.timestamps == b.timestamps && a.accelerometer == b.accelerometer)
        #expect(a.gyroscope == b.gyroscope && a.gyroscope[0].x == 90 * (Double.pi / 180))
    }
}
