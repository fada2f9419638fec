import Foundation
import Testing

@testable import MotionFusion

/// Nothing made up: a recording whose accelerometer never gave a reading that can stand for
/// gravity — cells all `nan`, all empty, all zero, or an accelerometer file with a header alone —
/// is refused by `fuse`, `device-motion` and `events`, naming the file, with no output written.
/// Before: `events` wrote "0.2,orientation,faceUp", `device-motion` flat gravity on every row,
/// `fuse` identity quaternions with flags only, all with exit 0.
@Suite("A sensor that never gave a reading")
struct MissingSensorTests {
    static func recording(accelerometer cells: String) -> String {
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for k in 0..<300 { text += "\(Double(k) * 0.01),0.1,-0.2,0.3,\(cells),20,0,-40\n" }
        return CSVReaderTests.file(text)
    }

    @Test(arguments: ["nan,nan,nan", ",,", "0,0,0", "nan,0,nan"])
    func noAccelerometerIsAnError(cells: String) throws {
        let input = Self.recording(accelerometer: cells)
        for command in ["fuse", "device-motion", "events"] {
            let output = FuseMultiRateTests.outputPath()
            // Zero (a magnitude of 0) is refused by the unit check before; --trust-units reaches this check.
            let message = FuseMultiRateTests.run([command, input, "-o", output, "--trust-units"])
            #expect(message?.contains("\(input): no accelerometer reading in the recording") == true, "\(command) \(cells): \(message ?? "exit 0")")
            #expect(!FileManager.default.fileExists(atPath: output), "\(command) \(cells): an output was written")
        }
    }

    @Test func anEmptyAccelerometerFileIsAnError() throws {
        var gyroscope = "t,x,y,z\n"
        for k in 0..<300 { gyroscope += "\(Double(k) * 0.01),0.1,-0.2,0.3\n" }
        let g = CSVReaderTests.file(gyroscope)
        let a = CSVReaderTests.file("t,x,y,z\n")
        let output = FuseMultiRateTests.outputPath()
        let message = FuseMultiRateTests.run(["fuse", "--gyroscope", g, "--accelerometer", a, "-o", output])
        #expect(message?.contains("no accelerometer reading") == true, "\(message ?? "exit 0")")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// One reading is enough: a recording whose accelerometer starts late is fused (its first rows
    /// without tilt correction, flagged), and device motion starts at that reading.
    @Test func anAccelerometerThatStartsLateIsUsed() throws {
        var text = "t,gx,gy,gz,ax,ay,az\n"
        for k in 0..<300 { text += "\(Double(k) * 0.01),0.1,-0.2,0.3," + (k < 100 ? "nan,nan,nan" : "0,0,9.81") + "\n" }
        let input = CSVReaderTests.file(text)
        let fused = FuseMultiRateTests.outputPath(), motion = FuseMultiRateTests.outputPath()
        #expect(FuseMultiRateTests.run(["fuse", input, "-o", fused]) == nil)
        #expect(try FuseCommandTests.output(fused).count == 300)
        #expect(FuseMultiRateTests.run(["device-motion", input, "-o", motion]) == nil)
        let rows = try String(contentsOfFile: motion, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(rows.count == 200, "rows from the first reading on: \(rows.count)")
    }
}
