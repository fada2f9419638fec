import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// `motion calibrate … -o -`: standard output carries only the calibration's JSON; the report goes
/// to standard error. Before, the report came first and "written to -" was glued after the JSON.
@Suite("motion calibrate to standard output")
struct CalibrateStandardOutputTests {
    @Test func standardOutputIsTheJSONAlone() throws {
        let folder = try Folder()
        defer { folder.remove() }
        var gestures = MotionScenario.named("gestures")!
        gestures.settings.sampleRate = 50
        let recording = try gestures.generate()
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for k in 0..<recording.count {
            let (g, a, m) = (recording.gyroscope[k], recording.accelerometer[k], recording.magnetometer![k])
            text += "\(recording.timestamps[k]),\(g.x),\(g.y),\(g.z),\(a.x),\(a.y),\(a.z),\(m.x),\(m.y),\(m.z)\n"
        }
        _ = try folder.write("rec.csv", text)
        let result = try StandardOutputTests.run(
            ["calibrate", "magnetometer", "rec.csv", "-o", "-", "--field-strength", "49"], in: folder)
        #expect(result.status == 0, "\(result.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any], "\(String(decoding: result.output, as: UTF8.self))")
        #expect(object["sensor"] as? String == "magnetometer")
        #expect((object["fieldStrength"] as? Double).map { abs($0 - 49) < 1e-9 } == true)
        // The same calibration as a file gets, byte for byte, and the report on standard error.
        _ = try StandardOutputTests.run(["calibrate", "magnetometer", "rec.csv", "-o", "mag.json", "--field-strength", "49"], in: folder)
        #expect(result.output == (try folder.read("mag.json")))
        #expect(result.error.contains("magnetometer calibration from") && result.error.contains("written to -"))
    }
}
